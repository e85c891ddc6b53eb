// The snippet grammar of LSP 3.17 (VS Code's), read from bytes into a `SnippetTemplate`.
//
// Invariants:
// - Never traps: any body gives a template or a `SnippetParseError` with the UTF-8 offset of the
//   problem. Linear in the body's length; nesting deeper than `maxDepth` is an error, so the
//   recursion is bounded.
// - Where VS Code reads a lone `$` as text, so does this parser: `$` not followed by a digit, a
//   letter, `_` or `{` is a literal `$` (`$ 5`, `$$`). A `}` outside any `${` is text. A `\` that
//   escapes nothing is a literal backslash (at the end too).
// - Escapes: `\$ \} \\` everywhere; in a choice's options also `\, \|` (and `$`, `{`, `}` are
//   plain text there); in a transform's regular expression `\/` is a slash and every other
//   escape is the expression's own; in its format `\/ \$ \\ \} \:` (`\:` for a colon in the
//   `if` text of `${1:?if:else}`).
// - Where VS Code silently turns a broken `${…}` into text, this parser reports it: an unclosed
//   `${`, a `${` followed by neither a number nor a name, a number or name followed by anything
//   but what the grammar allows, an empty or unclosed choice, a regular expression that does
//   not compile. A snippet file is written by hand, and the writer learns where it went wrong.

import Localization

/// Why a snippet body could not be read, and where.
public struct SnippetParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong ("unclosed ${").
    public var message: LocalizedText
    /// The UTF-8 offset in the body where the problem is (the `$` of an unclosed `${`).
    public var utf8Offset: Int

    public init(message: LocalizedText, utf8Offset: Int) {
        self.message = message
        self.utf8Offset = utf8Offset
    }

    /// `unclosed ${ at 12`.
    public var description: String { message.english + " at " + String(utf8Offset) }
}

/// Reads snippet bodies.
public enum SnippetParser {
    /// The deepest nesting of placeholders and variable defaults (`${1:${2:${3:…}}}`) a body
    /// may have.
    public static let maxDepth = 32
    /// The largest tab stop (and capture group) number.
    public static let maxNumber = 999_999
    /// The longest regular expression a transform may have, in UTF-8 bytes (the regex parser
    /// recurses on groups).
    public static let maxPatternBytes = 1_000

    /// Parses a snippet body.
    public static func parse(_ body: String) -> Result<SnippetTemplate, SnippetParseError> {
        var scanner = SnippetScanner(bytes: Array(body.utf8))
        do throws(SnippetParseError) {
            return .success(SnippetTemplate(nodes: try scanner.parseNodes(opener: nil, depth: 0)))
        } catch {
            return .failure(error)
        }
    }
}

/// The scanner behind `SnippetParser.parse`: one pass over the bytes, recursive descent into
/// `${…}`.
struct SnippetScanner {
    let bytes: [UInt8]
    var position = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private static let dollar = UInt8(ascii: "$")
    private static let backslash = UInt8(ascii: "\\")
    private static let openBrace = UInt8(ascii: "{")
    private static let closeBrace = UInt8(ascii: "}")
    private static let slash = UInt8(ascii: "/")
    private static let colon = UInt8(ascii: ":")
    private static let bar = UInt8(ascii: "|")
    private static let comma = UInt8(ascii: ",")

