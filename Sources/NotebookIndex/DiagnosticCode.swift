// DiagnosticCode: every problem MacMD reports, as data.
//
// Invariants:
// - Each code names its default severity (or none: off until configured), whether its answer
//   depends on other notes, whether it means a link found nothing, and the catalog keys of its
//   messages. Nothing else in the code lists codes: the finders, the configuration, the IDE and
//   the server read these properties.
// - The raw values are the stable names writers see and configure (`broken-link`); they never
//   change once released.
// - Its `summary` (DiagnosticCode+Summary.swift) is the English line the JSON Schema's
//   `diagnostics` properties and the table of docs/notebook.md are generated from
//   (`macmd-bench codes --write`); DiagnosticCodeDocsTests fails when those drift from it.
//
// Adding a diagnostic touches this type, the place that finds it, the catalog (its message)
// and a test; `macmd-bench codes --write` then rewrites the schema and the docs' table.

/// A problem MacMD reports in a note, by its stable name.
public enum DiagnosticCode: String, CaseIterable, Sendable, CustomStringConvertible {
    case brokenLink = "broken-link"
    case brokenWikilink = "broken-wikilink"
    case brokenHeading = "broken-heading"
    case brokenBlock = "broken-block"
    case brokenImage = "broken-image"
    case brokenFile = "broken-file"
    case linkOutsideNotebook = "link-outside-notebook"
    case ambiguousWikilink = "ambiguous-wikilink"
    case undefinedReference = "undefined-reference"
    case duplicateDefinition = "duplicate-definition"
    case unusedDefinition = "unused-definition"
    case duplicateHeading = "duplicate-heading"
    case malformedFrontMatter = "malformed-front-matter"
    case nestingLimit = "nesting-limit"
    case noteTooLarge = "note-too-large"
    case mathError = "math-error"
    case snippetError = "snippet-error"
    case unlinkedMention = "unlinked-mention"

    /// What is known of a code.
    public struct Facts: Sendable {
        /// The severity it is shown with when the configuration says nothing; nil: off until
        /// the configuration gives it one.
        public var defaultSeverity: NoteDiagnostic.Severity?
        /// Whether its answer depends on other notes or files (a link's target, its heading):
        /// a notebook whose first index is not complete reports none of these, since the target
        /// may only be unindexed so far.
        public var dependsOnOtherNotes: Bool = false
        /// Whether it means a link found nothing (no note, no file): where the notebook's root
        /// is a guess, the target may lie outside it, and the problem is a hint.
        public var meansNotFound: Bool = false
        /// Whether editors show it faded, as unused code (`DiagnosticTag.Unnecessary`).
        public var isUnnecessary: Bool = false
        /// The catalog keys of its messages; a key ending in `.` stands for every key under it
        /// (the messages of the front matter reader, of the maths converter).
        public var messageKeys: [String]
    }

    public var facts: Facts {
        switch self {
        case .brokenLink:
            Facts(defaultSeverity: .error, dependsOnOtherNotes: true, meansNotFound: true,
                  messageKeys: ["diagnostic.link.brokenNote", "diagnostic.reference.undefined"])
        case .brokenWikilink:
            Facts(defaultSeverity: .error, dependsOnOtherNotes: true, meansNotFound: true,
                  messageKeys: ["diagnostic.link.brokenNote"])
        case .brokenHeading:
            Facts(defaultSeverity: .error, dependsOnOtherNotes: true,
                  messageKeys: ["diagnostic.link.brokenHeading"])
        case .brokenBlock:
            Facts(defaultSeverity: .error, dependsOnOtherNotes: true,
                  messageKeys: ["diagnostic.link.brokenBlock"])
        case .brokenImage:
            Facts(defaultSeverity: .error, dependsOnOtherNotes: true, meansNotFound: true,
                  messageKeys: ["diagnostic.link.brokenImage"])
        case .brokenFile:
            Facts(defaultSeverity: .error, dependsOnOtherNotes: true, meansNotFound: true,
                  messageKeys: ["diagnostic.link.brokenFile"])
        case .linkOutsideNotebook:
            Facts(defaultSeverity: .hint, dependsOnOtherNotes: true,
                  messageKeys: ["diagnostic.link.outsideNotebook"])
        case .ambiguousWikilink:
            Facts(defaultSeverity: .warning, dependsOnOtherNotes: true,
                  messageKeys: ["diagnostic.link.ambiguousNotes", "diagnostic.link.ambiguousFiles"])
        case .undefinedReference:
            Facts(defaultSeverity: .warning,
                  messageKeys: ["diagnostic.reference.undefined"])
        case .duplicateDefinition:
            Facts(defaultSeverity: .warning,
                  messageKeys: ["diagnostic.definition.duplicate"])
        case .unusedDefinition:
            Facts(defaultSeverity: .hint, isUnnecessary: true,
                  messageKeys: ["diagnostic.definition.unused"])
        case .duplicateHeading:
            Facts(defaultSeverity: .warning, dependsOnOtherNotes: true,
                  messageKeys: ["diagnostic.link.duplicateHeading"])
        case .malformedFrontMatter:
            Facts(defaultSeverity: .warning,
                  messageKeys: ["frontMatter."])
        case .nestingLimit:
            Facts(defaultSeverity: .warning,
                  messageKeys: ["syntax.nestingLimit"])
        case .noteTooLarge:
            Facts(defaultSeverity: .warning,
                  messageKeys: ["document.overLimit"])
        case .mathError:
            Facts(defaultSeverity: nil,
                  messageKeys: ["math.error."])
        case .snippetError:
            Facts(defaultSeverity: .error,
                  messageKeys: ["snippet."])
        case .unlinkedMention:
            Facts(defaultSeverity: nil, dependsOnOtherNotes: true,
                  messageKeys: ["diagnostic.mention.unlinked"])
        }
    }

    /// The severity it is shown with when the configuration says nothing; nil when it is off
    /// until configured.
    public var defaultSeverity: NoteDiagnostic.Severity? { facts.defaultSeverity }

    /// Whether its answer depends on other notes (see `Facts.dependsOnOtherNotes`).
    public var dependsOnOtherNotes: Bool { facts.dependsOnOtherNotes }

    /// Whether it means a link found nothing (see `Facts.meansNotFound`).
    public var meansNotFound: Bool { facts.meansNotFound }

    /// The stable name (`broken-link`).
    public var description: String { rawValue }

    /// The catalog keys that wrap or accompany the messages of several codes: a not-found link
    /// in a notebook whose root is a guess, the candidates of an ambiguous link.
    public static let sharedMessageKeys = ["diagnostic.rootGuessed", "diagnostic.related.candidate"]
}
