// GFM extended autolinks and the notebook inlines (wiki-links, tags, math) for the inline pass.
//
// Invariants: each handler is entered only when its extension is enabled (the special-byte table
// is built from the options), reads only the current block, and either consumes a construct or
// advances past the trigger byte as literal text. Scans are bounded by the construct's own bytes
// (wiki-links stop at a line ending or bracket; `$` maths looks its closers up in the block's
// `DollarMathStops`, built once; `\(…\)` and `\[…\]` memoise failed closer searches).

import TextCore

extension InlineParser {
    // MARK: GFM extended autolinks (cmark-gfm's autolink extension)

    mutating func handleWWWAutolink(tree: inout SyntaxTree) {
        let start = pos
        guard brackets.isEmpty, start + 4 <= end,
              bytes[start + 1] == UInt8(ascii: "w"), bytes[start + 2] == UInt8(ascii: "w"),
              bytes[start + 3] == UInt8(ascii: ".") else {
            pos += 1
            return
        }
        if start > blockStart {
            let previous = bytes[start - 1]
            let allowed = previous == 0x20 || previous == 0x09 || previous == 0x0A || previous == 0x0D
                || previous == UInt8(ascii: "*") || previous == UInt8(ascii: "_") || previous == UInt8(ascii: "~")
                || previous == UInt8(ascii: "(")
            guard allowed else { pos += 1; return }
        }
        let domainLength = checkDomain(start, allowShort: false)
        guard domainLength > 0 else { pos += 1; return }
        var linkEnd = start + domainLength
        while linkEnd < end, !isAutolinkSpace(bytes[linkEnd]), bytes[linkEnd] != UInt8(ascii: "<") { linkEnd += 1 }
        linkEnd = trimAutolinkEnd(start, linkEnd)
        guard linkEnd > start else { pos += 1; return }
        makeAutolink(form: .wwwAutolink, start: start, end: linkEnd, visible: ByteSpan(start, linkEnd), tree: &tree)
    }

    mutating func handleURLAutolink(tree: inout SyntaxTree) {
        let colon = pos
        guard options.extensions.contains(.autolink), brackets.isEmpty, colon + 3 < end,
              bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/"),
              isHostCharacter(at: colon + 3) else {
            pos += 1
            return
        }
        var schemeStart = colon
        while schemeStart > textStart, UnicodeClass.isASCIILetter(bytes[schemeStart - 1]) { schemeStart -= 1 }
        guard isSafeScheme(schemeStart, colon) else { pos += 1; return }
        let domainStart = colon + 3
        let domainLength = checkDomain(domainStart, allowShort: true)
        guard domainLength > 0 else { pos += 1; return }
        var linkEnd = domainStart + domainLength
        while linkEnd < end, !isAutolinkSpace(bytes[linkEnd]), bytes[linkEnd] != UInt8(ascii: "<") { linkEnd += 1 }
        linkEnd = trimAutolinkEnd(schemeStart, linkEnd)
        guard linkEnd > colon + 3 else { pos += 1; return }
        makeAutolink(form: .urlAutolink, start: schemeStart, end: linkEnd, visible: ByteSpan(schemeStart, linkEnd), tree: &tree)
    }

    /// Links the e-mail addresses in text nodes after the block is parsed, as cmark-gfm's autolink
    /// post-processing does: over merged text runs, never inside links, images or autolinks.
    mutating func linkEmails(in root: NodeID, tree: inout SyntaxTree) {
        var current = tree.arena[root].firstChild
        while current != .none {
            let kind = tree.arena[current].kind
            if kind == .text {
                // Continue from the last piece the split left in place of the text node.
                current = linkEmails(inText: current, tree: &tree)
            } else if kind != .link && kind != .image && kind != .autolink && kind != .wikiLink,
                      tree.arena[current].firstChild != .none {
                current = tree.arena[current].firstChild
                continue
            }
            while current != .none && current != root && tree.arena[current].next == .none {
                current = tree.arena[current].parent
            }
            if current == .none || current == root { break }
            current = tree.arena[current].next
        }
    }

