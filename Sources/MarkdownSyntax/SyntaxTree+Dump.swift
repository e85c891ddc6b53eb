import TextCore

// A readable, stable text form of the tree for golden tests:
//   Heading @1:1-1:9 level=1
//     Text @1:3-1:9 "Title"
// Positions are 1-based line:column (UTF-8 bytes), end exclusive. Iterative: deep trees are fine.

extension SyntaxTree {
    /// One line per node, indented two spaces per level.
    public func dump() -> String {
        let lines = LineIndex(utf8: source)
        var out = ""
        var stack: [(NodeID, Int)] = [(SyntaxTree.root, 0)]
        while let (id, depth) = stack.popLast() {
            let n = nodes[Int(id)]
            let start = lines.position(ofUTF8Offset: Int(n.sourceStart))
            let end = lines.position(ofUTF8Offset: Int(n.sourceEnd))
            out += String(repeating: "  ", count: depth)
            out += "\(n.kind) @\(start.line + 1):\(start.utf8Column + 1)-\(end.line + 1):\(end.utf8Column + 1)"
            out += details(of: id)
            out += "\n"
            var children: [NodeID] = []
            var child = n.firstChild
            while child != .none {
                children.append(child)
                child = nodes[Int(child)].next
            }
            for c in children.reversed() { stack.append((c, depth + 1)) }
        }
        return out
    }

    private func quoted(_ span: ByteSpan) -> String {
        let s = String(decoding: content[span.range.clamped(to: 0..<content.count)], as: UTF8.self)
        var escaped = ""
        for ch in s.unicodeScalars {
            switch ch {
            case "\n": escaped += "\\n"
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            default: escaped.unicodeScalars.append(ch)
            }
        }
        return "\"" + escaped + "\""
    }

    private func details(of id: NodeID) -> String {
        let n = nodes[Int(id)]
        let contentSpan = ByteSpan(n.contentStart, n.contentEnd)
        switch n.kind {
        case .heading:
            return " level=\(n.data)" + ((n.flags & Node.headingSetext) != 0 ? " setext" : "")
        case .list:
            let ordered = (n.flags & Node.listOrdered) != 0
            return (ordered ? " ordered start=\(n.data)" : " bullet") + ((n.flags & Node.listTight) != 0 ? " tight" : " loose")  // l10n-exempt: debug dump of the tree
        case .item:
            switch TaskState(rawValue: n.flags & Node.taskMask) ?? .none {
            case .none: return ""
            case .unchecked: return " task=[ ]"
            case .checked: return " task=[x]"
            }
        case .blockQuote:
            let alert = AlertKind(rawValue: n.flags & Node.alertMask) ?? .none
            return alert == .none ? "" : " alert=\(alert.keyword)"
        case .codeBlock, .mathBlock:
            var s = ""
            if Int(n.data) < codeBlocks.count {
                let info = codeBlocks[Int(n.data)].info
                if !info.isEmpty { s += " info=\"" + String(decoding: source[info.range], as: UTF8.self) + "\"" }
            }
            return s + " " + quoted(contentSpan)
        case .text, .code, .inlineHTML, .htmlBlock, .tag, .blockID, .inlineMath, .displayMath, .frontMatter:
            return " " + quoted(contentSpan)
        case .tableCell:
            let a = TableAlignment(rawValue: n.data) ?? .none
            return a == .none ? "" : " align=\(a)"
        case .link, .image, .autolink:
            guard Int(n.data) < links.count else { return "" }
            let l = links[Int(n.data)]
            var s = " \(l.form)"
            if !l.destination.isEmpty { s += " dest=" + quoted(l.destination) }
            if l.hasTitle { s += " title=" + quoted(l.title) }
            if l.definition >= 0 { s += " def=\(l.definition)" }
            return s
        case .wikiLink:
            guard Int(n.data) < wikiLinks.count else { return "" }
            let w = wikiLinks[Int(n.data)]
            var s = w.isEmbed ? " embed" : ""
            s += " target=" + quoted(w.target)
            for h in w.headings { s += " heading=" + quoted(h) }
            if w.hasBlockID { s += " block=" + quoted(w.blockID) }
            if w.hasLabel { s += " label=" + quoted(w.label) }
            return s
        case .linkDefinition:
            guard Int(n.data) < linkDefinitions.count else { return "" }
            let d = linkDefinitions[Int(n.data)]
            return " label=" + quoted(d.label) + " dest=" + quoted(d.destination)
        default:
            return ""
        }
    }
}
