#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Localization
import MarkdownSyntax
import NotebookIDE
import NotebookIndex
import NotebookWorkspace
import TextCore

/// What the server does with one note an editor opens in a notebook, measured phase by phase:
/// the pathological cases run a note through all of it (`PathologicalCases.Case.indexed`), so a
/// construct that is linear to parse but quadratic to index, check, outline, fold, hover or
/// convert to LSP positions is found too.
///
/// The notebook is `/notebook`, its index complete and its root named (so links that lead
/// nowhere are errors, as in a real notebook), with one other note, `a.md` (`# A`, a section
/// `h` and a block `^id`), which links such as `[[a#h]]` find. Nothing is read from disk.
public struct ServedNote: Sendable {
    /// The time one phase took.
    public struct Phase: Sendable {
        public var name: String
        public var seconds: Double
    }

    public var symbols: NoteSymbols
    public var diagnostics: [DiagnosticResult]
    public var outline: [OutlineSymbol]
    public var folding: [FoldingRange]
    public var documentLinks: [DocumentLinkResult]
    /// The hovers at the probed offsets that found something.
    public var hovers: [HoverResult]
    /// The definitions and references found at the probed offsets, all together.
    public var navigation: [NoteSpan]
    public var codeActions: [CodeActionResult]
    /// The whole-note formatting's edits (`textDocument/formatting`: tables).
    public var formatting: [TextReplacement]
    /// The completion items at the probed offsets, all together.
    public var completionCount: Int
    /// The edits of renaming the first tag, heading and link target.
    public var renameEdits: Int
    /// What a workspace symbol search for `h` found.
    public var workspaceSymbols: Int
    public var preview: Preview
    /// Every phase in the order it ran; their sum is the time the note took.
    public var phases: [Phase]

    /// The path of the served note in its notebook.
    public static let path = "note.md"
    /// The notebook's folder.
    public static let folder = "/notebook"
    /// The other note of the notebook.
    public static let otherNote = "# A\n\n## h\n\nA paragraph. ^id\n"

