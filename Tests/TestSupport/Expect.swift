import Foundation
import XCTest

/// Expectations written in the test's source, next to their fixtures, that `MACMD_BLESS=1`
/// rewrites in place (as rust-analyzer's `expect-test` does): a table of cases
///
/// ```
/// check([
///     ("See [[so$0", "[[soil]]"),
///     ("`[[so$0`", nil),
/// ])
/// ```
///
/// is a list of fixture literals, each followed by the literal of what the feature should make of
/// it (or `nil`). When a case fails under `MACMD_BLESS=1`, the literal after the case's fixture
/// in the calling file is replaced with what the feature made, and the case passes; review the
/// change in the diff. The fixture must be written once in the file as one string literal
/// (without interpolation) for blessing to find it; a blessed expectation is written as a
/// one-line literal with escapes.
public enum Expect {
    /// Fails unless `actual` equals `expected`; under `MACMD_BLESS=1`, rewrites in `file` the
    /// literal that follows the literal `fixture` with `actual` instead, and passes.
    public static func equal(_ actual: String?, _ expected: String?, fixture: String,
                             file: StaticString = #filePath, line: UInt = #line) {
        guard actual != expected else { return }
        if Golden.isBlessing {
            do {
                try bless(fixture: fixture, with: actual, in: "\(file)")
                return
            } catch {
                XCTFail("cannot bless \(fixture.debugDescription): \(error)", file: file, line: line)
                return
            }
        }
        XCTFail("\(fixture.debugDescription)\n  expected: \(expected?.debugDescription ?? "nil")\n  actual:   "
                + "\(actual?.debugDescription ?? "nil")\n  (MACMD_BLESS=1 writes the actual text into the test)",
                file: file, line: line)
    }

    /// Why a blessing could not be written.
    public struct BlessError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Rewrites the literal after the one literal whose value is `fixture` in the source file
    /// `path`.
    static func bless(fixture: String, with actual: String?, in path: String) throws {
        let source = try String(contentsOfFile: path, encoding: .utf8)
        let bytes = Array(source.utf8)
        let tokens = SwiftLiterals.tokens(bytes)
        let matches = tokens.indices.filter { tokens[$0].value == fixture }
        guard matches.count == 1, let index = matches.first else {
            throw BlessError(description: "the fixture is written \(matches.count) times in \(path) (once is needed)")
        }
        guard index + 1 < tokens.count, tokens[index + 1].isExpectation,
              SwiftLiterals.onlySeparators(bytes[tokens[index].range.upperBound..<tokens[index + 1].range.lowerBound]) else {
            throw BlessError(description: "no string literal or nil follows the fixture in \(path)")
        }
        let replaced = tokens[index + 1].range
        let updated = Array(bytes[..<replaced.lowerBound]) + Array(SwiftLiterals.literal(actual).utf8) + Array(bytes[replaced.upperBound...])
        try Data(updated).write(to: URL(fileURLWithPath: path))
    }
}

/// The string literals (and `nil`s) of Swift source, with their values: enough of Swift's lexer
/// to find a test's fixtures and expectations.
enum SwiftLiterals {
    struct Token {
        /// The bytes of the literal in the source.
        var range: Range<Int>
        /// The literal's value; nil for `nil` and for literals with interpolation.
        var value: String?
        /// True for a plain literal or `nil`: a place an expectation can be written.
        var isExpectation: Bool
    }

    /// True when `bytes` between two literals hold only what separates a fixture from its
    /// expectation: white space, a comma and an argument label (`expect:`).
    static func onlySeparators(_ bytes: ArraySlice<UInt8>) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix(",") else { return false }
        let rest = text.dropFirst().trimmingCharacters(in: .whitespacesAndNewlines)
        return rest.isEmpty || (rest.hasSuffix(":") && rest.dropLast().allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" })
    }

