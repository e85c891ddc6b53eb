// Markdown shown when hovering a link or a tag.
//
// Invariants:
// - Output is Markdown for the editor's hover; titles are escaped and paths are code spans, so
//   nothing in a name can turn into markup. Our own words are catalog messages (`LocalizedText`)
//   that the server writes in the writer's language; names and paths are their arguments.
// - An excerpt is at most `maximumLines` non-blank lines and `maximumBytes` bytes, cut at a
//   UTF-8 scalar boundary (never inside a character), with `…` when it was cut; a code fence
//   left open by the cut is closed, so the rest of the hover does not turn into code.
// - Pure: the caller passes the target's source bytes; nothing here reads files.

import Localization
import MarkdownSyntax
import NotebookIndex
import TextCore

/// Builds hover contents for links and tags.
public enum HoverText {
    /// Default number of non-blank lines in an excerpt.
    public static let defaultMaximumLines = 8
    /// Default size limit of an excerpt, in UTF-8 bytes.
    public static let defaultMaximumBytes = 1200
    /// The excerpt of an embed's hover (`![[note#Section]]`): the section it shows, up to this
    /// many non-blank lines and bytes.
    public static let embedMaximumLines = 40
    public static let embedMaximumBytes = 6000

    /// The hover of a link to `note` (the target, read from `source`): its title in bold, its
    /// path, and an excerpt: the section of `heading` when the link names one, the block of
    /// `block` when it names a block, else the opening lines of the body after the front matter.
    public static func note(_ note: NoteSymbols, source: [UInt8], heading: HeadingSymbol? = nil,
                            block: BlockIDSymbol? = nil, maximumLines: Int = defaultMaximumLines,
                            maximumBytes: Int = defaultMaximumBytes) -> String {
        var header = "**" + NavigationText.escapedMarkdown(note.title) + "**"
        if let heading, !heading.text.isEmpty {
            header += " › " + NavigationText.escapedMarkdown(heading.text)
        }
        var region = ByteSpan(0, source.count)
        if let frontMatter = note.frontMatter {
            region = ByteSpan(NavigationText.nextLineStart(source, after: Int(frontMatter.range.end)), source.count)
        }
        if let block {
            region = block.blockRange
        } else if let heading, let index = note.headings.firstIndex(where: { $0.range == heading.range }) {
            // The section of the heading the resolver returned; its own line is in the header.
            let sections = DocumentOutline.sectionRanges(headings: Array(note.headings), source: source)
            let start = NavigationText.nextLineStart(source, after: Int(heading.range.end))
            region = ByteSpan(min(start, Int(sections[index].end)), Int(sections[index].end))
        }
        let body = excerpt(source, region: region, maximumLines: maximumLines, maximumBytes: maximumBytes)
        var text = header + "\n\n" + NavigationText.codeSpan(note.path)
        if !body.isEmpty { text += "\n\n---\n\n" + body }
        return text
    }

    /// The hover of a tag: `` `#name` — used N times in M notes ``.
    public static func tag(_ name: String, uses: Int, notes: Int) -> LocalizedText {
        let tag = NavigationText.codeSpan("#" + name)
        if uses <= 0 { return LocalizedText("hover.tag.unused", .string(tag)) }
        let noteCount = CatalogArgument.message("hover.tag.count", .integer(max(notes, 0)))
        if uses == 1 { return LocalizedText("hover.tag.usedOnce", .string(tag), noteCount) }
        return LocalizedText("hover.tag.used", .string(tag), .integer(uses), noteCount)
    }