    static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
    static func isNameStart(_ byte: UInt8) -> Bool {
        (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte == UInt8(ascii: "_")
    }
    static func isNameByte(_ byte: UInt8) -> Bool { isNameStart(byte) || isDigit(byte) }

    private func byte(at index: Int) -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private func string(_ buffer: [UInt8]) -> String { String(decoding: buffer, as: UTF8.self) }

    private func error(_ key: String, _ arguments: CatalogArgument..., at offset: Int) -> SnippetParseError {
        SnippetParseError(message: LocalizedText(key, arguments: arguments), utf8Offset: offset)
    }

    // MARK: Nodes

    /// The nodes up to the end of the body (`opener` nil) or up to the `}` that closes the `${`
    /// at `opener`, which is consumed.
    mutating func parseNodes(opener: Int?, depth: Int) throws(SnippetParseError) -> [SnippetNode] {
        if let opener, depth > SnippetParser.maxDepth {
            throw error("snippet.parse.nestedTooDeep", .integer(SnippetParser.maxDepth), at: opener)
        }
        var nodes: [SnippetNode] = []
        var text: [UInt8] = []
        func flush() {
            if !text.isEmpty { nodes.append(.text(string(text))) }
            text.removeAll(keepingCapacity: true)
        }
        while position < bytes.count {
            let current = bytes[position]
            if current == Self.closeBrace, opener != nil {
                position += 1
                flush()
                return nodes
            }
            if current == Self.backslash {
                readEscape(into: &text, escapes: SnippetScanner.isTextEscape)
                continue
            }
            if current == Self.dollar, let node = try parseDollar(depth: depth) {
                flush()
                nodes.append(node)
                continue
            }
            text.append(current)
            position += 1
        }
        if let opener { throw error("snippet.parse.unclosed", at: opener) }
        flush()
        return nodes
    }

    /// The construct at the `$` at `position`, or nil (position unchanged) when the `$` is text.
    private mutating func parseDollar(depth: Int) throws(SnippetParseError) -> SnippetNode? {
        let start = position
        guard let next = byte(at: start + 1) else { return nil }
        if Self.isDigit(next) {
            position += 1
            return .tabStop(try parseNumber())
        }
        if Self.isNameStart(next) {
            position += 1
            return .variable(name: parseName(), default: nil, transform: nil)
        }
        guard next == Self.openBrace else { return nil }
        position += 2
        guard let first = byte(at: position) else { throw error("snippet.parse.unclosed", at: start) }
        if Self.isDigit(first) {
            let number = try parseNumber()
            switch byte(at: position) {
            case Self.closeBrace?:
                position += 1
                return .tabStop(number)
            case Self.colon?:
                position += 1
                return .placeholder(number, try parseNodes(opener: start, depth: depth + 1))
            case Self.bar?:
                position += 1
                return .choice(number, try parseChoice(opener: start))
            case nil:
                throw error("snippet.parse.unclosed", at: start)
            default:
                throw error("snippet.parse.afterTabStop", at: position)
            }
        }
        if Self.isNameStart(first) {
            let name = parseName()
            switch byte(at: position) {
            case Self.closeBrace?:
                position += 1
                return .variable(name: name, default: nil, transform: nil)
            case Self.colon?:
                position += 1
                return .variable(name: name, default: try parseNodes(opener: start, depth: depth + 1), transform: nil)
            case Self.slash?:
                return .variable(name: name, default: nil, transform: try parseTransform(opener: start))
            case nil:
                throw error("snippet.parse.unclosed", at: start)
            default:
                throw error("snippet.parse.afterVariable", at: position)
            }
        }
        throw error("snippet.parse.expectedNumberOrName", at: position)
    }

    /// The digits at `position` as a number no larger than `SnippetParser.maxNumber`.
    private mutating func parseNumber() throws(SnippetParseError) -> Int {
        let start = position
        var value = 0
        while let digit = byte(at: position), Self.isDigit(digit) {
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
            if value > SnippetParser.maxNumber {
                throw error("snippet.parse.numberTooLarge", .string(String(SnippetParser.maxNumber)), at: start)
            }
            position += 1
        }
        return value
    }

    /// The variable name at `position` (its first byte already checked).
    private mutating func parseName() -> String {
        let start = position
        while let next = byte(at: position), Self.isNameByte(next) { position += 1 }
        return string(Array(bytes[start..<position]))
    }

    // MARK: Choices

    /// The options of `${1|a,b|}` after the first `|`, through the closing `|}`.
    private mutating func parseChoice(opener: Int) throws(SnippetParseError) -> [String] {
        var options: [String] = []
        var option: [UInt8] = []
        while let current = byte(at: position) {
            switch current {
            case Self.backslash:
                readEscape(into: &option, escapes: SnippetScanner.isOptionEscape)
            case Self.comma, Self.bar:
                if option.isEmpty { throw error("snippet.parse.emptyChoiceOption", at: position) }
                options.append(string(option))
                option.removeAll(keepingCapacity: true)
                position += 1
                if current == Self.bar {
                    guard byte(at: position) == Self.closeBrace else {
                        throw error("snippet.parse.choiceEnd", at: position - 1)
                    }
                    position += 1
                    return options
                }
            default:
                option.append(current)
                position += 1
            }
        }
        throw error("snippet.parse.unclosedChoice", at: opener)
    }

    // MARK: Transforms

    /// `/regex/format/options}` at the `/` at `position`, through the closing `}`.
    private mutating func parseTransform(opener: Int) throws(SnippetParseError) -> SnippetTransform {
        let sourceStart = position
        position += 1
        let patternStart = position
        var pattern: [UInt8] = []
        while true {
            guard let current = byte(at: position) else { throw error("snippet.parse.unclosed", at: opener) }
            position += 1
            if current == Self.slash { break }
            if current == Self.backslash, let next = byte(at: position) {
                // `\/` is a slash; any other escape belongs to the regular expression.
                if next != Self.slash { pattern.append(current) }
                pattern.append(next)
                position += 1
            } else {
                pattern.append(current)
            }
        }
        if pattern.count > SnippetParser.maxPatternBytes {
            throw error("snippet.parse.regexTooLong", .string(String(SnippetParser.maxPatternBytes)), at: patternStart)
        }
        if SnippetScanner.groupDepth(pattern) > SnippetParser.maxDepth {
            throw error("snippet.parse.regexTooDeep", .integer(SnippetParser.maxDepth), at: patternStart)
        }
        let format = try parseFormat(opener: opener)
        let optionsStart = position
        while true {
            guard let current = byte(at: position) else { throw error("snippet.parse.unclosed", at: opener) }
            if current == Self.closeBrace { break }
            guard SnippetTransform.optionLetters.utf8.contains(current) else {
                throw error("snippet.parse.regexOption", at: position)
            }
            position += 1
        }
        let options = string(Array(bytes[optionsStart..<position]))
        let source = string(Array(bytes[sourceStart..<position]))
        position += 1
        let transform = SnippetTransform(pattern: string(pattern), format: format, options: options, source: source)
        if let message = transform.compileError() {
            throw error("snippet.parse.badRegex", .string(message), at: patternStart)
        }
        return transform
    }

    /// How deeply the unescaped parentheses of `pattern` nest (an upper bound: parentheses in
    /// a character class count too).
    static func groupDepth(_ pattern: [UInt8]) -> Int {
        var depth = 0
        var deepest = 0
        var index = 0
        while index < pattern.count {
            switch pattern[index] {
            case UInt8(ascii: "\\"): index += 1
            case UInt8(ascii: "("): depth += 1; deepest = max(deepest, depth)
            case UInt8(ascii: ")"): depth = max(0, depth - 1)
            default: break
            }
            index += 1
        }
        return deepest
    }

    /// A transform's format, after the regular expression's closing `/`, through its own `/`.
    private mutating func parseFormat(opener: Int) throws(SnippetParseError) -> [SnippetFormatPart] {
        var parts: [SnippetFormatPart] = []
        var text: [UInt8] = []
        func flush() {
            if !text.isEmpty { parts.append(.text(string(text))) }
            text.removeAll(keepingCapacity: true)
        }
        while true {
            guard let current = byte(at: position) else { throw error("snippet.parse.unclosed", at: opener) }
            if current == Self.slash {
                position += 1
                flush()
                return parts
            }
            if current == Self.backslash {
                readEscape(into: &text, escapes: SnippetScanner.isFormatEscape)
                continue
            }
            if current == Self.dollar, let next = byte(at: position + 1) {
                if Self.isDigit(next) {
                    position += 1
                    flush()
                    parts.append(.group(try parseNumber()))
                    continue
                }
                if next == Self.openBrace {
                    let start = position
                    position += 2
                    flush()
                    parts.append(try parseFormatGroup(start: start, opener: opener))
                    continue
                }
            }
            text.append(current)
            position += 1
        }
    }

    // MARK: Escapes

    /// At a `\`: appends the byte it escapes, when `escapes` names it, else the backslash
    /// itself (the next byte is then read on its own), and moves past what it appended.
    private mutating func readEscape(into text: inout [UInt8], escapes: (UInt8) -> Bool) {
        if let next = byte(at: position + 1), escapes(next) {
            text.append(next)
            position += 2
        } else {
            text.append(Self.backslash)
            position += 1
        }
    }

    /// In text and defaults: `\$ \} \\`.
    static func isTextEscape(_ byte: UInt8) -> Bool { byte == dollar || byte == closeBrace || byte == backslash }
    /// In a choice's options: those and `\, \|`.
    static func isOptionEscape(_ byte: UInt8) -> Bool { isTextEscape(byte) || byte == comma || byte == bar }
    /// In a transform's format: those of text and `\/ \:`.
    static func isFormatEscape(_ byte: UInt8) -> Bool { isTextEscape(byte) || byte == slash || byte == colon }

    /// `${1}`, `${1:/upcase}`, `${1:+if}`, `${1:?if:else}`, `${1:-else}` or `${1:else}` in a
    /// format, after its `${`.
    private mutating func parseFormatGroup(start: Int, opener: Int) throws(SnippetParseError) -> SnippetFormatPart {
        guard let first = byte(at: position) else { throw error("snippet.parse.unclosed", at: opener) }
        guard Self.isDigit(first) else { throw error("snippet.parse.expectedGroup", at: position) }
        let group = try parseNumber()
        switch byte(at: position) {
        case Self.closeBrace?:
            position += 1
            return .group(group)
        case Self.colon?:
            position += 1
        case nil:
            throw error("snippet.parse.unclosed", at: opener)
        default:
            throw error("snippet.parse.afterGroup", at: position)
        }
        switch byte(at: position) {
        case Self.slash?:
            position += 1
            let nameStart = position
            let name = try formatText(until: Self.closeBrace, opener: start)
            guard let change = SnippetCaseChange(rawValue: name) else {
                throw error("snippet.parse.caseChange", .string(name),
                            at: nameStart)
            }
            return .caseChange(group, change)
        case UInt8(ascii: "+")?:
            position += 1
            return .conditional(group, ifMatched: try formatText(until: Self.closeBrace, opener: start), otherwise: "")
        case UInt8(ascii: "?")?:
            position += 1
            let ifMatched = try formatText(until: Self.colon, opener: start)
            return .conditional(group, ifMatched: ifMatched, otherwise: try formatText(until: Self.closeBrace, opener: start))
        case UInt8(ascii: "-")?:
            position += 1
            return .conditional(group, ifMatched: nil, otherwise: try formatText(until: Self.closeBrace, opener: start))
        default:
            return .conditional(group, ifMatched: nil, otherwise: try formatText(until: Self.closeBrace, opener: start))
        }
    }

    /// The text up to an unescaped `stop`, which is consumed (`\$ \} \\ \/ \:` are escapes).
    private mutating func formatText(until stop: UInt8, opener: Int) throws(SnippetParseError) -> String {
        var text: [UInt8] = []
        while let current = byte(at: position) {
            if current == stop {
                position += 1
                return string(text)
            }
            if current == Self.backslash {
                readEscape(into: &text, escapes: SnippetScanner.isFormatEscape)
                continue
            }
            text.append(current)
            position += 1
        }
        throw error("snippet.parse.unclosed", at: opener)
    }
}
