// A tag's page: the notes of a notebook that carry a tag, as a page the preview shows where a
// tag chip leads (`macmd/preview` with `tag`; the chips link there with the option `tagPages`).
//
// Invariants: the page is Markdown made here and rendered by the preview's own path (theme,
// full page, the notebook's URLs as `PreviewOptions.resources` says), as a note at the
// notebook's root would be; its only links are the notes', by their paths from the root; a
// nested tag's notes (`#garden/beds` for `#garden`) come in a section of their own, after the
// tag's own notes. Names and titles are escaped, so no title becomes markup.

import NotebookIndex
import NotebookWorkspace

extension AnalysisSnapshot {
    /// The page of `tag` (with or without its `#`) in the notebook at `folder`; nil when there
    /// is no such notebook.
    public func tagPage(_ tag: String, folder path: String, options: PreviewOptions,
                        finishPiece: (@Sendable ([UInt8]) -> [UInt8])? = nil) -> (preview: Preview, htmlPieces: [[UInt8]])? {
        guard let folder = workspace.folder(path) else { return nil }
        let name = tag.hasPrefix("#") ? String(tag.dropFirst()) : tag
        let text = AnalysisSnapshot.tagPageText(name, in: folder.notebook)
        return preview(DocumentAnalysis(version: nil, text: Array(text.utf8)), note: NoteRef(folder: folder.path, path: "#" + name),
                       fileName: "#" + name, options: options, finishPiece: finishPiece)
    }

    /// The Markdown of a tag's page: a heading for the tag, then a list of its notes by title;
    /// then, for each nested tag (in name order), its heading and its notes.
    static func tagPageText(_ name: String, in notebook: Notebook) -> String {
        var byTag: [String: Set<String>] = [:]
        for path in notebook.uses(ofTag: name).keys {
            guard let note = notebook.notes[path] else { continue }
            for use in note.tags where TagSymbol.name(use.name, matches: name) { byTag[use.name, default: []].insert(path) }
        }
        var text = "# " + escaped("#" + name) + "\n"
        let tags = byTag.keys.sorted { ($0 != name ? 1 : 0, $0) < ($1 != name ? 1 : 0, $1) }
        for tag in tags {
            if tag != name { text += "\n## " + escaped("#" + tag) + "\n" }
            text += "\n"
            let notes = (byTag[tag] ?? []).compactMap { notebook.notes[$0] }
                .sorted { ($0.title.folded, $0.path) < ($1.title.folded, $1.path) }
            for note in notes {
                text += "- [" + escaped(note.title.isEmpty ? note.path : note.title) + "](<" + destination(note.path) + ">)\n"
            }
        }
        return text
    }

    /// `text` with every ASCII punctuation character written as a character reference, so it is
    /// read as it is written (a backslash would not do: `\[` and `\(` open maths in a notebook).
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII, scalar.properties.isPatternSyntax || scalar == "_" {
                result += "&#\(scalar.value);"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A path as a link destination in angle brackets.
    static func destination(_ path: String) -> String {
        var result = ""
        for scalar in path.unicodeScalars {
            if scalar == "<" || scalar == ">" || scalar == "\\" { result.append("\\") }
            result.unicodeScalars.append(scalar)
        }
        return result
    }
}
