// Problems of one note, found from its symbols and the catalog of the whole notebook: links that
// lead nowhere, ambiguous wiki-links, malformed front matter; and, from its tree when asked for,
// maths the converter rejects (`NotebookDiagnostics+Maths`). Plain values; the caller decides
// how to show them (`macmd check` prints them, the server publishes them) and which codes it
// shows (a code with no default severity only when configured). Every code, with its default
// severity and its messages, is listed by `DiagnosticCode`.

import Localization
import MarkdownSyntax
import TextCore

/// One problem in one note. `range` is in source bytes of the note.
public struct NoteDiagnostic: Sendable, Equatable {
    public enum Severity: String, Sendable, Comparable {
        case error, warning, information, hint

        private var rank: Int { [.error, .warning, .information, .hint].firstIndex(of: self) ?? 0 }
        public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
    }

    public var path: String
    public var range: ByteSpan
    public var severity: Severity
    /// What kind of problem it is (`broken-link`, `ambiguous-wikilink`, …).
    public var code: DiagnosticCode
    /// What a person reads, in their language when it is shown.
    public var message: LocalizedText
    /// Other places worth showing with it (the candidates of an ambiguous link), as paths.
    public var related: [String]

    /// A problem shown with `code`'s default severity (a code that is off until configured is
    /// shown as a warning when it is asked for).
    public init(path: String, range: ByteSpan, code: DiagnosticCode, message: LocalizedText, related: [String] = []) {
        self.init(path: path, range: range, severity: code.defaultSeverity ?? .warning, code: code, message: message, related: related)
    }

    public init(path: String, range: ByteSpan, severity: Severity, code: DiagnosticCode, message: LocalizedText, related: [String] = []) {
        self.path = path
        self.range = range
        self.severity = severity
        self.code = code
        self.message = message
        self.related = related
    }
}

public enum NotebookDiagnostics {
    /// A `duplicate-heading` message lists the ids of this many twins at most, then `…`: a link
    /// to one of ten thousand equal headings names a few, not all (each of ten thousand such
    /// links naming all of them made the diagnostics grow with the square of the note).
    public static let maximumTwinsListed = 10

