import MarkdownSyntax
import NotebookIDE

extension PathologicalCases {
    /// Every notebook construct at the sizes a hostile or careless note reaches (issue P10, "Every
    /// construct linear"): wiki-links, embeds and tags by the hundred thousand on one line,
    /// unclosed wiki-links, block ids, footnotes, alerts, tables thousands of columns wide,
    /// nesting inside tables and alerts, headings by the ten thousand, reference definitions and
    /// long lines. Parsed with the notebook profile and served (`indexed`): the index, the
    /// diagnostics, the outline, folding, hover and the preview must be linear too. Counts are
    /// `multiplier/divisor` of the reference; nesting that grows a note with the square of its
    /// depth scales its depth by the square root, so the bytes scale as the other cases do.
    public static func notebookCases(divisor: Int = 1, multiplier: Int = 1) -> [Case] {
        func n(_ count: Int) -> Int { max(1, count * multiplier / divisor) }
        func root(_ count: Int) -> Int { max(2, Int(Double(count) * (Double(multiplier) / Double(divisor)).squareRoot())) }
        func rep(_ s: String, _ count: Int) -> String { String(repeating: s, count: count) }
        /// `count` pieces made by `piece`, joined by `separator`.
        func joined(_ count: Int, _ separator: String = " ", _ piece: (Int) -> String) -> String {
            var result = ""
            for index in 0..<count {
                if index > 0 { result += separator }
                result += piece(index)
            }
            return result
        }
        func note(_ name: String, _ input: String, html: String, served: @escaping @Sendable (ServedNote) -> Bool) -> Case {
            Case(name: name, input: input, check: "", extensions: .notebook, exact: html, indexed: true, served: served)
        }
        func paragraph(_ html: String) -> String { "<p>" + html + "</p>\n" }
        let wikiA = "<a class=\"wikilink\" href=\"a.md\">a</a>"
        var cases: [Case] = []

        // MARK: Wiki-links and embeds, a hundred thousand on one line

        let links = n(100_000)
        cases.append(note("wiki-links on one line", rep("[[a]] ", links), html: paragraph(joined(links) { _ in wikiA })) {
            $0.symbols.links.count == links && $0.documentLinks.count == links && $0.diagnostics.isEmpty
        })
        let groups = n(25_000)
        let everyForm = "<a class=\"wikilink\" href=\"a.md\">a</a> <a class=\"wikilink embed\" href=\"b.md\">b</a> "
            + "<a class=\"wikilink\" href=\"a.md#h\">label</a> <a class=\"wikilink\" href=\"#%5Eid\">^id</a>"
        cases.append(note("wiki-links and embeds of every form on one line", rep("[[a]] ![[b]] [[a#h|label]] [[#^id]] ", groups),
                          html: paragraph(joined(groups) { _ in everyForm })) {
            // `![[b]]` leads to no note, `[[#^id]]` to no block of this note.
            $0.symbols.links.count == 4 * groups && $0.diagnostics.count == 2 * groups && $0.documentLinks.count == 2 * groups
        })
        cases.append(note("wiki-links to distinct missing notes", joined(links) { "[[n\($0)]]" },
                          html: paragraph(joined(links) { "<a class=\"wikilink\" href=\"n\($0).md\">n\($0)</a>" })) {
            $0.diagnostics.count == links && $0.diagnostics.allSatisfy { $0.code == .brokenWikilink }
        })
        cases.append(note("wiki-links among non-ASCII words on one line", rep("[[a]] é ", links),
                          html: paragraph(joined(links) { _ in wikiA + " é" })) {
            $0.symbols.links.count == links && $0.diagnostics.isEmpty
        })

        // MARK: Unclosed wiki-links

        let openers = n(100_000)
        for (name, piece) in [("[[", "[["), ("![[", "![[a"), ("[[a|", "[[a|"), ("[[a#", "[[a#h"), ("[[a]", "[[a] ")] {
            let input = rep(piece, openers)
            cases.append(note("unclosed \(name) run", input, html: paragraph(String(input.dropLast(piece.hasSuffix(" ") ? 1 : 0)))) {
                $0.symbols.links.isEmpty && $0.diagnostics.isEmpty
            })
        }
        cases.append(note("[[ run closed at its end", rep("[[", openers) + "a]]", html: paragraph(rep("[", 2 * openers - 2) + wikiA)) {
            $0.symbols.links.count == 1
        })

        // MARK: Tags

        let tags = n(100_000)
        cases.append(note("tags on one line", rep("#tag ", tags),
                          html: paragraph(joined(tags) { _ in "<a class=\"tag\" href=\"#tag\">#tag</a>" })) {
            $0.symbols.tags.count == tags && !$0.hovers.isEmpty
        })
        cases.append(note("distinct tags on one line", joined(tags) { "#t\($0)é" },
                          html: paragraph(joined(tags) { "<a class=\"tag\" href=\"#t\($0)%C3%A9\">#t\($0)é</a>" })) {
            Set($0.symbols.tags.map(\.name)).count == tags && !$0.hovers.isEmpty
        })
        let long = n(1_000_000)
        cases.append(note("very long tag", "#" + rep("a", long),
                          html: paragraph("<a class=\"tag\" href=\"#\(rep("a", long))\">#\(rep("a", long))</a>")) {
            $0.symbols.tags.count == 1 && $0.symbols.tags[0].name.utf8.count == long
        })
        let segments = n(200_000)
        let nested = rep("a/", segments) + "z"
        cases.append(note("tag nested very deep", "#" + nested, html: paragraph("<a class=\"tag\" href=\"#\(nested)\">#\(nested)</a>")) {
            $0.symbols.tags.count == 1 && $0.symbols.tags[0].name == nested
        })

        // MARK: Block ids

        let blocks = n(50_000)
        cases.append(note("block ids on many lines", joined(blocks, "\n\n") { "line \($0) ^b\($0)" },
                          html: joined(blocks, "") { paragraph("line \($0)<span class=\"block-id\" id=\"^b\($0)\"></span>") }) {
            $0.symbols.blockIDs.count == blocks && $0.diagnostics.isEmpty
        })
        cases.append(note("one block id on many lines", rep("line ^same\n\n", blocks),
                          html: rep(paragraph("line<span class=\"block-id\" id=\"^same\"></span>"), blocks)) {
            $0.symbols.blockIDs.count == blocks
        })
        cases.append(note("very long block id", "para ^" + rep("b", long),
                          html: paragraph("para<span class=\"block-id\" id=\"^\(rep("b", long))\"></span>")) {
            $0.symbols.blockIDs.count == 1
        })

        // MARK: Footnotes

        func footnote(_ label: String, number: Int, id: String) -> String {
            "<sup class=\"footnote-ref\"><a href=\"#fn-\(label)\" id=\"\(id)\" data-footnote-ref>\(number)</a></sup>"
        }
        func backref(_ label: String, number: Int, repeat index: Int = 1) -> String {
            let suffix = index == 1 ? "" : "-\(index)"
            let mark = index == 1 ? "" : "<sup class=\"footnote-ref\">\(index)</sup>"
            return "<a href=\"#fnref-\(label)\(suffix)\" class=\"footnote-backref\" data-footnote-backref "
                + "data-footnote-backref-idx=\"\(number)\(suffix)\" aria-label=\"Back to reference \(number)\(suffix)\">↩\(mark)</a>"
        }
        func section(_ items: String) -> String { "<section class=\"footnotes\" data-footnotes>\n<ol>\n" + items + "</ol>\n</section>\n" }
        let notes = n(20_000)
        cases.append(note("many footnotes", joined(notes) { "x[^\($0)]" } + "\n\n" + joined(notes, "\n") { "[^\($0)]: note \($0)" },
                          html: paragraph(joined(notes) { "x" + footnote("\($0)", number: $0 + 1, id: "fnref-\($0)") })
                          + section(joined(notes, "") { "<li id=\"fn-\($0)\">\n<p>note \($0) \(backref("\($0)", number: $0 + 1))</p>\n</li>\n" })) {
            $0.diagnostics.isEmpty
        })
        let references = n(50_000)
        cases.append(note("many references to one footnote", rep("x[^1] ", references) + "\n\n[^1]: the note\n",
                          html: paragraph(joined(references) { "x" + footnote("1", number: 1, id: $0 == 0 ? "fnref-1" : "fnref-1-\($0 + 1)") })
                          + section("<li id=\"fn-1\">\n<p>the note " + joined(references) { backref("1", number: 1, repeat: $0 + 1) }
                                    + "</p>\n</li>\n")) {
            $0.diagnostics.isEmpty
        })
        cases.append(note("references to missing footnotes", joined(references) { "x[^m\($0)]" },
                          html: paragraph(joined(references) { "x[^m\($0)]" })) {
            $0.symbols.links.isEmpty
        })
        // Each definition refers to the next: the notes are numbered in order of first reference.
        func chain(_ count: Int) -> String {
            paragraph("x" + footnote("0", number: 1, id: "fnref-0"))
                + section(joined(count, "") { index in
                    let next = index + 1 < count ? footnote("\(index + 1)", number: index + 2, id: "fnref-\(index + 1)") : "[^\(index + 1)]"
                    return "<li id=\"fn-\(index)\">\n<p>y\(next) \(backref("\(index)", number: index + 1))</p>\n</li>\n"
                })
        }
        cases.append(note("footnotes referring to the next", "x[^0]\n\n" + joined(notes, "\n") { "[^\($0)]: y[^\($0 + 1)]" },
                          html: chain(notes)) { $0.diagnostics.isEmpty })
        // The same, each definition inside the one before, indented four more spaces a level (the
        // bytes grow with the square of the depth). Every definition is written once, out of
        // the one that holds it, as cmark-gfm does.
        let depth = root(300)
        cases.append(note("footnote definitions nested by indentation",
                          "x[^0]\n\n" + joined(depth, "\n") { rep("    ", $0) + "[^\($0)]: y[^\($0 + 1)]" }, html: chain(depth)) {
            $0.diagnostics.isEmpty
        })
        // Definitions nested on one line, each referred to from the text.
        let inline = n(20_000)
        cases.append(note("footnote definitions nested on one line",
                          joined(inline, "") { "x[^\($0)]" } + "\n\n" + joined(inline, "") { "[^\($0)]: " } + "y",
                          html: paragraph(joined(inline, "") { "x" + footnote("\($0)", number: $0 + 1, id: "fnref-\($0)") })
                          + section(joined(inline - 1, "") { "<li id=\"fn-\($0)\">\n\(backref("\($0)", number: $0 + 1))\n</li>\n" }
                                    + "<li id=\"fn-\(inline - 1)\">\n<p>y \(backref("\(inline - 1)", number: inline))</p>\n</li>\n")) {
            $0.diagnostics.isEmpty
        })

        // MARK: Alerts

        let alerts = n(50_000)
        let alertHTML = "<div class=\"markdown-alert markdown-alert-note\">\n<p class=\"markdown-alert-title\">Note</p>\n"
        cases.append(note("many alerts", joined(alerts, "\n\n") { "> [!NOTE]\n> text \($0)" },
                          html: joined(alerts, "") { alertHTML + "<p>text \($0)</p>\n</div>\n" }) {
            $0.folding.count == alerts
        })
        let alertDepth = root(700)
        cases.append(note("alerts nested in alerts", joined(alertDepth, "\n") { rep(">", $0 + 1) + " [!NOTE]" },
                          html: rep(alertHTML, alertDepth) + rep("</div>\n", alertDepth)) { _ in true })
        let quotes = n(25_000)
        cases.append(note("deep block quotes in an alert", "> [!NOTE]\n> " + rep("> ", quotes) + "a",
                          html: alertHTML + rep("<blockquote>\n", quotes) + "<p>a</p>\n" + rep("</blockquote>\n", quotes) + "</div>\n") { _ in true })
        cases.append(note("deep list markers in an alert", "> [!NOTE]\n> " + rep("- ", quotes) + "a",
                          html: alertHTML + rep("<ul>\n<li>\n", quotes - 1) + "<ul>\n<li>a</li>\n</ul>\n" + rep("</li>\n</ul>\n", quotes - 1) + "</div>\n") {
            $0.folding.count <= 1
        })
        let listDepth = root(500)
        cases.append(note("deeply nested lists in an alert", "> [!TIP]\n" + joined(listDepth, "\n") { "> " + rep("  ", $0) + "- a" },
                          html: "<div class=\"markdown-alert markdown-alert-tip\">\n<p class=\"markdown-alert-title\">Tip</p>\n<ul>\n"
                          + rep("<li>a\n<ul>\n", listDepth - 1) + "<li>a</li>\n" + rep("</ul>\n</li>\n", listDepth - 1) + "</ul>\n</div>\n") {
            $0.folding.count >= listDepth - 1
        })

        // MARK: Tables

        func row(_ cells: Int, _ cell: String) -> String { rep("|" + cell, cells) + "|" }
        func htmlRow(_ cells: Int, _ tag: String, _ content: String) -> String {
            "<tr>\n" + rep("<\(tag)>\(content)</\(tag)>\n", cells) + "</tr>\n"
        }
        let columns = n(10_000)
        let bodyRows = 10
        cases.append(note("table with thousands of columns", row(columns, "a") + "\n" + row(columns, "-") + "\n" + rep(row(columns, "b") + "\n", bodyRows),
                          html: "<table>\n<thead>\n" + htmlRow(columns, "th", "a") + "</thead>\n<tbody>\n"
                          + rep(htmlRow(columns, "td", "b"), bodyRows) + "</tbody>\n</table>\n") {
            // Every row is aligned: one edit each.
            $0.folding.count == 1 && $0.formatting.count == 2 + bodyRows && $0.formatting[0].newText.hasPrefix("| a   | a   |")
        })
        cases.append(note("delimiter row of thousands of cells under one header cell",
                          "| a |\n" + row(columns, "-") + "\n" + rep(row(columns, "b") + "\n", bodyRows),
                          html: paragraph("| a |\n" + row(columns, "-") + "\n" + Array(repeating: row(columns, "b"), count: bodyRows).joined(separator: "\n"))) {
            $0.formatting.isEmpty
        })
        cases.append(note("rows far wider than their table", "| a | b |\n|---|---|\n" + rep(row(columns, "c") + "\n", bodyRows),
                          html: "<table>\n<thead>\n" + "<tr>\n<th>a</th>\n<th>b</th>\n</tr>\n" + "</thead>\n<tbody>\n"
                          + rep(htmlRow(2, "td", "c"), bodyRows) + "</tbody>\n</table>\n") { _ in true })
        let cellDepth = n(25_000)
        cases.append(note("deep list and quote markers in table cells", "| a | b |\n|---|---|\n| " + rep("- ", cellDepth) + "x | " + rep("> ", cellDepth) + "y |",
                          html: "<table>\n<thead>\n<tr>\n<th>a</th>\n<th>b</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>"
                          + rep("- ", cellDepth) + "x</td>\n<td>" + rep("&gt; ", cellDepth) + "y</td>\n</tr>\n</tbody>\n</table>\n") { _ in true })
        let tableRows = n(20_000)
        cases.append(note("tables in an alert, many rows", "> [!NOTE]\n> | a | b |\n> |---|---|\n" + rep("> | [[a]] | #t |\n", tableRows),
                          html: alertHTML + "<table>\n<thead>\n<tr>\n<th>a</th>\n<th>b</th>\n</tr>\n</thead>\n<tbody>\n"
                          + rep("<tr>\n<td>\(wikiA)</td>\n<td><a class=\"tag\" href=\"#t\">#t</a></td>\n</tr>\n", tableRows)
                          + "</tbody>\n</table>\n</div>\n") {
            $0.symbols.links.count == tableRows && $0.symbols.tags.count == tableRows
        })

        // MARK: Headings by the ten thousand

        let headings = n(20_000)
        cases.append(note("many equal headings", rep("# Heading\n", headings), html: rep("<h1>Heading</h1>\n", headings)) {
            $0.outline.count == headings && $0.preview.headings.last?.id == "heading-\(headings - 1)"
        })
        // `Heading 1` … take the ids `heading-1` … first: each later `Heading` must find the next
        // free number (github-slugger's classic quadratic trap).
        cases.append(note("equal headings after their numbered ids",
                          joined(headings, "\n") { "# Heading \($0 + 1)" } + "\n" + rep("# Heading\n", headings),
                          html: joined(headings, "") { "<h1>Heading \($0 + 1)</h1>\n" } + rep("<h1>Heading</h1>\n", headings)) {
            $0.preview.headings.last?.id == "heading-\(2 * headings - 1)" && Set($0.preview.headings.map(\.id)).count == 2 * headings
        })
        cases.append(note("headings of every level", joined(headings, "\n") { rep("#", $0 % 6 + 1) + " h\($0)" },
                          html: joined(headings, "") { "<h\($0 % 6 + 1)>h\($0)</h\($0 % 6 + 1)>\n" }) {
            $0.flatOutline.count == headings && $0.folding.count > 0
        })
        cases.append(note("links to many equal headings", rep("# Heading\n", headings) + "\n" + rep("[[#Heading]] ", headings),
                          html: rep("<h1>Heading</h1>\n", headings)
                          + paragraph(joined(headings) { _ in "<a class=\"wikilink\" href=\"#heading\">Heading</a>" })) {
            $0.symbols.links.count == headings
        })

        // Links into the note by heading, heading path, block id and HTML id, each a look-up
        // among thousands (links into the note itself are no document links).
        let anchors = n(10_000)
        cases.append(note("links to many distinct headings", joined(anchors, "\n") { "# Heading \($0)" } + "\n\n" + joined(anchors) { "[[#Heading \($0)]]" },
                          html: joined(anchors, "") { "<h1>Heading \($0)</h1>\n" }
                          + paragraph(joined(anchors) { "<a class=\"wikilink\" href=\"#heading-\($0)\">Heading \($0)</a>" })) {
            $0.diagnostics.isEmpty && $0.navigation.count > 0
        })
        cases.append(note("links to a missing heading among many", rep("# Heading\n", anchors) + "\n" + rep("[[#Missing]] ", anchors),
                          html: rep("<h1>Heading</h1>\n", anchors)
                          + paragraph(joined(anchors) { _ in "<a class=\"wikilink\" href=\"#missing\">Missing</a>" })) {
            $0.diagnostics.count == anchors && $0.diagnostics.allSatisfy { $0.code == .brokenHeading }
        })
        cases.append(note("links by heading path", joined(anchors, "\n") { "# Day \($0)\n## Notes" } + "\n\n" + joined(anchors) { "[[#Day \($0)#Notes]]" },
                          html: joined(anchors, "") { "<h1>Day \($0)</h1>\n<h2>Notes</h2>\n" }
                          + paragraph(joined(anchors) { "<a class=\"wikilink\" href=\"#notes\">Day \($0) &gt; Notes</a>" })) {
            // Only the first `Notes` has a twin that takes a link to `#notes`.
            $0.symbols.links.count == anchors && $0.diagnosticCounts == ["duplicate-heading": 1]
        })
        cases.append(note("links by heading path to many equal headings", rep("# Heading\n## Sub\n", anchors) + "\n" + rep("[[#Heading#Sub]] ", anchors),
                          html: rep("<h1>Heading</h1>\n<h2>Sub</h2>\n", anchors)
                          + paragraph(joined(anchors) { _ in "<a class=\"wikilink\" href=\"#sub\">Heading &gt; Sub</a>" })) {
            $0.symbols.links.count == anchors && $0.diagnosticCounts == ["duplicate-heading": anchors]
        })
        cases.append(note("links to many block ids", joined(anchors, "\n\n") { "line \($0) ^b\($0)" } + "\n\n" + joined(anchors) { "[[#^b\($0)]]" },
                          html: joined(anchors, "") { paragraph("line \($0)<span class=\"block-id\" id=\"^b\($0)\"></span>") }
                          + paragraph(joined(anchors) { "<a class=\"wikilink\" href=\"#%5Eb\($0)\">^b\($0)</a>" })) {
            $0.diagnostics.isEmpty && $0.symbols.links.count == anchors
        })
        cases.append(note("links to many HTML ids", joined(anchors, "\n") { "<a id=\"x\($0)\"></a>" } + "\n\n" + joined(anchors) { "[y](#x\($0))" },
                          html: paragraph(joined(anchors, "\n") { "<a id=\"x\($0)\"></a>" })
                          + paragraph(joined(anchors) { "<a href=\"#x\($0)\">y</a>" })) {
            $0.diagnostics.isEmpty && $0.symbols.htmlIDs.count == anchors
        })

        // MARK: Link reference definitions

        let definitions = n(50_000)
        cases.append(note("many link reference definitions", joined(definitions, "\n") { "[l\($0)]: https://example.com/u\($0)" } + "\n\n"
                          + joined(definitions) { "[l\($0)]" },
                          html: paragraph(joined(definitions) { "<a href=\"https://example.com/u\($0)\">l\($0)</a>" })) {
            $0.symbols.linkDefinitions.count == definitions && $0.diagnostics.isEmpty
        })
        cases.append(note("one label defined many times", joined(definitions, "\n") { "[x]: https://example.com/u\($0)" } + "\n\n[x]",
                          html: paragraph("<a href=\"https://example.com/u0\">x</a>")) {
            $0.diagnostics.count == definitions - 1
        })
        cases.append(note("unused link reference definitions", joined(definitions, "\n") { "[l\($0)]: https://example.com/u\($0)" }, html: "") {
            $0.diagnostics.count == definitions
        })

        // MARK: Long lines

        let words = n(400_000)
        cases.append(note("one long line of words", rep("word ", words) + "end", html: paragraph(rep("word ", words) + "end")) {
            $0.preview.wordCount == words + 1
        })
        cases.append(note("one long line of non-ASCII words", rep("wörd 詞 ", words / 2) + "end",
                          html: paragraph(rep("wörd 詞 ", words / 2) + "end")) {
            $0.preview.wordCount > 0
        })
        return cases
    }
}