    /// Splits one text node around each e-mail autolink found in it; returns the last node of the
    /// pieces (the original node when nothing matched).
    private mutating func linkEmails(inText textNode: NodeID, tree: inout SyntaxTree) -> NodeID {
        var node = textNode
        var lower = Int(tree.arena[node].contentStart)
        let upper = min(Int(tree.arena[node].contentEnd), end)
        let flags = tree.arena[node].flags
        var index = lower
        while index < upper {
            if bytes[index] != UInt8(ascii: "@") {
                index += 1
                continue
            }
            guard let match = scanEmail(at: index, lower: lower, upper: upper) else {
                index += 1
                continue
            }
            let linkIndex = Int32(clamping: tree.links.count)
            let visible = ByteSpan(match.start, match.end)
            tree.links.append(LinkInfo(form: match.explicitScheme ? .urlAutolink : .extendedEmailAutolink,
                                       destination: visible, text: visible))
            let link = newNode(.autolink, match.start, match.end, data: linkIndex, tree: &tree)
            tree.appendChild(newNode(.text, match.start, match.end, tree: &tree), to: link)
            tree.arena.insert(link, after: node)
            if match.start > lower {
                setRange(node, lower, match.start, tree: &tree)
            } else {
                tree.arena.unlink(node)
            }
            lower = match.end
            index = match.end
            guard lower < upper else { return link }
            let rest = newNode(.text, lower, upper, flags: flags, tree: &tree)
            tree.arena.insert(rest, after: link)
            node = rest
        }
        return node
    }

    /// cmark-gfm's e-mail rule around the `@` at `at`, within `lower..<upper`: a local part of
    /// alphanumerics and `.+-_`, an optional `mailto:`/`xmpp:` before it, and a domain with a
    /// period, ending in a letter or period (then trimmed like other autolinks).
    private func scanEmail(at: Int, lower: Int, upper: Int) -> (start: Int, end: Int, explicitScheme: Bool)? {
        var localStart = at
        while localStart > lower {
            let byte = bytes[localStart - 1]
            guard UnicodeClass.isASCIIAlphanumeric(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") else { break }
            localStart -= 1
        }
        // Never split a backslash escape: an escaped first character (`a\.b@c.de`) stays with its
        // backslash in the text before the link.
        if localStart < at, localStart > lower, bytes[localStart - 1] == UInt8(ascii: "\\"),
           !UnicodeClass.isASCIIAlphanumeric(bytes[localStart]) {
            var backslashes = 0
            var index = localStart - 1
            while index >= lower, bytes[index] == UInt8(ascii: "\\") {
                backslashes += 1
                index -= 1
            }
            if backslashes % 2 == 1 { localStart += 1 }
        }
        guard localStart < at else { return nil }
        // An explicit `mailto:` or `xmpp:` right before the address belongs to the link.
        var linkStart = localStart
        var isXMPP = false
        if localStart - 1 > lower, bytes[localStart - 1] == UInt8(ascii: ":") {
            var schemeStart = localStart - 1
            while schemeStart > lower, UnicodeClass.isASCIILetter(bytes[schemeStart - 1]) { schemeStart -= 1 }
            if matchesScheme("mailto", schemeStart, localStart - 1) {
                linkStart = schemeStart
            } else if matchesScheme("xmpp", schemeStart, localStart - 1) {
                linkStart = schemeStart
                isXMPP = true
            }
        }
        var linkEnd = at
        var atCount = 0
        var periods = 0
        while linkEnd < upper {
            let byte = bytes[linkEnd]
            if UnicodeClass.isASCIIAlphanumeric(byte) {
            } else if byte == UInt8(ascii: "/"), isXMPP, atCount == 1 {
            } else if byte == UInt8(ascii: "@") {
                atCount += 1
                // A second `@` already rules the address out; stopping here keeps `a@a@a@…` linear.
                if atCount > 1 { break }
            } else if byte == UInt8(ascii: "."), linkEnd + 1 < upper, UnicodeClass.isASCIIAlphanumeric(bytes[linkEnd + 1]) {
                periods += 1
            } else if byte != UInt8(ascii: "-") && byte != UInt8(ascii: "_") {
                break
            }
            linkEnd += 1
        }
        guard linkEnd - at >= 2, atCount == 1, periods > 0 else { return nil }
        let last = bytes[linkEnd - 1]
        guard UnicodeClass.isASCIILetter(last) || last == UInt8(ascii: ".") else { return nil }
        linkEnd = trimAutolinkEnd(at, linkEnd)
        guard linkEnd > at + 1 else { return nil }
        return (linkStart, linkEnd, linkStart != localStart)
    }

    /// `bytes[start..<colon]` is `scheme` in any case.
    private func matchesScheme(_ scheme: StaticString, _ start: Int, _ colon: Int) -> Bool {
        let length = colon - start
        guard scheme.utf8CodeUnitCount == length else { return false }
        let pattern = UnsafeBufferPointer(start: scheme.utf8Start, count: scheme.utf8CodeUnitCount)
        for offset in 0..<length where bytes[start + offset] | 0x20 != pattern[offset] { return false }
        return true
    }

    private func isAutolinkSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0B || byte == 0x0C
    }

