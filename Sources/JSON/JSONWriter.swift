// JSONWriter: compact, deterministic serialization of a JSONValue into bytes.
//
// Invariants:
// - The walk uses an explicit task stack, so a deeply nested value never deepens the call stack.
// - Strings are copied run by run from their contiguous UTF-8 (long ones eight bytes a step, by
//   `JSONEscaper`); only `"`, `\` and the control characters U+0000...U+001F are escaped (short
//   forms where JSON has them, else `\u00XX`).
// - Object keys are written in sorted order, so equal values serialize to equal bytes.

struct JSONWriter {
    private enum Task {
        case value(JSONValue)
        case key(String)
        case byte(UInt8)
    }

    private var tasks: [Task] = []

    mutating func write(_ value: JSONValue, into output: inout [UInt8]) {
        tasks.removeAll(keepingCapacity: true)
        tasks.append(.value(value))
        while let task = tasks.popLast() {
            switch task {
            case .byte(let byte):
                output.append(byte)
            case .key(let key):
                Self.writeString(key, into: &output)
                output.append(UInt8(ascii: ":"))
            case .value(let value):
                writeValue(value, into: &output)
            }
        }
    }

    private mutating func writeValue(_ value: JSONValue, into output: inout [UInt8]) {
        switch value {
        case .null:
            output.append(contentsOf: "null".utf8)
        case .bool(let flag):
            output.append(contentsOf: flag ? "true".utf8 : "false".utf8)
        case .int(let integer):
            Self.writeInteger(integer, into: &output)
        case .double(let double):
            Self.writeDouble(double, into: &output)
        case .string(let string):
            Self.writeString(string, into: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            tasks.append(.byte(UInt8(ascii: "]")))
            // Pushed in reverse so they pop in order.
            var index = elements.count - 1
            while index >= 0 {
                tasks.append(.value(elements[index]))
                if index > 0 { tasks.append(.byte(UInt8(ascii: ","))) }
                index -= 1
            }
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            tasks.append(.byte(UInt8(ascii: "}")))
            // Sorted pairs rather than sorted keys: no hash lookup per member.
            let sorted = members.sorted { $0.key < $1.key }
            var index = sorted.count - 1
            while index >= 0 {
                let (key, value) = sorted[index]
                tasks.append(.value(value))
                tasks.append(.key(key))
                if index > 0 { tasks.append(.byte(UInt8(ascii: ","))) }
                index -= 1
            }
        }
    }

    static func writeInteger(_ integer: Int64, into output: inout [UInt8]) {
        if integer < 0 { output.append(UInt8(ascii: "-")) }
        var magnitude = integer.magnitude
        if magnitude < 10 {
            output.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude))
            return
        }
        // 20 digits hold UInt64.max; digits are produced last first, then copied in order.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            while magnitude > 0 && start > 0 {
                start -= 1
                digits[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start..<20]))
        }
    }

    static func writeDouble(_ double: Double, into output: inout [UInt8]) {
        guard double.isFinite else {
            output.append(contentsOf: "null".utf8)
            return
        }
        // Swift's description is the shortest text that reads back to the same Double and is
        // JSON number syntax for finite values ("1.0", "1e-07", "1e+20", "-0.0").
        output.append(contentsOf: double.description.utf8)
    }


    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "a") &+ (nibble &- 10)
    }

    static func writeString(_ string: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            // Long strings (a document's text, a rendered preview) take the word-at-a-time path.
            if utf8.count >= 256 {
                JSONEscaper.append(utf8, to: &output)
                return
            }
            JSONEscaper.table.withUnsafeBufferPointer { table in
                var runStart = 0
                var index = 0
                let count = utf8.count
                while true {
                    index = ByteScan.firstSpecial(utf8, from: index, to: count)
                    guard index < count else { break }
                    let byte = utf8[index]
                    if runStart < index {
                        output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                    }
                    let escape = table[Int(byte)]
                    output.append(UInt8(ascii: "\\"))
                    if escape == 1 {
                        output.append(UInt8(ascii: "u"))
                        output.append(UInt8(ascii: "0"))
                        output.append(UInt8(ascii: "0"))
                        output.append(hexDigit(byte >> 4))
                        output.append(hexDigit(byte & 0xF))
                    } else {
                        output.append(escape)
                    }
                    index += 1
                    runStart = index
                }
                if runStart < count {
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<count]))
                }
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
