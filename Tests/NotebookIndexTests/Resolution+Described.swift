import NotebookIndex

extension Resolution {
    /// A resolution as a short string for table-driven tests: `note path#heading^block id=html-id`,
    /// `file path`, `external`, `outside path`, `broken path`, `brokenHeading path#heading`,
    /// `brokenBlock path^id`, `ambiguous a, b`.
    var described: String {
        switch self {
        case .note(let path, let heading, let block, let htmlID):
            return "note \(path)" + (heading.map { "#" + $0.text } ?? "") + (block.map { "^" + $0.id } ?? "")
                + (htmlID.map { " id=" + $0.id } ?? "")
        case .file(let path): return "file \(path)"
        case .external: return "external"
        case .outside(let path): return "outside \(path)"
        case .brokenNote(let path): return "broken \(path)"
        case .brokenHeading(let note, let heading): return "brokenHeading \(note)#\(heading)"
        case .brokenBlock(let note, let id): return "brokenBlock \(note)^\(id)"
        case .ambiguous(let paths): return "ambiguous " + paths.joined(separator: ", ")
        }
    }
}
