// `unlinked-mention`: the places of a note's prose that name another note (its title, an alias,
// its file name) without linking it (`Notebook.mentions(in:path:)`).
//
// Invariants:
// - Asked for, never imposed: the code is off until the configuration gives it a severity (or
//   `macmd check --unlinked` asks), and only then does anyone call this, with the note's tree.
//   The index itself keeps only each note's hashed prose words (`ProseWords`).
// - One diagnostic per mention, over the mention, at `hint` unless configured otherwise; the
//   message names the mention as written and the notes it names.

import Localization
import MarkdownSyntax

extension NotebookDiagnostics {
    /// The `unlinked-mention` diagnostics of `tree`, the text of the note at `path` in
    /// `notebook`: one per mention, in document order.
    public static func unlinkedMentions(in tree: SyntaxTree, path: String, notebook: Notebook) -> [NoteDiagnostic] {
        notebook.mentions(in: tree, path: path).map { mention in
            let written = String(decoding: tree.source[mention.range.range.clamped(to: tree.source.indices)], as: UTF8.self)
            return NoteDiagnostic(path: path, range: mention.range, severity: .hint, code: .unlinkedMention,
                                  message: LocalizedText("diagnostic.mention.unlinked", .string(written),
                                                         .string(mention.targets.joined(separator: "`, `"))))
        }
    }
}
