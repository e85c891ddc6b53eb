// Slugger: heading ids as GitHub makes them (the github-slugger algorithm).
//
// Invariants:
// - `Slugger.slug(for:)` (static) is a pure function of its text: lowercase it as JavaScript
//   does (final sigma included), drop every character that is not a letter, mark, decimal or
//   letter number, connector punctuation (`_`), alphabetic (such as Ⓐ), `-` or a space, then
//   turn each space into `-`. Letters of every script are kept; nothing is transliterated.
//   Like github-slugger, "other numbers" such as `½` and `²` are dropped, as are symbols
//   (emoji), other punctuation and separators.
// - A `Slugger` value remembers the slugs it has handed out, so repeats get `-1`, `-2`, … and
//   no two slugs it returns are equal (exactly as github-slugger's `BananaSlug.slug`).
// - This runs on output text (headings), so it works on `Unicode.Scalar`s, not bytes.

/// Makes GitHub-style heading ids, unique within one document.
///
/// ```swift
/// var slugger = Slugger()
/// slugger.slug(for: "Hello, World!")  // "hello-world"
/// slugger.slug(for: "Hello World")    // "hello-world-1"
/// Slugger.slug(for: "Café au lait")   // "café-au-lait"
/// ```
public struct Slugger: Sendable {
    /// How many times each base slug has been repeated so far, keyed by every slug handed out.
    private var occurrences = SlugCounts()

    /// A slugger that has handed out nothing yet.
    public init() {}

    /// The slug of `text`, made unique among the slugs this slugger has already returned by
    /// appending `-1`, `-2`, … as github-slugger does.
    public mutating func slug(for text: String) -> String {
        let base = Slugger.slug(for: text)
        var result = base
        while occurrences[result] != nil {
            let repeats = (occurrences[base] ?? 0) + 1
            occurrences[base] = repeats
            result = base + "-" + String(repeats)
        }
        occurrences[result] = 0
        return result
    }

    /// Forgets every slug handed out, as for a new document.
    public mutating func reset() {
        occurrences = SlugCounts()
    }

    /// The slug of `text` on its own, without making it unique.
    public static func slug(for text: String) -> String {
        // Most headings are ASCII or in scripts whose letters lowercasing leaves alone: filter
        // their bytes without Unicode tables where the ranges tell.
        var utf8 = text
        if let fast = utf8.withUTF8({ bytesSlug($0) }) { return fast }
        return generalSlug(text)
    }