    /// `http`, `https` or `ftp` (any case) is exactly `bytes[start..<colon]`.
    private func isSafeScheme(_ start: Int, _ colon: Int) -> Bool {
        matchesScheme("http", start, colon) || matchesScheme("https", start, colon) || matchesScheme("ftp", start, colon)
    }

    /// cmark-gfm's `is_valid_hostchar`: not whitespace and not punctuation (ASCII punctuation and
    /// symbols, or a Unicode P* character).
    private func isHostCharacter(at index: Int) -> Bool {
        let (value, _) = UnicodeClass.decode(bytes, at: index, end: end)
        if value < 0x80 { return UnicodeClass.isASCIIAlphanumeric(UInt8(value)) }
        return !UnicodeClass.isWhitespace(value) && !UnicodeClass.isPunctuationCategory(value)
    }

    /// cmark-gfm's `check_domain`: the length of the host name starting at `start` (its first
    /// byte is taken as given), 0 when an underscore sits in one of the last two labels or, unless
    /// `allowShort`, when there is no period.
    private func checkDomain(_ start: Int, allowShort: Bool) -> Int {
        let size = end - start
        guard size > 1 else { return 0 }
        var index = 1
        var periods = 0
        var underscoresBefore = 0
        var underscores = 0
        while index < size - 1 {
            if bytes[start + index] == UInt8(ascii: "\\"), index < size - 2 { index += 1 }
            let byte = bytes[start + index]
            if byte == UInt8(ascii: "_") {
                underscores += 1
            } else if byte == UInt8(ascii: ".") {
                underscoresBefore = underscores
                underscores = 0
                periods += 1
            } else if byte == UInt8(ascii: "-") {
            } else if byte < 0x80 {
                if !UnicodeClass.isASCIIAlphanumeric(byte) { break }
            } else {
                let (value, length) = UnicodeClass.decode(bytes, at: start + index, end: end)
                if UnicodeClass.isWhitespace(value) || UnicodeClass.isPunctuationCategory(value) { break }
                index += length - 1
            }
            index += 1
        }
        if underscoresBefore > 0 || underscores > 0 { return 0 }
        if allowShort { return index }
        return periods > 0 ? index : 0
    }