    /// The diagnostics of `note` (its parser problems included: malformed front matter).
    /// `fileExists` answers for workspace-relative paths of files that are not notes (images).
    public static func check(_ note: NoteSymbols, catalog: NoteCatalog,
                             fileExists: (String) -> Bool) -> [NoteDiagnostic] {
        var result: [NoteDiagnostic] = []
        var knownTwins: [String: (count: Int, listed: String)] = [:]
        for problem in note.problems {
            let code: DiagnosticCode
            switch problem.code {
            case .malformedFrontMatter: code = .malformedFrontMatter
            case .nestingLimit: code = .nestingLimit
            case .noteTooLarge: code = .noteTooLarge
            case .documentTooLarge: continue
            }
            result.append(NoteDiagnostic(path: note.path, range: problem.range, code: code, message: problem.message))
        }
        for link in note.links {
            let written = link.form.isWiki ? (link.form == .wikiEmbed ? "![[" : "[[") + link.destination + "]]" : link.destination
            switch catalog.resolve(link, from: note.path) {
            case .external, .note(_, heading: nil, _, _):
                continue
            case .outside(let path):
                // A book published beside others links them with `../`: nothing here to check.
                result.append(NoteDiagnostic(path: note.path, range: link.target.range, code: .linkOutsideNotebook,
                                             message: LocalizedText("diagnostic.link.outsideNotebook", .string(path))))
            case .note(let target, let heading?, _, _):
                // A link by heading text (or by the shared slug) to a heading that appears twice
                // reaches only the first one.
                guard let part = link.headings.last?.text.folded, let targetNote = catalog.notes[target] else { continue }
                // The first of several equal headings keeps the bare slug and the next gets `-1`:
                // only then is there a twin to report (and worth computing the list).
                let second = heading.slug + "-1"
                let table = catalog.anchors[target]
                guard table?.hasHeading(slug: second) ?? targetNote.headings.contains(where: { $0.slug == second }) else { continue }
                let base = Slugger.slug(for: heading.text)
                // Each heading's twins once per note checked, whatever number of links reach it.
                let twinKey = target + "#" + base
                let twins = knownTwins[twinKey] ?? {
                    let found = table.map { $0.headings(withBaseSlug: base).map { targetNote.headings[Int($0)].slug } }
                        ?? targetNote.headings.filter { Slugger.slug(for: $0.text) == base }.map(\.slug)
                    // The ids a message lists: the first few, then `…`.
                    var listed = Array(found.prefix(maximumTwinsListed))
                    if found.count > maximumTwinsListed { listed.append("…") }
                    let twins = (count: found.count, listed: listed.joined(separator: ", "))
                    knownTwins[twinKey] = twins
                    return twins
                }()
                if twins.count > 1, part == heading.text.folded || part == base {
                    result.append(NoteDiagnostic(path: note.path, range: link.headings.last?.range ?? link.range,
                                                 code: .duplicateHeading,
                                                 message: LocalizedText("diagnostic.link.duplicateHeading", .string(target), .integer(twins.count),
                                                                        .string(heading.text), .string(twins.listed))))
                }
            case .file(let path):
                if !fileExists(path) {
                    // An embedded image is an image however it is written (`![i](a.png)`, `![[a.png]]`).
                    let isImage = link.isImage || (link.form == .wikiEmbed && NotebookDiagnostics.isImagePath(path))
                    result.append(NoteDiagnostic(path: note.path, range: link.target.range,
                                                 code: isImage ? .brokenImage : .brokenFile,
                                                 message: LocalizedText(isImage ? "diagnostic.link.brokenImage" : "diagnostic.link.brokenFile",
                                                                        .string(path), .string(written))))
                }
            case .brokenNote(let target):
                let code: DiagnosticCode = link.form.isWiki ? .brokenWikilink : .brokenLink
                let shown = target.isEmpty ? (link.referenceLabel?.text ?? link.destination) : target
                let message = target.isEmpty && link.referenceLabel != nil
                    ? LocalizedText("diagnostic.reference.undefined", .string(shown))
                    : LocalizedText("diagnostic.link.brokenNote", .string(shown), .string(written))
                result.append(NoteDiagnostic(path: note.path, range: link.target.range, code: code, message: message))
            case .brokenHeading(let target, let heading):
                let range = link.headings.last?.range ?? link.range
                result.append(NoteDiagnostic(path: note.path, range: range, code: .brokenHeading,
                                             message: LocalizedText("diagnostic.link.brokenHeading", .string(heading), .string(target))))
            case .brokenBlock(let target, let id):
                result.append(NoteDiagnostic(path: note.path, range: link.blockID?.range ?? link.range,
                                             code: .brokenBlock, message: LocalizedText("diagnostic.link.brokenBlock", .string(id), .string(target))))
            case .ambiguous(let candidates):
                result.append(NoteDiagnostic(path: note.path, range: link.target.range, code: .ambiguousWikilink,
                                             message: LocalizedText(catalog.notes[candidates.first ?? ""] == nil
                                                                        ? "diagnostic.link.ambiguousFiles" : "diagnostic.link.ambiguousNotes",
                                                                        .string(written), .integer(candidates.count),
                                                                        .string(candidates.joined(separator: ", "))),
                                             related: candidates))
            }
        }
        for reference in note.undefinedReferences {
            result.append(NoteDiagnostic(path: note.path, range: reference.range, code: .undefinedReference,
                                         message: LocalizedText("diagnostic.reference.undefined", .string(reference.text))))
        }
        result += definitionDiagnostics(note)
        if !note.ignoredCodes.isEmpty { result.removeAll { note.ignoredCodes.contains($0.code.rawValue) } }
        return result.sorted(by: NoteDiagnostic.inNoteOrder)
    }

    /// File extensions (lowercased) of images: what an embed shows as a picture.
    static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "svg", "webp", "bmp", "tif", "tiff", "avif", "heic", "ico"]

    /// True when `path` names an image by its extension (any case).
    static func isImagePath(_ path: String) -> Bool {
        NotebookPath.pathExtension(path).map { imageExtensions.contains($0.folded) } ?? false
    }

    /// Duplicate link reference definitions (the first one wins, as CommonMark says) and ones no
    /// reference link uses.
    static func definitionDiagnostics(_ note: NoteSymbols) -> [NoteDiagnostic] {
        var result: [NoteDiagnostic] = []
        var used: Set<String> = []
        for link in note.links {
            guard let label = link.referenceLabel else { continue }
            let bytes = Array(label.text.utf8)
            used.insert(bytes.withUnsafeBufferPointer { LinkScanners.normalizeLabel($0) })
        }
        var seen: Set<String> = []
        for definition in note.linkDefinitions {
            if seen.contains(definition.normalizedLabel) {
                result.append(NoteDiagnostic(path: note.path, range: definition.labelRange, code: .duplicateDefinition,
                                             message: LocalizedText("diagnostic.definition.duplicate", .string(definition.label))))
                continue
            }
            seen.insert(definition.normalizedLabel)
            if !used.contains(definition.normalizedLabel) {
                result.append(NoteDiagnostic(path: note.path, range: definition.labelRange, code: .unusedDefinition,
                                             message: LocalizedText("diagnostic.definition.unused", .string(definition.label))))
            }
        }
        return result
    }
}

extension NoteDiagnostic {
    /// The order of a note's diagnostics: by where they start, then by code.
    public static func inNoteOrder(_ a: NoteDiagnostic, _ b: NoteDiagnostic) -> Bool {
        (a.range.start, a.code.rawValue) < (b.range.start, b.code.rawValue)
    }
}