    /// The hover of a link that does not reach a note: what it points to or why it is broken.
    /// Nil for `.note` (use `note(_:source:heading:block:)`) and for external links (the editor
    /// shows the URL itself).
    public static func unresolved(_ resolution: Resolution) -> LocalizedText? {
        switch resolution {
        case .note, .external:
            return nil
        case .file(let path):
            return file(path, exists: true)
        case .brokenNote(let target):
            return target.isEmpty ? LocalizedText("hover.link.noDefinition")
                : LocalizedText("hover.link.brokenNote", .string(NavigationText.codeSpan(target)))
        case .brokenHeading(let note, let heading):
            return LocalizedText("hover.link.brokenHeading", .string(NavigationText.codeSpan(heading)), .string(NavigationText.codeSpan(note)))
        case .brokenBlock(let note, let id):
            return LocalizedText("hover.link.brokenBlock", .string(NavigationText.codeSpan("^" + id)), .string(NavigationText.codeSpan(note)))
        case .outside(let path):
            return LocalizedText("hover.link.outside", .string(NavigationText.codeSpan(path)))
        case .ambiguous(let paths):
            return LocalizedText("hover.link.ambiguous", .integer(paths.count),
                                 .string(paths.map { "\n- " + NavigationText.codeSpan($0) }.joined()))
        }
    }

    /// The hover of a link to a file that is not a note: its path, and whether it is missing.
    public static func file(_ path: String, exists: Bool) -> LocalizedText {
        LocalizedText(exists ? "hover.file.exists" : "hover.file.missing", .string(NavigationText.codeSpan(path)))
    }

    /// The lines of `region` (source bytes): leading blank lines dropped, runs of blank lines
    /// kept as one, at most `maximumLines` non-blank lines and `maximumBytes` bytes.
    public static func excerpt(_ source: [UInt8], region: ByteSpan, maximumLines: Int = defaultMaximumLines,
                               maximumBytes: Int = defaultMaximumBytes) -> String {
        let end = max(0, min(Int(region.end), source.count))
        var index = max(0, min(Int(region.start), end))
        var out: [UInt8] = []
        var nonBlank = 0
        var pendingBlank = false
        var truncated = false
        var fence: (byte: UInt8, length: Int)? = nil
        while index < end {
            let lineEnd = min(NavigationText.nextLineStart(source, after: index), end)
            let content = NavigationText.trimmedEnd(source, end: lineEnd, floor: index)
            let isBlank = !source[index..<content].contains { !NavigationText.isBlank($0) }
            if isBlank {
                pendingBlank = !out.isEmpty
                index = lineEnd
                continue
            }
            if nonBlank == maximumLines {
                truncated = true
                break
            }
            if pendingBlank { out.append(0x0A) }
            pendingBlank = false
            let line = source[index..<content]
            let room = maximumBytes - out.count
            if line.count + 1 > room {
                let cut = NavigationText.scalarBoundary(Array(line), atOrBefore: max(0, room - 1))
                out.append(contentsOf: line.prefix(cut))
                out.append(0x0A)
                truncated = true
                fence = toggledFence(fence, line: line)
                break
            }
            out.append(contentsOf: line)
            out.append(0x0A)
            fence = toggledFence(fence, line: line)
            nonBlank += 1
            index = lineEnd
        }
        if truncated {
            if let open = fence {
                out.append(contentsOf: "…\n".utf8)
                out.append(contentsOf: [UInt8](repeating: open.byte, count: open.length))
            } else {
                // Drop the last line ending so `…` ends the text.
                if out.last == 0x0A { out.removeLast() }
                out.append(contentsOf: " …".utf8)
            }
        } else {
            if out.last == 0x0A { out.removeLast() }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The fence state after `line`: a fence of three or more backticks or tildes (up to three
    /// spaces in) opens a block when none is open, and closes the open one when it is the same
    /// character, at least as long, with nothing after it.
    private static func toggledFence(_ open: (byte: UInt8, length: Int)?, line: ArraySlice<UInt8>) -> (byte: UInt8, length: Int)? {
        var index = line.startIndex
        var spaces = 0
        while index < line.endIndex, line[index] == 0x20, spaces < 4 { index += 1; spaces += 1 }
        guard spaces < 4, index < line.endIndex else { return open }
        let byte = line[index]
        guard byte == UInt8(ascii: "`") || byte == UInt8(ascii: "~") else { return open }
        var length = 0
        while index < line.endIndex, line[index] == byte { index += 1; length += 1 }
        guard length >= 3 else { return open }
        if let open {
            let rest = line[index...]
            if open.byte == byte, length >= open.length, !rest.contains(where: { !NavigationText.isBlank($0) }) { return nil }
            return open
        }
        return (byte, length)
    }
}
