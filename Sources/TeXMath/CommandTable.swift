// Command names to their meaning, looked up straight from the formula's bytes.
//
// Invariants:
// - Built once (a `static let`, so the first use in any thread builds it, once) from
//   `MathSymbols.data` and `MathCommand.constructs`; read-only afterwards.
// - A lookup hashes the name's bytes (FNV-1a) and probes an open-addressing table at most as many
//   times as there are entries: no `String` is made, nothing is allocated.

/// The table of every command the converter knows.
struct CommandTable: Sendable {
    /// Names, one after the other.
    private var names: [UInt8] = []
    /// Per entry: where its name is in `names`.
    private var nameRanges: [Range<Int32>] = []
    private var commands: [MathCommand] = []
    /// Entry index + 1 per slot; 0 is an empty slot. The count is a power of two.
    private var slots: [Int32] = []
    /// The text of every symbol, one after the other.
    private(set) var symbolText: [UInt8] = []
    /// Symbol class by scalar, for characters typed directly (`≤`, `α`).
    private(set) var classOfScalar: [UInt32: SymbolClass] = [:]
    /// Names given twice (a mistake in the data; a test checks there are none).
    private(set) var duplicates: [String] = []

    static let shared = CommandTable()

    private init() {
        var entries: [(String, MathCommand)] = []
        for line in MathSymbols.data.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 3, let code = fields[0].utf8.first, let symbolClass = SymbolClass(code: code) else { continue }
            let text = fields[1]
            for name in fields[2...] {
                let start = Int32(symbolText.count)
                symbolText.append(contentsOf: (text == "=" ? name : text).utf8)
                entries.append((String(name), .symbol(symbolClass, start..<Int32(symbolText.count))))
            }
            let scalars = text.unicodeScalars
            if text != "=", scalars.count == 1, let scalar = scalars.first, scalar.value >= 0x80,
               classOfScalar[scalar.value] == nil {
                classOfScalar[scalar.value] = symbolClass
            }
        }
        entries.append(contentsOf: MathCommand.constructs)
        var capacity = 1
        while capacity < entries.count * 2 { capacity <<= 1 }
        slots = Array(repeating: 0, count: capacity)
        for (name, command) in entries {
            let bytes = Array(name.utf8)
            let existing = bytes.withUnsafeBufferPointer { index(of: $0) }
            if existing != nil {
                duplicates.append(name)
                continue
            }
            let start = Int32(names.count)
            names.append(contentsOf: bytes)
            nameRanges.append(start..<Int32(names.count))
            commands.append(command)
            var slot = bytes.withUnsafeBufferPointer { Self.hash($0) } & (capacity - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = Int32(commands.count)
        }
    }

    @inline(__always)
    private static func hash(_ name: UnsafeBufferPointer<UInt8>) -> Int {
        var value: UInt32 = 2_166_136_261
        for byte in name { value = (value ^ UInt32(byte)) &* 16_777_619 }
        return Int(value)
    }

    private func index(of name: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var slot = Self.hash(name) & mask
        return names.withUnsafeBufferPointer { names -> Int? in
            while true {
                let entry = Int(slots[slot]) - 1
                if entry < 0 { return nil }
                let range = nameRanges[entry]
                if Int(range.count) == name.count, Self.equal(names.baseAddress, Int(range.lowerBound), name) {
                    return entry
                }
                slot = (slot + 1) & mask
            }
        }
    }

    /// True when the `name.count` bytes at `offset` of `names` are `name`.
    @inline(__always)
    private static func equal(_ names: UnsafePointer<UInt8>?, _ offset: Int, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let names, let bytes = name.baseAddress else { return name.isEmpty }
        var index = 0
        while index < name.count {
            if names[offset + index] != bytes[index] { return false }
            index += 1
        }
        return true
    }

    /// The command with this name (without the backslash), if there is one.
    func command(named name: UnsafeBufferPointer<UInt8>) -> MathCommand? {
        index(of: name).map { commands[$0] }
    }

    /// The command with this name, for tests and tools.
    func command(named name: String) -> MathCommand? {
        Array(name.utf8).withUnsafeBufferPointer { command(named: $0) }
    }

    /// Every name in the table.
    var allNames: [String] {
        nameRanges.map { String(decoding: names[Int($0.lowerBound)..<Int($0.upperBound)], as: UTF8.self) }
    }
}
