// Links, images, autolinks and raw HTML for the inline pass.
//
// Invariants: link openers live on `brackets`; a `]` looks only at the top of the stack (O(1)),
// inactive openers are those below `linkFloor`, and each failed raw-HTML terminator search is
// remembered so it is never repeated from a later position.

import TextCore

extension InlineParser {
    // MARK: Brackets

    mutating func pushBracket(node: NodeID, start: Int, image: Bool) {
        madeDelimiterText = true
        if !brackets.isEmpty { brackets[brackets.count - 1].bracketAfter = true }
        brackets.append(Bracket(node: node, start: start, textStart: start + (image ? 2 : 1), image: image,
                                bracketAfter: false, delimiterBottom: Int32(clamping: delimiters.count)))
    }

    mutating func popBracket() {
        guard !brackets.isEmpty else { return }
        brackets.removeLast()
        if linkFloor > brackets.count { linkFloor = brackets.count }
    }

    mutating func handleOpenBracket(tree: inout SyntaxTree) {
        if pos + 1 < end {
            let next = bytes[pos + 1]
            if next == UInt8(ascii: "["), options.extensions.contains(.wikiLinks), tryWikiLink(embed: false, tree: &tree) {
                return
            }
            if next == UInt8(ascii: "^"), options.extensions.contains(.footnotes), tryFootnoteReference(tree: &tree) {
                return
            }
        }
        flushText(upTo: pos, tree: &tree)
        let node = appendInline(.text, pos, pos + 1, tree: &tree)
        pushBracket(node: node, start: pos, image: false)
        pos += 1
        textStart = pos
    }

    mutating func handleBang(tree: inout SyntaxTree) {
        guard pos + 1 < end, bytes[pos + 1] == UInt8(ascii: "[") else {
            pos += 1
            return
        }
        if pos + 2 < end, bytes[pos + 2] == UInt8(ascii: "["), options.extensions.contains(.wikiLinks),
           tryWikiLink(embed: true, tree: &tree) {
            return
        }
        if pos + 2 < end, bytes[pos + 2] == UInt8(ascii: "^"), options.extensions.contains(.footnotes) {
            // As in cmark-gfm, `![^` never opens an image: the `!` is literal and `[^…` is handled
            // as a footnote reference or a link opener on the next step.
            pos += 1
            return
        }
        flushText(upTo: pos, tree: &tree)
        let node = appendInline(.text, pos, pos + 2, tree: &tree)
        pushBracket(node: node, start: pos, image: true)
        pos += 2
        textStart = pos
    }

    /// Skips spaces, tabs and line endings (a paragraph has no blank lines, so at most one
    /// line ending can be crossed between non-space characters).
    private func skipWhitespace(_ start: Int) -> Int {
        var index = start
        while index < end, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A { index += 1 }
        return index
    }

    mutating func handleCloseBracket(tree: inout SyntaxTree) {
        let closePosition = pos
        guard let opener = brackets.last else {
            pos += 1
            return
        }
        if !opener.image && brackets.count - 1 < linkFloor {
            popBracket()
            pos += 1
            return
        }
        var info: LinkInfo? = nil
        var endAll = closePosition + 1
        let textSpan = ByteSpan(opener.textStart, closePosition)

        // Inline link: `](dest "title")`.
        let afterClose = closePosition + 1
        if afterClose < end, bytes[afterClose] == UInt8(ascii: "(") {
            let destinationStart = skipWhitespace(afterClose + 1)
            if let destination = LinkScanners.scanLinkDestination(bytes, at: destinationStart, end: end) {
                let titleStart = skipWhitespace(destination.next)
                var closeParen = titleStart
                var title: ByteSpan = .empty
                var hasTitle = false
                if titleStart > destination.next, let scanned = LinkScanners.scanLinkTitle(bytes, at: titleStart, end: end) {
                    title = scanned.span
                    hasTitle = true
                    closeParen = skipWhitespace(scanned.next)
                }
                if closeParen < end, bytes[closeParen] == UInt8(ascii: ")") {
                    info = LinkInfo(form: .inline, destination: destination.span, title: title, hasTitle: hasTitle,
                                    text: textSpan)
                    endAll = closeParen + 1
                }
            }
        }

        // Reference link: full `][label]`, collapsed `][]`, or shortcut `]`.
        if info == nil {
            var form = LinkForm.shortcut
            var lookup: ByteSpan? = nil
            var after = afterClose
            if let label = LinkScanners.scanLinkLabel(bytes, at: afterClose, end: end) {
                if label.span.isEmpty {
                    form = .collapsed
                    after = label.next
                } else {
                    form = .full
                    lookup = label.span
                    after = label.next
                }
            }
            if form != .full && !opener.bracketAfter { lookup = textSpan }
            if let label = lookup, label.count > 0, label.count <= LinkScanners.maximumLabelLength,
               let definition = lookupDefinition(label, tree: tree) {
                info = LinkInfo(form: form, text: textSpan, label: label, definition: definition)
                endAll = after
            } else if form != .shortcut, let label = lookup, label.count > 0 {
                tree.undefinedReferences.append(UndefinedReference(label: label, whole: ByteSpan(opener.start, after)))
            }
        }

        guard let link = info else {
            popBracket()
            pos = closePosition + 1
            return
        }
        flushText(upTo: closePosition, tree: &tree)
        let linkIndex = Int32(clamping: tree.links.count)
        tree.links.append(link)
        let node = newNode(opener.image ? .image : .link, opener.start, endAll, data: linkIndex, tree: &tree)
        moveSiblings(after: opener.node, before: .none, into: node, tree: &tree)
        tree.arena.unlink(opener.node)
        tree.arena.link(node, under: block)
        processEmphasis(bottom: opener.delimiterBottom, tree: &tree)
        popBracket()
        if !opener.image { linkFloor = brackets.count }
        pos = endAll
        textStart = pos
    }

