/// How a Markdown link whose path reaches nothing is read (configuration key
/// `links.markdownResolution`).
public enum MarkdownResolution: String, Sendable, Equatable, CaseIterable {
    /// Relative to the linking note's folder (or the root for `/…`), and nothing else: what
    /// GitHub, static-site generators and most Markdown tools do.
    case relative
    /// As `relative`, then, when that reaches nothing, by name anywhere in the notebook like a
    /// wiki-link: what Obsidian does (`[x](Note.md)` reaches `folder/Note.md`).
    case obsidian
}