    /// `text` as a one-line Swift literal (`nil` for nil).
    static func literal(_ text: String?) -> String {
        guard let text else { return "nil" }
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\0": out += "\\0"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
                    || scalar.properties.generalCategory == .format || scalar.properties.generalCategory == .lineSeparator
                    || scalar.properties.generalCategory == .paragraphSeparator {
                    out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// The literals of `source` in order, skipping comments.
    static func tokens(_ source: [UInt8]) -> [Token] {
        var tokens: [Token] = []
        var index = 0
        let count = source.count
        func at(_ i: Int) -> UInt8 { i < count ? source[i] : 0 }
        func isIdentifier(_ byte: UInt8) -> Bool {
            (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F || byte >= 0x80
        }
        while index < count {
            let byte = source[index]
            if byte == UInt8(ascii: "/"), at(index + 1) == UInt8(ascii: "/") {
                while index < count, source[index] != 0x0A { index += 1 }
                continue
            }
            if byte == UInt8(ascii: "/"), at(index + 1) == UInt8(ascii: "*") {
                var depth = 0
                repeat {
                    if at(index) == UInt8(ascii: "/"), at(index + 1) == UInt8(ascii: "*") { depth += 1; index += 2 }
                    else if at(index) == UInt8(ascii: "*"), at(index + 1) == UInt8(ascii: "/") { depth -= 1; index += 2 }
                    else { index += 1 }
                } while depth > 0 && index < count
                continue
            }
            if isIdentifier(byte) {
                let start = index
                while index < count, isIdentifier(source[index]) { index += 1 }
                if index - start == 3, source[start..<index].elementsEqual("nil".utf8), start == 0 || !isIdentifier(source[start - 1]) {
                    tokens.append(Token(range: start..<index, value: nil, isExpectation: true))
                }
                continue
            }
            if byte == UInt8(ascii: "#") || byte == UInt8(ascii: "\"") {
                var hashes = 0
                var quote = index
                while at(quote) == UInt8(ascii: "#") { hashes += 1; quote += 1 }
                guard at(quote) == UInt8(ascii: "\"") else { index = quote + (hashes == 0 ? 1 : 0); continue }
                let (token, end) = literal(source, start: index, quote: quote, hashes: hashes)
                tokens.append(token)
                index = end
                continue
            }
            index += 1
        }
        return tokens
    }

    /// The literal whose opening quote is at `quote`, after `hashes` `#`s from `start`.
    private static func literal(_ source: [UInt8], start: Int, quote: Int, hashes: Int) -> (Token, Int) {
        let count = source.count
        func at(_ i: Int) -> UInt8 { i < count ? source[i] : 0 }
        let isMultiline = at(quote + 1) == UInt8(ascii: "\"") && at(quote + 2) == UInt8(ascii: "\"")
        let delimiter = isMultiline ? 3 : 1
        var index = quote + delimiter
        var interpolated = false
        func closes(_ i: Int) -> Bool {
            for offset in 0..<delimiter where at(i + offset) != UInt8(ascii: "\"") { return false }
            for offset in 0..<hashes where at(i + delimiter + offset) != UInt8(ascii: "#") { return false }
            return true
        }
        var value: [UInt8] = []
        while index < count, !closes(index) {
            let byte = source[index]
            if byte == UInt8(ascii: "\\"), (0..<hashes).allSatisfy({ at(index + 1 + $0) == UInt8(ascii: "#") }) {
                let escape = index + 1 + hashes
                switch at(escape) {
                case UInt8(ascii: "n"): value.append(0x0A)
                case UInt8(ascii: "r"): value.append(0x0D)
                case UInt8(ascii: "t"): value.append(0x09)
                case UInt8(ascii: "0"): value.append(0)
                case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "'"): value.append(at(escape))
                case UInt8(ascii: "("):
                    interpolated = true
                    var depth = 1
                    var i = escape + 1
                    while i < count, depth > 0 {
                        if source[i] == UInt8(ascii: "(") { depth += 1 } else if source[i] == UInt8(ascii: ")") { depth -= 1 }
                        i += 1
                    }
                    index = i
                    continue
                case UInt8(ascii: "u"):
                    var i = escape + 2
                    var hex = 0
                    while i < count, source[i] != UInt8(ascii: "}"), i - escape < 10 {
                        hex = hex * 16 + (Int(String(UnicodeScalar(source[i])), radix: 16) ?? 0)
                        i += 1
                    }
                    value.append(contentsOf: Array(String(Unicode.Scalar(UInt32(hex)).map(Character.init) ?? "\u{FFFD}").utf8))
                    index = i + 1
                    continue
                case 0x0A where isMultiline:
                    break  // a line continuation
                default:
                    value.append(at(escape))
                }
                index = escape + 1
                continue
            }
            value.append(byte)
            index += 1
        }
        let end = min(count, index + delimiter + hashes)
        var text = String(decoding: value, as: UTF8.self)
        if isMultiline { text = stripIndentation(text) }
        let token = Token(range: start..<end, value: interpolated ? nil : text, isExpectation: !interpolated && hashes == 0 && !isMultiline)
        return (token, end)
    }

    /// A multi-line literal's value: the first line break dropped, and the closing delimiter's
    /// indentation taken off every line, as Swift does.
    private static func stripIndentation(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= 2 else { return text }
        lines.removeFirst()
        let indentation = lines.removeLast()
        guard indentation.allSatisfy({ $0 == " " || $0 == "\t" }) else { return text }
        return lines.map { $0.hasPrefix(indentation) ? String($0.dropFirst(indentation.count)) : $0 }.joined(separator: "\n")
    }
}