    private func lookupDefinition(_ label: ByteSpan, tree: SyntaxTree) -> Int32? {
        guard !tree.linkDefinitionIndex.isEmpty else { return nil }
        let key = LinkScanners.normalizeLabel(UnsafeBufferPointer(rebasing: bytes[label.range]))
        return tree.linkDefinitionIndex[key]
    }

    // MARK: Footnote references

    mutating func tryFootnoteReference(tree: inout SyntaxTree) -> Bool {
        let labelStart = pos + 2
        var index = labelStart
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "]") { break }
            if byte == UInt8(ascii: "[") || byte == 0x0A { return false }
            if byte == UInt8(ascii: "\\"), index + 1 < end { index += 1 }
            index += 1
            if index - labelStart > LinkScanners.maximumLabelLength { return false }
        }
        guard index < end, index > labelStart else { return false }
        // `[^x](url)` is an inline link: cmark-gfm tries links before footnote references.
        if index + 1 < end, bytes[index + 1] == UInt8(ascii: "(") { return false }
        if footnoteIndexCount != tree.footnoteDefinitions.count {
            footnoteIndex.removeAll(keepingCapacity: true)
            for (offset, definition) in tree.footnoteDefinitions.enumerated() where footnoteIndex[definition.normalizedLabel] == nil {
                footnoteIndex[definition.normalizedLabel] = Int32(clamping: offset)
            }
            footnoteIndexCount = tree.footnoteDefinitions.count
        }
        let key = LinkScanners.normalizeLabel(UnsafeBufferPointer(rebasing: bytes[labelStart..<index]))
        guard let definition = footnoteIndex[key] else {
            // cmark-gfm tries a reference link first (`[^x][ref]`), and otherwise turns an
            // unresolved `[^label]` back into its literal text, unparsed.
            if index + 1 < end, bytes[index + 1] == UInt8(ascii: "[") { return false }
            // The label stays in the text, unseen by the main loop.
            if findByte(UInt8(ascii: "@"), from: labelStart, to: index) != nil { textMayHoldAt = true }
            pos = index + 1
            return true
        }
        flushText(upTo: pos, tree: &tree)
        let referenceIndex = Int32(clamping: tree.footnoteReferences.count)
        tree.footnoteReferences.append(FootnoteReference(label: ByteSpan(labelStart, index), definition: definition))
        let node = appendInline(.footnoteReference, pos, index + 1, data: referenceIndex, tree: &tree)
        tree.footnoteReferences[Int(referenceIndex)].node = node
        pos = index + 1
        textStart = pos
        return true
    }

    // MARK: `<`: autolinks and raw HTML

    mutating func handleLessThan(tree: inout SyntaxTree) {
        if let close = scanURIAutolink(pos) {
            makeAutolink(form: .uriAutolink, start: pos, end: close + 1, visible: ByteSpan(pos + 1, close), tree: &tree)
            return
        }
        if let close = scanEmailAutolink(pos) {
            makeAutolink(form: .emailAutolink, start: pos, end: close + 1, visible: ByteSpan(pos + 1, close), tree: &tree)
            return
        }
        if let htmlEnd = scanInlineHTML(pos) {
            if options.extensions.contains(.tags) { trackHTMLAnchor(pos, htmlEnd) }
            flushText(upTo: pos, tree: &tree)
            appendInline(.inlineHTML, pos, htmlEnd, tree: &tree)
            pos = htmlEnd
            textStart = pos
            return
        }
        pos += 1
    }

    /// Counts raw `<a …>` openings and `</a>` closings (any case), so that no tag is made inside
    /// an HTML link. A self-closing `<a/>` opens nothing.
    private mutating func trackHTMLAnchor(_ start: Int, _ htmlEnd: Int) {
        var index = start + 1
        let closing = index < htmlEnd && bytes[index] == UInt8(ascii: "/")
        if closing { index += 1 }
        guard index + 1 < htmlEnd, bytes[index] | 0x20 == UInt8(ascii: "a") else { return }
        let after = bytes[index + 1]
        guard after == 0x20 || after == 0x09 || after == 0x0A || after == UInt8(ascii: ">")
            || after == UInt8(ascii: "/") else { return }
        if closing {
            openHTMLAnchors = max(0, openHTMLAnchors - 1)
        } else if !(htmlEnd - start >= 2 && bytes[htmlEnd - 2] == UInt8(ascii: "/")) {
            openHTMLAnchors += 1
        }
    }

    /// Appends an autolink node over `start..<end` whose destination and visible text is `visible`.
    mutating func makeAutolink(form: LinkForm, start: Int, end: Int, visible: ByteSpan, tree: inout SyntaxTree) {
        flushText(upTo: start, tree: &tree)
        let linkIndex = Int32(clamping: tree.links.count)
        tree.links.append(LinkInfo(form: form, destination: visible, text: visible))
        let node = appendInline(.autolink, start, end, data: linkIndex, tree: &tree)
        // The visible text of `<…>` autolinks has its character references decoded (backslashes
        // stay literal); extended autolinks show their bytes as written.
        var flags: UInt8 = 0
        if form == .uriAutolink || form == .emailAutolink, let base = bytes.baseAddress,
           ByteSearch.firstIndex(of: UInt8(ascii: "&"), in: base, from: Int(visible.start), end: Int(visible.end)) < Int(visible.end) {
            flags = Node.textNeedsDecoding
        }
        let child = newNode(.text, Int(visible.start), Int(visible.end), flags: flags, tree: &tree)
        tree.arena.link(child, under: node)
        pos = end
        textStart = end
    }

    /// `<scheme:…>`: returns the offset of `>`.
    private func scanURIAutolink(_ start: Int) -> Int? {
        var index = start + 1
        guard index < end, UnicodeClass.isASCIILetter(bytes[index]) else { return nil }
        index += 1
        while index < end, index - start - 1 < 33 {
            let byte = bytes[index]
            if UnicodeClass.isASCIIAlphanumeric(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "-") {
                index += 1
            } else {
                break
            }
        }
        let schemeLength = index - start - 1
        guard schemeLength >= 2, schemeLength <= 32, index < end, bytes[index] == UInt8(ascii: ":") else { return nil }
        index += 1
        guard let base = bytes.baseAddress else { return nil }
        let stop = ByteSearch.firstIndexOfURIAutolinkStop(in: base, from: index, end: end)
        return stop < end && bytes[stop] == UInt8(ascii: ">") ? stop : nil
    }

    /// `<local@domain>`: returns the offset of `>` (`LinkScanners.scanEmailAutolink`).
    private func scanEmailAutolink(_ start: Int) -> Int? { LinkScanners.scanEmailAutolink(bytes, at: start, end: end) }

    // MARK: Raw HTML

    /// Scans raw inline HTML at `start` (`<`): returns the offset just past it.
    private mutating func scanInlineHTML(_ start: Int) -> Int? {
        let index = start + 1
        guard index < end else { return nil }
        let byte = bytes[index]
        if UnicodeClass.isASCIILetter(byte) { return scanOpenTag(start) }
        if byte == UInt8(ascii: "/") { return scanClosingTag(start) }
        if byte == UInt8(ascii: "?") {
            return InlineParser.findTerminator("?>", in: bytes, from: index + 1, end: end, memo: &noProcessingEndFrom)
        }
        guard byte == UInt8(ascii: "!"), index + 1 < end else { return nil }
        let next = bytes[index + 1]
        if next == UInt8(ascii: "-") {
            guard index + 2 < end, bytes[index + 2] == UInt8(ascii: "-") else { return nil }
            let body = index + 3
            if body < end, bytes[body] == UInt8(ascii: ">") { return body + 1 }
            if body + 1 < end, bytes[body] == UInt8(ascii: "-"), bytes[body + 1] == UInt8(ascii: ">") { return body + 2 }
            return InlineParser.findTerminator("-->", in: bytes, from: body, end: end, memo: &noCommentEndFrom)
        }
        if next == UInt8(ascii: "[") {
            let marker = Array("[CDATA[".utf8)
            guard index + 1 + marker.count <= end else { return nil }
            for (offset, expected) in marker.enumerated() where bytes[index + 1 + offset] != expected { return nil }
            return InlineParser.findTerminator("]]>", in: bytes, from: index + 1 + marker.count, end: end, memo: &noCDataEndFrom)
        }
        if UnicodeClass.isASCIILetter(next) {
            return InlineParser.findTerminator(">", in: bytes, from: index + 2, end: end, memo: &noDeclarationEndFrom)
        }
        return nil
    }

    /// Finds `terminator` at or after `from` and returns the offset past it; a failed search is
    /// remembered in `memo` so later searches from further on fail at once.
    private static func findTerminator(_ terminator: StaticString, in bytes: UnsafeBufferPointer<UInt8>, from: Int, end: Int,
                                       memo: inout Int) -> Int? {
        if from >= memo { return nil }
        let pattern = UnsafeBufferPointer(start: terminator.utf8Start, count: terminator.utf8CodeUnitCount)
        guard let first = pattern.first else { return nil }
        var index = from
        while index + pattern.count <= end {
            if bytes[index] == first {
                var matches = true
                for offset in 1..<pattern.count where bytes[index + offset] != pattern[offset] {
                    matches = false
                    break
                }
                if matches { return index + pattern.count }
            }
            index += 1
        }
        memo = min(memo, from)
        return nil
    }

    private func skipHTMLWhitespace(_ start: Int) -> Int {
        var index = start
        while index < end, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A { index += 1 }
        return index
    }

    private func scanTagName(_ start: Int) -> Int? {
        guard start < end, UnicodeClass.isASCIILetter(bytes[start]) else { return nil }
        var index = start + 1
        while index < end, UnicodeClass.isASCIIAlphanumeric(bytes[index]) || bytes[index] == UInt8(ascii: "-") { index += 1 }
        return index
    }

    private func scanOpenTag(_ start: Int) -> Int? {
        guard var index = scanTagName(start + 1) else { return nil }
        while true {
            let afterSpace = skipHTMLWhitespace(index)
            guard afterSpace < end else { return nil }
            let byte = bytes[afterSpace]
            if byte == UInt8(ascii: ">") { return afterSpace + 1 }
            if byte == UInt8(ascii: "/") {
                return afterSpace + 1 < end && bytes[afterSpace + 1] == UInt8(ascii: ">") ? afterSpace + 2 : nil
            }
            // An attribute must be preceded by whitespace.
            guard afterSpace > index else { return nil }
            guard isAttributeNameStart(byte) else { return nil }
            var nameEnd = afterSpace + 1
            while nameEnd < end, isAttributeNameByte(bytes[nameEnd]) { nameEnd += 1 }
            index = nameEnd
            let beforeEquals = skipHTMLWhitespace(nameEnd)
            if beforeEquals < end, bytes[beforeEquals] == UInt8(ascii: "=") {
                let valueStart = skipHTMLWhitespace(beforeEquals + 1)
                guard let valueEnd = scanAttributeValue(valueStart) else { return nil }
                index = valueEnd
            }
        }
    }

    private func isAttributeNameStart(_ byte: UInt8) -> Bool {
        UnicodeClass.isASCIILetter(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":")
    }

    private func isAttributeNameByte(_ byte: UInt8) -> Bool {
        UnicodeClass.isASCIIAlphanumeric(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":")
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
    }

    private func scanAttributeValue(_ start: Int) -> Int? {
        guard start < end else { return nil }
        let quote = bytes[start]
        if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
            var index = start + 1
            while index < end, bytes[index] != quote { index += 1 }
            return index < end ? index + 1 : nil
        }
        var index = start
        while index < end {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
                || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == UInt8(ascii: "=")
                || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "`") {
                break
            }
            index += 1
        }
        return index > start ? index : nil
    }

    private func scanClosingTag(_ start: Int) -> Int? {
        guard let nameEnd = scanTagName(start + 2) else { return nil }
        let index = skipHTMLWhitespace(nameEnd)
        return index < end && bytes[index] == UInt8(ascii: ">") ? index + 1 : nil
    }
}