    /// The slug by the definition: lowercase, then keep or drop each scalar.
    static func generalSlug(_ text: String) -> String {
        // Lowercasing allocates and consults Unicode tables: skip it when nothing would change.
        let needsLowercasing = text.unicodeScalars.contains {
            Slugger.mayChangeWhenLowercased($0.value) && $0.properties.changesWhenLowercased
        }
        var result = String.UnicodeScalarView()
        for scalar in (needsLowercasing ? Slugger.lowercased(text) : text).unicodeScalars {
            if scalar == " " {
                result.append("-")
            } else if Slugger.keptByRange(scalar.value) ?? isKept(scalar) {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// `text` lowercased as JavaScript's `toLowerCase` does it (github-slugger's first step): the
    /// full default mapping, and a capital sigma that ends a word becomes `ς` (the Final_Sigma
    /// context of SpecialCasing.txt), which `String.lowercased()` leaves as `σ`.
    static func lowercased(_ text: String) -> String {
        guard text.unicodeScalars.contains(Slugger.capitalSigma) else { return text.lowercased() }
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() {
            if scalar == Slugger.capitalSigma {
                result.append(Slugger.endsWord(scalars, sigmaAt: index) ? "\u{03C2}" : "\u{03C3}")
            } else {
                result.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
            }
        }
        return String(result)
    }

    private static let capitalSigma: Unicode.Scalar = "\u{03A3}"

    /// The Final_Sigma condition: a cased letter comes before the sigma and none after it, skipping
    /// case-ignorable characters (marks, apostrophes) both ways. Each scan stops at the first scalar
    /// that is not case-ignorable, and a sigma is cased, so the scans stay linear in the text.
    private static func endsWord(_ scalars: [Unicode.Scalar], sigmaAt index: Int) -> Bool {
        var before = index - 1
        while before >= 0, scalars[before].properties.isCaseIgnorable { before -= 1 }
        guard before >= 0, scalars[before].properties.isCased else { return false }
        var after = index + 1
        while after < scalars.count, scalars[after].properties.isCaseIgnorable { after += 1 }
        return !(after < scalars.count && scalars[after].properties.isCased)
    }

    /// The slug of valid UTF-8 `bytes` whose scalars lowercasing cannot change (ASCII capitals
    /// aside, which are lowered here); nil when one might change (the caller lowercases the
    /// whole text, since lowercasing can depend on the context, as for a final sigma).
    static func bytesSlug(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var failed = false
        // A slug is never longer than its text: ASCII maps one to one or is dropped, and other
        // scalars are kept as they are or dropped.
        let result = String.writingUTF8(capacity: bytes.count) { out -> Int in
            var length = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte < 0x80 {
                    switch byte {
                    case 0x41...0x5A: out[length] = byte | 0x20
                    case 0x61...0x7A, 0x30...0x39, 0x2D, 0x5F: out[length] = byte
                    case 0x20: out[length] = 0x2D
                    default:
                        index += 1
                        continue
                    }
                    length += 1
                    index += 1
                    continue
                }
                // Two- and three-byte sequences (the BMP below the surrogates and above) only.
                guard let (value, width) = UTF8BMPScalar.decode(bytes, at: index), !mayChangeWhenLowercased(value),
                      let scalar = Unicode.Scalar(value) else {
                    failed = true
                    return 0
                }
                if keptByRange(value) ?? isKept(scalar) {
                    for offset in 0..<width { out[length + offset] = bytes[index + offset] }
                    length += width
                }
                index += width
            }
            return length
        }
        return failed ? nil : result
    }

    /// False for scalars known not to change when lowercased: ASCII other than capitals, basic
    /// lower-case Greek and Cyrillic, and scripts without case (Arabic, Devanagari, kana, CJK,
    /// Hangul). Anything else must ask the Unicode properties. (A test checks every range.)
    @inline(__always)
    public static func mayChangeWhenLowercased(_ v: UInt32) -> Bool {
        switch v {
        case 0x00...0x40, 0x5B...0xBF, 0xD7, 0xDF...0xFF: return false
        case 0x3AC...0x3CE, 0x430...0x45F, 0x600...0x6FF, 0x900...0x97F, 0x3040...0x30FF, 0x3400...0x9FFF, 0xAC00...0xD7AF:
            return false
        default: return true
        }
    }

    /// `isKept` for the letters and marks of common scripts, known by range; nil elsewhere.
    /// (A test checks every range against `isKept`.)
    @inline(__always)
    static func keptByRange(_ v: UInt32) -> Bool? {
        switch v {
        case 0x3AC...0x3CE, 0x430...0x45F, 0x621...0x64A, 0x64B...0x65F, 0x660...0x669, 0x905...0x939, 0x93E...0x94D,
             0x3041...0x3096, 0x30A1...0x30FA, 0x4E00...0x9FFF, 0xAC00...0xD7A3:
            return true
        default:
            return nil
        }
    }

    /// True for the characters github-slugger keeps: letters, marks, decimal and letter numbers,
    /// connector punctuation, anything alphabetic, and `-` (the space is handled by the caller).
    static func isKept(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let value = scalar.value
            return (value >= 0x61 && value <= 0x7A) || (value >= 0x41 && value <= 0x5A)
                || (value >= 0x30 && value <= 0x39) || value == 0x2D || value == 0x5F
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark,
             .decimalNumber, .letterNumber,
             .connectorPunctuation:
            return true
        default:
            // github-slugger keeps alphabetic characters from the categories it drops, such as
            // the circled letters (Other_Symbol).
            return scalar.properties.isAlphabetic
        }
    }
}

/// Slug counts for one document: a short list while it is short (most notes have a handful of
/// headings, and a hash table per note costs more than comparing a few strings), a dictionary
/// once it grows, so a document with thousands of headings stays linear.
struct SlugCounts: Sendable {
    /// The slugs and their counts while there are few (one array, room for eight made at the
    /// first slug: a note's headings grow it once at most).
    private var entries: [(key: String, count: Int)] = []
    private var table: [String: Int]? = nil
    private static let listLimit = 24

    subscript(key: String) -> Int? {
        get {
            if let table { return table[key] }
            guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
            return entries[index].count
        }
        set {
            if table != nil {
                table?[key] = newValue
                return
            }
            if let index = entries.firstIndex(where: { $0.key == key }) {
                guard let newValue else {
                    entries.remove(at: index)
                    return
                }
                entries[index].count = newValue
                return
            }
            guard let newValue else { return }
            if entries.isEmpty { entries.reserveCapacity(8) }
            entries.append((key, newValue))
            if entries.count > SlugCounts.listLimit {
                table = Dictionary(uniqueKeysWithValues: entries.lazy.map { ($0.key, $0.count) })
                entries = []
            }
        }
    }
}