    /// Opens `text` as `note.md` in the notebook and asks for everything an editor asks for on
    /// opening a note and moving about in it. The positions of every range are converted to
    /// UTF-16 line and column, as the server does for most clients.
    public static func serve(_ text: [UInt8]) -> ServedNote {
        var phases: [Phase] = []
        var clock = BenchClock.now()
        func lap(_ name: String) {
            let now = BenchClock.now()
            phases.append(Phase(name: name, seconds: now - clock))
            clock = now
        }

        let files = MemoryFiles(contents: [folder + "/a.md": Array(otherNote.utf8)])
        var host = AnalysisHost(files: files)
        host.addFolder(folder)
        host.updateFolder(folder) { notebook in
            notebook.scan = .done
            notebook.isNamedByUser = true
            _ = notebook.update(document: NoteSymbols.extract(from: MarkdownParser.parse(otherNote), path: "a.md"))
        }
        let document = OpenDocument(id: "file://" + folder + "/" + path, file: folder + "/" + path, languageID: "markdown",
                                    version: 1, text: text)
        host.open(document)
        // What `didOpen` starts: parse, symbols, filing into the notebook (`Notebook.update`).
        let analysis = document.analysis
        _ = analysis.tree
        lap("parse")
        _ = analysis.lines
        lap("line index")
        guard let (_, filed) = host.needsFiling(document.id, version: 1) else { preconditionFailure("the note is in no notebook") }
        let symbols = filed.symbols(path: path)
        lap("symbols")
        host.bringUpToDate(document.id, version: 1, symbols: symbols)
        let view = host.snapshot().view(of: document)
        lap("index")
        let diagnostics = view.diagnostics()
        lap("diagnostics")
        let outline = view.outline()
        lap("outline")
        let folding = view.foldingRanges()
        lap("folding")
        let documentLinks = view.documentLinks()
        lap("document links")

        // Hover, definition and references where a user would ask: on the first, a middle and
        // the last link, tag, heading and block id, and at the start, middle and end.
        var probes = [0, text.count / 2, text.count]
        func probe<List: RandomAccessCollection>(_ list: List, _ start: (List.Element) -> Int32) where List.Index == Int {
            for symbol in [list.first, list.isEmpty ? nil : list[list.count / 2], list.last] {
                if let symbol { probes.append(Int(start(symbol)) + 1) }
            }
        }
        probe(symbols.links) { $0.range.start }
        probe(symbols.tags) { $0.range.start }
        probe(symbols.headings) { $0.range.start }
        probe(symbols.blockIDs) { $0.range.start }
        var hovers: [HoverResult] = []
        var navigation: [NoteSpan] = []
        for offset in probes {
            if let hover = view.hover(at: offset) { hovers.append(hover) }
            navigation += view.definition(at: offset) ?? []
            navigation += view.references(at: offset, includeDeclaration: true)
        }
        lap("hover, definition, references")
        // Renaming the first tag, heading and link target: every use becomes an edit.
        var renameEdits = 0
        var renamedHere: [TextReplacement] = []
        for offset in [symbols.tags.first, nil].compactMap({ $0 }).map({ Int($0.range.start) + 1 })
            + [symbols.headings.first.map { Int($0.textRange.start) }, symbols.links.first.map { Int($0.range.start) + 2 }].compactMap({ $0 }) {
            guard let change = try? view.rename(at: offset, to: "renamed") else { continue }
            for case .edit(let target, let edits) in change.steps {
                renameEdits += edits.count
                if target.path == path { renamedHere += edits }
            }
        }
        lap("rename")
        let workspaceSymbols = view.snapshot.workspaceSymbols(matching: "h").count
        lap("workspace symbols")
        let codeActions = view.codeActions(start: text.count / 2, end: text.count / 2, canCreateFiles: true)
        lap("code actions")
        let formatting = TableFormatting.edits(for: analysis.tree)
        lap("formatting")
        // Completion where typing goes on: inside the last link and after the last tag, and at
        // the end of the note.
        var completionCount = 0
        for offset in [symbols.links.last.map { Int($0.range.start) + 2 }, symbols.tags.last.map { Int($0.range.end) }, text.count] {
            if let offset { completionCount += view.completion(at: offset, locale: .en).items.count }
        }
        lap("completion")

        // The server's answers carry LSP positions: every range above, converted.
        let lines = view.lines
        var converted = 0
        func convert(_ span: ByteSpan) {
            converted &+= lines.utf16Position(ofUTF8Offset: Int(span.start)).utf16Column
            converted &+= lines.utf16Position(ofUTF8Offset: Int(span.end)).utf16Column
        }
        diagnostics.forEach { convert($0.span) }
        var outlineStack = outline
        while let symbol = outlineStack.popLast() {
            convert(symbol.range)
            convert(symbol.selectionRange)
            outlineStack += symbol.children
        }
        documentLinks.forEach { convert($0.span) }
        hovers.forEach { convert($0.span) }
        navigation.filter { $0.note.path == path }.forEach { convert($0.span) }
        formatting.forEach { convert($0.span) }
        renamedHere.forEach { convert($0.span) }
        lap("LSP positions")

        let preview = view.snapshot.preview(analysis, note: view.note, fileName: path, options: PreviewOptions()).preview
        lap("preview")
        return ServedNote(symbols: symbols, diagnostics: diagnostics, outline: outline, folding: folding,
                          documentLinks: documentLinks, hovers: hovers, navigation: navigation, codeActions: codeActions,
                          formatting: formatting, completionCount: completionCount, renameEdits: renameEdits,
                          workspaceSymbols: workspaceSymbols, preview: preview, phases: phases)
    }

    /// The outline's entries, depth first (children after their parent).
    public var flatOutline: [OutlineSymbol] {
        var result: [OutlineSymbol] = []
        var stack = Array(outline.reversed())
        while let symbol = stack.popLast() {
            result.append(symbol)
            stack += symbol.children.reversed()
        }
        return result
    }

    /// How many diagnostics have each code.
    public var diagnosticCounts: [String: Int] {
        diagnostics.reduce(into: [:]) { $0[$1.code.rawValue, default: 0] += 1 }
    }
}

/// Files from memory: what the served note's notebook reads instead of the disk.
struct MemoryFiles: NotebookFiles {
    var contents: [String: [UInt8]]
    func contents(of path: String) -> [UInt8]? { contents[path] }
    func exists(_ path: String) -> Bool { contents[path] != nil }
}

/// The monotonic clock the benchmarks read.
public enum BenchClock {
    /// Monotonic seconds.
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
