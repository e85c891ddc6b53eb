import TestSupport
import XCTest

/// What a writer reads, in each language the issue names and in English: for one notebook, the
/// diagnostics (a plural count among them), a tag's hover, a tag's completion detail, a code
/// action's title and the outline's own names, as a client shows them. The golden file
/// `Fixtures/localization/messages.txt` holds them side by side, so a translation can be read
/// (and reviewed) where it is used; `MACMD_BLESS=1` rewrites it.
final class LanguagesServerTests: XCTestCase {
    static let notebook = Fixture("""
        //- /index.md
        ---
        title: Home
        ---
        # Home

        See [[Greenhouse]], [[dup]] and [[soil#Acidity]]. #garden

        More on #garden and [the beds][beds].
        //- /garden/soil.md
        # Soil

        ## pH

        Acid is fine. #garden
        //- /a/dup.md
        # Dup A
        //- /b/dup.md
        # Dup B

        """)

    /// The locales the issue asks for, and English to compare with.
    static let locales = ["en", "de", "ja", "ar", "es-419", "en-XA"]

    func testEveryLanguageShowsTheNotebooksMessages() {
        var report = ""
        for locale in Self.locales {
            let fixture = NotebookFixture(Self.notebook)
            let client = LSPTestClient.started(on: fixture, capabilities: ["workspace": ["workspaceEdit": ["documentChanges": true]]],
                                               initializationOptions: ["locale": .string(locale)])
            defer { client.close(); fixture.destroy() }
            client.open(fixture, "index.md")
            let published = client.diagnostics(for: fixture.uri("index.md")) ?? []
            report += "== \(locale)\n"
            for diagnostic in published {
                report += "diagnostic [\(diagnostic["code"]?.stringValue ?? "")]: \(diagnostic["message"]?.stringValue ?? "")\n"
                for related in diagnostic["relatedInformation"]?.arrayValue ?? [] {
                    report += "  related: \(related["message"]?.stringValue ?? "")\n"
                }
            }
            let hover = client.request("textDocument/hover", fixture.at("]]. #gar$0den", in: "index.md"))?.value
            report += "hover #garden: \(hover?["contents"]?["value"]?.stringValue ?? "<none>")\n"
            let items = client.request("textDocument/completion", fixture.at("More on #gar$0den", in: "index.md"))?.value?["items"]?.arrayValue ?? []
            let garden = items.first { $0["label"]?.stringValue == "garden" }
            report += "completion #garden: \(garden?["detail"]?.stringValue ?? "<none>")\n"
            let link = fixture.at("[[Green$0house]]", in: "index.md")
            let actions = client.request("textDocument/codeAction", ["textDocument": link["textDocument"] ?? .null,
                                                                     "range": ["start": link["position"] ?? .null, "end": link["position"] ?? .null],
                                                                     "context": ["diagnostics": []]])?.value?.arrayValue ?? []
            for action in actions { report += "code action: \(action["title"]?.stringValue ?? "")\n" }
            let outline = client.request("textDocument/documentSymbol", ["textDocument": ["uri": .string(fixture.uri("index.md"))]])?.value?.arrayValue ?? []
            report += "outline: \(outline.compactMap { $0["name"]?.stringValue }.joined(separator: " | "))\n"
            // The preview page's footer: the note's counts.
            let page = client.request("macmd/preview", ["textDocument": ["uri": .string(fixture.uri("index.md"))],
                                                        "options": ["fullPage": true]])?.value?["html"]?.stringValue ?? ""
            let footer = page.range(of: "<footer class=\"page-statistics\">").flatMap { start in
                page.range(of: "</footer>", range: start.upperBound..<page.endIndex).map { String(page[start.upperBound..<$0.lowerBound]) }
            }
            report += "preview footer: \(footer ?? "<none>")\n"
            // Nothing English escapes the catalog in the pseudo-locale: every text is bracketed.
            if locale == "en-XA" {
                for diagnostic in published {
                    let message = diagnostic["message"]?.stringValue ?? ""
                    XCTAssertTrue(message.hasPrefix("[") && message.hasSuffix("]"), "en-XA: \(message)")
                }
                XCTAssertTrue(actions.allSatisfy { ($0["title"]?.stringValue ?? "").hasPrefix("[") }, "en-XA code actions")
            }
        }
        Golden.assertMatches(report, "localization/messages.txt")
        // Each language differs from English in every line but the ones made of user content.
        let sections = report.components(separatedBy: "== ").filter { !$0.isEmpty }.map { $0.split(separator: "\n").dropFirst() }
        guard let english = sections.first else { return XCTFail("no English section") }
        for (locale, lines) in zip(Self.locales, sections).dropFirst() {
            XCTAssertEqual(lines.count, english.count, "\(locale): the same things are shown")
            for (line, englishLine) in zip(lines, english) where !englishLine.hasPrefix("outline") {
                XCTAssertNotEqual(line, englishLine, "\(locale): still English")
            }
        }
    }

    /// The editor's `macmd` settings may switch the language while the server runs; a notebook's
    /// `.macmd.json` may not choose it for its readers.
    func testTheEditorsSettingsSwitchTheLanguageAndANotebookCannot() {
        let notebook = Fixture("""
            //- /.macmd.json
            {"locale": "ja"}
            //- /index.md
            # Home

            See [[Greenhouse]].

            """)
        let fixture = NotebookFixture(notebook)
        let client = LSPTestClient.started(on: fixture)
        defer { client.close(); fixture.destroy() }
        let refused = client.notification("window/showMessage")
        XCTAssertEqual(refused?["message"]?.stringValue,
                       "MacMD: \(fixture.root)/.macmd.json: `locale` is the writer's choice: set it in the editor's settings (initializationOptions or the `macmd` section), not in the notebook")
        client.open(fixture, "index.md")
        XCTAssertEqual(client.diagnostics(for: fixture.uri("index.md")) { $0 == ["broken-wikilink"] }?.first?["message"]?.stringValue,
                       "No note `Greenhouse` for `[[Greenhouse]]`")
        client.notify("workspace/didChangeConfiguration", ["settings": ["macmd": ["locale": "de-CH"]]])
        let german = client.diagnostics(for: fixture.uri("index.md")) { $0 == ["broken-wikilink"] }
        XCTAssertEqual(german?.first?["message"]?.stringValue, "Keine Notiz `Greenhouse` für `[[Greenhouse]]`")
    }
}
