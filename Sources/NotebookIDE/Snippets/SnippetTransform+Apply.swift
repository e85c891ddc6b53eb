// Applying a variable's transform (`${NAME/regex/format/options}`) as VS Code does: the first
// match (every match with `g`) replaced by the format, the rest of the value kept; when nothing
// matches and the format has an `else` text, the format alone with no groups.
//
// The regular expression is Swift's `Regex` (its syntax is close to JavaScript's for the common
// cases: classes, groups, alternation, quantifiers, anchors, `\d \w \s \b`). It is compiled
// where it is applied, since `Regex` is not `Sendable`; the parser compiled it once already, so
// a transform that reaches this point compiles.

extension SnippetTransform {
    /// The option letters a transform may have.
    static let optionLetters = "gimsu"

    /// The regular expression with the transform's options.
    func compiled() throws -> Regex<AnyRegexOutput> {
        var regex = try Regex(pattern)
        if options.utf8.contains(UInt8(ascii: "i")) { regex = regex.ignoresCase() }
        if options.utf8.contains(UInt8(ascii: "m")) { regex = regex.anchorsMatchLineEndings() }
        if options.utf8.contains(UInt8(ascii: "s")) { regex = regex.dotMatchesNewlines() }
        return regex
    }

    /// Why the regular expression does not compile, or nil when it does.
    func compileError() -> String? {
        do {
            _ = try compiled()
            return nil
        } catch {
            return String(describing: error)
        }
    }

    /// `value` transformed.
    public func apply(to value: String) -> String {
        guard let regex = try? compiled() else { return value }
        var matched = false
        let replaced = value.replacing(regex, maxReplacements: options.utf8.contains(UInt8(ascii: "g")) ? .max : 1) { match in
            matched = true
            return formatted(groups: match.output.map(\.substring))
        }
        if !matched, format.contains(where: \.hasElse) { return formatted(groups: []) }
        return replaced
    }

    /// The format with the capture groups `groups` (0 is the whole match).
    func formatted(groups: [Substring?]) -> String {
        func group(_ number: Int) -> Substring { number < groups.count ? groups[number] ?? "" : "" }
        var result = ""
        for part in format {
            switch part {
            case .text(let text):
                result += text
            case .group(let number):
                result += group(number)
            case .caseChange(let number, let change):
                result += change.apply(to: group(number))
            case .conditional(let number, let ifMatched, let otherwise):
                let value = group(number)
                result += value.isEmpty ? otherwise : ifMatched ?? String(value)
            }
        }
        return result
    }
}

extension SnippetFormatPart {
    /// True for a conditional with a non-empty `else` text (VS Code then formats even when the
    /// regular expression does not match).
    var hasElse: Bool {
        if case .conditional(_, _, let otherwise) = self { return !otherwise.isEmpty }
        return false
    }
}

extension SnippetCaseChange {
    /// `text` with the case change applied.
    public func apply(to text: Substring) -> String {
        switch self {
        case .upcase:
            return text.uppercased()
        case .downcase:
            return text.lowercased()
        case .capitalize:
            guard let first = text.first else { return "" }
            return first.uppercased() + text.dropFirst()
        case .camelcase, .pascalcase:
            let words = SnippetCaseChange.asciiWords(text)
            guard !words.isEmpty else { return String(text) }
            var result = ""
            for (index, word) in words.enumerated() {
                let first = String(word.prefix(1))
                result += (index == 0 && self == .camelcase ? first.lowercased() : first.uppercased()) + word.dropFirst()
            }
            return result
        }
    }

    /// The runs of ASCII letters and digits of `text` (VS Code's `/[a-z0-9]+/gi`).
    static func asciiWords(_ text: Substring) -> [Substring] {
        var words: [Substring] = []
        var start: Substring.Index? = nil
        var index = text.startIndex
        while index < text.endIndex {
            let scalar = text.unicodeScalars[index]
            let isWordScalar = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
            if isWordScalar {
                if start == nil { start = index }
            } else if let wordStart = start {
                words.append(text[wordStart..<index])
                start = nil
            }
            index = text.unicodeScalars.index(after: index)
        }
        if let wordStart = start { words.append(text[wordStart...]) }
        return words
    }
}
