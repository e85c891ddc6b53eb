// Go to definition and find references over a notebook.
//
// Invariants:
// - Pure functions of a `Notebook` and a note's symbols; results are byte ranges in notes'
//   sources (`SourceRange`), which the server turns into LSP locations.
// - Results are sorted (by path, then position).

import MarkdownSyntax
import NotebookIndex
import TextCore

extension Notebook {
    // MARK: Definition

    /// Where the symbol at the cursor leads: a link's note, heading or block (a reference link's
    /// definition first); a definition's target.
    public func definition(of target: CursorTarget, in note: NoteSymbols) -> [SourceRange] {
        switch target {
        case .link(let link):
            var result: [SourceRange] = []
            if let label = link.referenceLabel,
               let definition = note.linkDefinitions.first(where: { $0.normalizedLabel == label.text }) {
                result.append(SourceRange(path: note.path, range: definition.range))
            }
            result += destination(of: link, from: note.path)
            return result
        case .definition(let definition):
            guard let link = note.links.first(where: { $0.referenceLabel?.text == definition.normalizedLabel }) else { return [] }
            return destination(of: link, from: note.path)
        case .heading, .tag, .blockID:
            return []
        }
    }

    /// The place a link reaches, when it reaches one in the notebook.
    public func destination(of link: LinkSymbol, from path: String) -> [SourceRange] {
        switch catalog.resolve(link, from: path) {
        case .note(let target, let heading, let block, let htmlID):
            let range = block?.blockRange ?? heading?.range ?? htmlID?.range ?? titlePlace(of: target)
            return [SourceRange(path: target, range: range)]
        case .file(let file) where assets.contains(file):
            return [SourceRange(path: file, range: .empty)]
        case .ambiguous(let candidates):
            return candidates.map { SourceRange(path: $0, range: titlePlace(of: $0)) }
        default:
            return []
        }
    }

    /// Where a link to a whole note leads: its title, where the note writes it, rather than its
    /// first byte (a front matter's `---`). The title heading (the first H1, or with a front
    /// matter title the H1 that reads the same); else the front matter's `title` key; else the
    /// first heading; else the start.
    func titlePlace(of path: String) -> ByteSpan {
        guard let note = notes[path] else { return .empty }
        if let heading = note.titleHeading { return heading.range }
        if note.titleSource == .frontMatter, let key = note.frontMatter?.entries.first(where: { $0.key == "title" }) {
            return key.keyRange
        }
        return note.headings.first?.range ?? .empty
    }

    // MARK: References

    /// Every use of the symbol at the cursor; with no symbol, or on the note's title heading
    /// (`NoteSymbols.titleHeading`), the backlinks of the note itself.
    public func references(of target: CursorTarget?, in note: NoteSymbols) -> [SourceRange] {
        var result: [SourceRange] = []
        switch target {
        case .link(let link)?:
            guard case .note(let path, let heading, let block, let htmlID) = catalog.resolve(link, from: note.path) else { return [] }
            result = backlinks(to: path).filter { backlink in
                if let block { return backlink.blockID?.id == block.id }
                if let htmlID { return backlink.htmlID?.range == htmlID.range }
                if let heading { return backlink.heading?.key == heading.key }
                return true
            }.map { SourceRange(path: $0.source, range: $0.link.range) }
        case .heading(let heading)? where heading == note.titleHeading:
            // The title stands for the note: its backlinks, whatever part of the note they name.
            result = backlinks(to: note.path).map { SourceRange(path: $0.source, range: $0.link.range) }
        case .heading(let heading)?:
            result = backlinks(to: note.path).filter { $0.heading?.key == heading.key }
                .map { SourceRange(path: $0.source, range: $0.link.range) }
        case .blockID(let block)?:
            result = backlinks(to: note.path).filter { $0.blockID?.id == block.id }
                .map { SourceRange(path: $0.source, range: $0.link.range) }
        case .tag(let tag)?:
            for (path, _) in uses(ofTag: tag.name) {
                guard let user = notes[path] else { continue }
                for use in user.tags where use.matches(tag.name) { result.append(SourceRange(path: path, range: use.range)) }
            }
        case .definition(let definition)?:
            result = note.links.filter { $0.referenceLabel?.text == definition.normalizedLabel }
                .map { SourceRange(path: note.path, range: $0.range) }
        case nil:
            result = backlinks(to: note.path).map { SourceRange(path: $0.source, range: $0.link.range) }
        }
        return result.sorted { ($0.path, $0.range.start) < ($1.path, $1.range.start) }
    }
}