    /// cmark-gfm's `autolink_delim`: drops trailing punctuation, an unbalanced `)`, and a trailing
    /// entity-like `&name;` from a candidate link `start..<linkEnd`.
    private func trimAutolinkEnd(_ start: Int, _ linkEnd: Int) -> Int {
        var linkEnd = linkEnd
        var index = start
        while index < linkEnd {
            if bytes[index] == UInt8(ascii: "<") { linkEnd = index; break }
            index += 1
        }
        var opening = 0
        var closing = 0
        for offset in start..<linkEnd {
            if bytes[offset] == UInt8(ascii: "(") { opening += 1 } else if bytes[offset] == UInt8(ascii: ")") { closing += 1 }
        }
        while linkEnd > start {
            let last = bytes[linkEnd - 1]
            switch last {
            case UInt8(ascii: "?"), UInt8(ascii: "!"), UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: ":"),
                 UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "'"), UInt8(ascii: "\""):
                linkEnd -= 1
            case UInt8(ascii: ";"):
                var newEnd = linkEnd - 2
                while newEnd > start, UnicodeClass.isASCIILetter(bytes[newEnd]) { newEnd -= 1 }
                if newEnd < linkEnd - 2, newEnd >= start, bytes[newEnd] == UInt8(ascii: "&") {
                    linkEnd = newEnd
                } else {
                    linkEnd -= 1
                }
            case UInt8(ascii: ")"):
                if closing <= opening { return linkEnd }
                closing -= 1
                linkEnd -= 1
            default:
                return linkEnd
            }
        }
        return linkEnd
    }

    // MARK: Wiki-links

    /// `[[target#Heading^block|label]]` (or `![[…]]` when `embed`) at `pos`.
    mutating func tryWikiLink(embed: Bool, tree: inout SyntaxTree) -> Bool {
        let start = pos
        let innerStart = start + (embed ? 3 : 2)
        // The first line end or bracket after `[[` must be the `]]` (eight bytes a step).
        guard innerStart < end - 1, let base = bytes.baseAddress else { return false }
        let close = ByteSearch.firstIndex(ofAny: 0x0A, UInt8(ascii: "["), UInt8(ascii: "]"), in: base, from: innerStart, end: end - 1)
        guard close + 1 < end, bytes[close] == UInt8(ascii: "]"), bytes[close + 1] == UInt8(ascii: "]"), close > innerStart else { return false }
        // What is a wiki-link and what stays text (docs/syntax.md, "Notebook syntax"):
        // - It needs something to link to: a target, a heading or a block id. `[[ ]]`, `[[|]]`,
        //   `[[|Alias]]`, `[[#]]`, `[[^]]` stay text (as in the pulldown-cmark and MD4C wiki-link
        //   suites). Empty parts are dropped: `[[Note#]]` links to `Note`, and `[[Note|]]` shows
        //   the target.
        // - `\|` separates the label as `|` does, and its backslash is not part of the target:
        //   a GFM table needs the pipe escaped (`[[Note\|Alias]]`, as Obsidian writes it there),
        //   and no note name can hold a `|`, so the same text is the same link outside a table.
        // - Links do not contain links. A wiki-link is made when its `]]` is seen, so it is the
        //   inner link of CommonMark's `[a [b](c)](d)`: it wins, and the `[` openers before it
        //   turn to text (`[also [[Note]]](https://…)` is `[also `, the link, `](https://…)`),
        //   as pulldown-cmark's suite expects; MD4C's and Obsidian likewise prefer the innermost
        //   `[[…]]`. An image embed is an image (`WikiLinkInfo.isImageEmbed`): like `![a](b.png)`
        //   it may sit in a link's text and leaves the openers alone.

        var pipe = close
        for index in innerStart..<close where bytes[index] == UInt8(ascii: "|") { pipe = index; break }
        // `\|`: the backslash escapes the pipe for a table and is not part of the target.
        let partsEnd = pipe < close && pipe > innerStart && bytes[pipe - 1] == UInt8(ascii: "\\") ? pipe - 1 : pipe
        var info = WikiLinkInfo(isEmbed: embed, target: .empty, inner: ByteSpan(innerStart, close))
        if pipe < close {
            info.label = trimmed(pipe + 1, close)
            info.hasLabel = !info.label.isEmpty
        }
        var targetEnd = innerStart
        while targetEnd < partsEnd, bytes[targetEnd] != UInt8(ascii: "#"), bytes[targetEnd] != UInt8(ascii: "^") { targetEnd += 1 }
        info.target = trimmed(innerStart, targetEnd)
        var index = targetEnd
        if index < partsEnd, bytes[index] == UInt8(ascii: "^") {
            info.blockID = trimmed(index + 1, partsEnd)
        } else {
            while index < partsEnd, bytes[index] == UInt8(ascii: "#") {
                let headingStart = index + 1
                if headingStart < partsEnd, bytes[headingStart] == UInt8(ascii: "^") {
                    info.blockID = trimmed(headingStart + 1, partsEnd)
                    break
                }
                var headingEnd = headingStart
                while headingEnd < partsEnd, bytes[headingEnd] != UInt8(ascii: "#"), bytes[headingEnd] != UInt8(ascii: "^") {
                    headingEnd += 1
                }
                let heading = trimmed(headingStart, headingEnd)
                if !heading.isEmpty { info.headings.append(heading) }
                index = headingEnd
                if index < partsEnd, bytes[index] == UInt8(ascii: "^") {
                    // `[[note#Heading^block]]`: the block id closes the heading path.
                    info.blockID = trimmed(index + 1, partsEnd)
                    break
                }
            }
        }
        info.hasBlockID = !info.blockID.isEmpty
        // Nothing to link to: the brackets are text.
        guard !info.target.isEmpty || !info.headings.isEmpty || info.hasBlockID else { return false }

        flushText(upTo: start, tree: &tree)
        let wikiIndex = Int32(clamping: tree.wikiLinks.count)
        tree.wikiLinks.append(info)
        let node = appendInline(.wikiLink, start, close + 2, data: wikiIndex, tree: &tree)
        let visible = info.hasLabel ? info.label : ByteSpan(innerStart, partsEnd)
        if !visible.isEmpty {
            let child = newNode(.text, Int(visible.start), Int(visible.end), tree: &tree)
            tree.arena.link(child, under: node)
        }
        // A link deactivates the link openers before it (`linkFloor`, as `handleCloseBracket`
        // does).
        if !WikiLinkInfo.isImageEmbed(isEmbed: embed, target: bytes[info.target.range]) {
            linkFloor = brackets.count
        }
        pos = close + 2
        textStart = pos
        return true
    }

    private func trimmed(_ start: Int, _ stop: Int) -> ByteSpan {
        var low = start
        var high = max(start, stop)
        while low < high, bytes[low] == 0x20 || bytes[low] == 0x09 { low += 1 }
        while high > low, bytes[high - 1] == 0x20 || bytes[high - 1] == 0x09 { high -= 1 }
        return ByteSpan(low, high)
    }

    // MARK: Tags

    mutating func handleTag(tree: inout SyntaxTree) {
        let start = pos
        // Like extended autolinks, no tags while a `[` or `![` is open: a tag link inside link text
        // would nest anchors, and image descriptions stay plain.
        // Nor inside a raw HTML `<a>` element.
        guard brackets.isEmpty, openHTMLAnchors == 0 else {
            pos += 1
            return
        }
        if start > blockStart {
            let previous = UnicodeClass.scalar(before: start, in: bytes, lowerBound: blockStart)
            if !tagMayFollow(previous) {
                pos += 1
                return
            }
        }
        var index = start + 1
        var sawNonDigit = false
        while index < end {
            let byte = bytes[index]
            if byte < 0x80 {
                if UnicodeClass.isASCIIDigit(byte) {
                } else if UnicodeClass.isASCIILetter(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: "/") {
                    sawNonDigit = true
                } else {
                    break
                }
                index += 1
            } else {
                let (value, length) = UnicodeClass.decode(bytes, at: index, end: end)
                guard UnicodeClass.isWordCharacter(value) else { break }
                // Digits of other scripts (`#١٢٣`, `#１２３`) make no tag on their own either.
                if !UnicodeClass.isDecimalDigit(value) { sawNonDigit = true }
                index += length
            }
        }
        guard index > start + 1, sawNonDigit, !continuesIntoEmail(index) else {
            pos += 1
            return
        }
        flushText(upTo: start, tree: &tree)
        appendInline(.tag, start, index, tree: &tree)
        pos = index
        textStart = index
    }

    /// True when the word ending at `tagEnd` runs on (through e-mail local-part bytes) into an
    /// `@` that makes an extended e-mail autolink: `#tag.name@example.com` is `#` and an address,
    /// as cmark-gfm links it, never a tag glued to the front of an address.
    private func continuesIntoEmail(_ tagEnd: Int) -> Bool {
        guard options.extensions.contains(.autolink) else { return false }
        var index = tagEnd
        while index < end {
            let byte = bytes[index]
            guard UnicodeClass.isASCIIAlphanumeric(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") else { break }
            index += 1
        }
        guard index < end, bytes[index] == UInt8(ascii: "@") else { return false }
        return scanEmail(at: index, lower: blockStart, upper: end) != nil
    }

    /// A tag starts after whitespace or punctuation that does not glue it to a word or URL, or
    /// after an invisible bidi mark (right-to-left text puts an RLM or ALM before a `#`).
    private func tagMayFollow(_ previous: UInt32) -> Bool {
        if previous >= 0x80 {
            return UnicodeClass.isWhitespace(previous) || UnicodeClass.isPunctuation(previous)
                || UnicodeClass.isBidiMark(previous)
        }
        let byte = UInt8(previous)
        if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { return true }
        switch byte {
        case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: ")"), UInt8(ascii: "]"),
             UInt8(ascii: "}"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "!"), UInt8(ascii: "\""),
             UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "~"), UInt8(ascii: ">"), UInt8(ascii: "<"),
             UInt8(ascii: "|"):
            return true
        default:
            return false
        }
    }

    // MARK: Math

    // Which `$` opens maths follows the rules GitHub, pandoc and commonmark-hs share (docs/syntax.md,
    // "Math."), scanned greedily from the left as commonmark-hs does:
    // - `$$` opens display maths, which may be empty and may start or end with spaces; it ends at
    //   the first `$` at its brace level, which must be followed by a second `$`.
    // - Any other `$` opens inline maths when no whitespace follows it. It ends at the first `$` at
    //   its brace level, which must not follow whitespace nor come before a digit.
    // - Braces nest: a `$` inside `{…}` does not close (`$\text{a $x$ b}$` is one formula), and a
    //   `}` with no `{` before it ends the attempt (`$}{$` is text). A backslash takes the next
    //   byte with it (`\$`, `\{`, `\}` are content).
    // - Only the first candidate is tried: when it does not close, the opening `$` is text and the
    //   scan goes on from the next byte (so `$$` that fails as display may open inline maths at
    //   its second `$`, and `alpha$$beta$gamma` is `alpha$`, maths `beta`, `gamma`).

    mutating func handleMath(tree: inout SyntaxTree) {
        let start = pos
        if !dollarStops.isBuilt { dollarStops.build(bytes, from: start, to: end) }
        if start + 1 < end, bytes[start + 1] == UInt8(ascii: "$") {
            // The second `$` is a stop at the opener's level; the formula runs to the next one.
            if let close = dollarStops.closer(after: start + 1, in: bytes), close + 1 < end,
               bytes[close + 1] == UInt8(ascii: "$") {
                appendMath(.displayMath, start, contentStart: start + 2, contentEnd: close, end: close + 2, tree: &tree)
                return
            }
        } else if start + 1 < end, !isMathSpace(bytes[start + 1]),
                  let close = dollarStops.closer(after: start, in: bytes), !isMathSpace(bytes[close - 1]),
                  close + 1 >= end || !UnicodeClass.isASCIIDigit(bytes[close + 1]) {
            appendMath(.inlineMath, start, contentStart: start + 1, contentEnd: close, end: close + 1, tree: &tree)
            return
        }
        pos += 1
    }

    /// `\(…\)` (inline) or `\[…\]` (display) at `pos`, as pandoc's `tex_math_single_backslash`
    /// reads them: the first `\)` (`\]`) closes, and a backslash pairs with the byte after it.
    /// False (the backslash escapes the bracket, as in CommonMark) when nothing closes it or the
    /// formula is blank: `\[ \]` is the escaped box of a list item that is no task.
    mutating func tryBackslashMath(display: Bool, tree: inout SyntaxTree) -> Bool {
        let start = pos
        let closer = display ? UInt8(ascii: "]") : UInt8(ascii: ")")
        guard let close = findBackslashCloser(closer, from: start + 2),
              bytes[(start + 2)..<close].contains(where: { !isMathSpace($0) }) else { return false }
        appendMath(display ? .displayMath : .inlineMath, start, contentStart: start + 2, contentEnd: close,
                   end: close + 2, tree: &tree)
        return true
    }

    /// Emits the formula whose source is `start..<stop` and whose TeX is `contentStart..<contentEnd`.
    private mutating func appendMath(_ kind: NodeKind, _ start: Int, contentStart: Int, contentEnd: Int, end stop: Int,
                                     tree: inout SyntaxTree) {
        flushText(upTo: start, tree: &tree)
        appendInline(kind, contentStart, contentEnd, sourceFrom: start, sourceTo: stop, tree: &tree)
        pos = stop
        textStart = stop
    }

    private func isMathSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The `\` of the first `\` + `closer` pair at or after `from`, pairing each backslash with
    /// the byte after it. A failed scan is remembered per closer: every later scan starts after a
    /// `(` or `[`, so it reads the same pairs from there on and would fail too.
    private mutating func findBackslashCloser(_ closer: UInt8, from: Int) -> Int? {
        let paren = closer == UInt8(ascii: ")")
        if from >= (paren ? noMathParenCloseFrom : noMathBracketCloseFrom) { return nil }
        var index = from
        while let backslash = findByte(UInt8(ascii: "\\"), from: index, to: end), backslash + 1 < end {
            if bytes[backslash + 1] == closer { return backslash }
            index = backslash + 2
        }
        if paren {
            noMathParenCloseFrom = min(noMathParenCloseFrom, from)
        } else {
            noMathBracketCloseFrom = min(noMathBracketCloseFrom, from)
        }
        return nil
    }
}
