// GitHub-style heading anchors.
//
// Invariant: `slug(for:)` is a pure function of the text (lowercase; keep letters, marks, numbers
// and connector punctuation of every script plus `-`; each space becomes `-`; drop the rest);
// `SlugCounter` makes repeats unique in document order as GitHub does (`a`, `a-1`, `a-2`).

/// Turns heading text into GitHub's anchor slugs.
public enum HeadingSlugger {
    /// The slug of `text` without de-duplication: `"Hello, World!"` -> `"hello-world"`.
    public static func slug(for text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.lowercased().unicodeScalars {
            if scalar == " " {
                result.append("-")
                continue
            }
            if scalar == "-" || scalar == "_" {
                result.append(scalar)
                continue
            }
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .nonspacingMark, .spacingMark, .enclosingMark,
                 .decimalNumber, .letterNumber, .otherNumber, .connectorPunctuation:
                result.append(scalar)
            default:
                break
            }
        }
        return String(result)
    }
}

/// Hands out unique slugs in document order.
public struct SlugCounter: Sendable {
    private var seen: [String: Int] = [:]

    public init() {}

    /// The slug for the next heading with this text: the plain slug the first time, then `-1`, `-2`…
    public mutating func uniqueSlug(for text: String) -> String {
        let base = HeadingSlugger.slug(for: text)
        guard let count = seen[base] else {
            seen[base] = 0
            return base
        }
        var next = count + 1
        var candidate = "\(base)-\(next)"
        // A heading literally titled "a-1" may already own the suffixed form.
        while seen[candidate] != nil {
            next += 1
            candidate = "\(base)-\(next)"
        }
        seen[base] = next
        seen[candidate] = 0
        return candidate
    }
}
