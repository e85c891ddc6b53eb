import Foundation
import JSON
import TestSupport
import XCTest
@testable import MacMDServer

/// Snippets over LSP, as an editor shows them: the items offered where a word is typed, what the
/// edit inserts (snippet syntax for editors that take it, plain text for the others), the
/// notebook's and the user's own snippets picked up without a restart, and broken snippet files
/// reported.
final class SnippetServerTests: XCTestCase {
    static let notebook = Fixture("""
        //- /index.md
        # Home

        //- /.macmd/snippets/mine.json
        {
          "Greeting": { "prefix": ["hello", "hi"], "body": ["Hello, ${1:world}!", "Bye."], "description": "Says hello" }
        }
        //- /Snippets/signature.md
        ---
        prefix: sig
        description: My signature
        ---
        -- ${1:Ann}, $CURRENT_YEAR
        //- /.macmd.json
        {"snippets": {"folder": "Snippets"}}
        """)

    func start(snippetSupport: Bool) -> (NotebookFixture, LSPTestClient) {
        let fixture = NotebookFixture(Self.notebook)
        let client = LSPTestClient.started(on: fixture, capabilities: [
            "textDocument": ["completion": ["completionItem": ["snippetSupport": .bool(snippetSupport)]]],
            "workspace": ["didChangeWatchedFiles": ["dynamicRegistration": true]],
        ])
        client.open(fixture, "index.md")
        return (fixture, client)
    }

    /// Sets `index.md` to `marked` (its `$0` is the cursor) and completes there.
    func complete(_ client: LSPTestClient, _ fixture: NotebookFixture, _ marked: String, version: Int,
                  invoked: Bool = false, file: StaticString = #filePath, line: UInt = #line) -> (text: String, items: [JSONValue]) {
        let typed = Fixture(marked, defaultPath: "index.md", file: file, line: line)
        client.notify("textDocument/didChange", ["textDocument": ["uri": .string(fixture.uri("index.md")), "version": .int(Int64(version))],
                                                 "contentChanges": [["text": .string(typed.text)]]])
        let result = client.request("textDocument/completion", ["textDocument": ["uri": .string(fixture.uri("index.md"))],
                                                                "position": typed.lspPosition(typed.cursor),
                                                                "context": ["triggerKind": invoked ? 1 : 3]], file: file, line: line)
        return (typed.text, result?.value?["items"]?.arrayValue ?? [])
    }

    func snippet(_ items: [JSONValue], _ label: String) -> JSONValue? {
        items.first { $0["label"]?.stringValue == label && $0["kind"]?.intValue == 15 }
    }

    func testBuiltInSnippetsInsertSnippetSyntaxOrPlainText() throws {
        let (fixture, client) = start(snippetSupport: true)
        defer { client.close(); fixture.destroy() }
        var (text, items) = complete(client, fixture, "# Home\n\ntab$0", version: 2)
        let table = try XCTUnwrap(snippet(items, "table"), "\(items)")
        XCTAssertEqual(table["insertTextFormat"], 2)
        XCTAssertEqual(applying(table, to: text),
                       "# Home\n\n| ${1:Column} | ${2:Column} |\n| --- | --- |\n| ${3:Cell} | ${4:Cell} |\n| ${5:Cell} | ${6:Cell} |$0")
        XCTAssertTrue(table["documentation"]?["value"]?.stringValue?.contains("| Column | Column |") ?? false, "the preview")
        // Not inside code; after a word, not at all.
        (_, items) = complete(client, fixture, "```\ntab$0\n```\n", version: 3)
        XCTAssertNil(snippet(items, "table"), "inside a code fence")
        (_, items) = complete(client, fixture, "word(tab$0", version: 4)
        XCTAssertNil(snippet(items, "table"), "not at a line start nor after white space")
        // Asked for on an empty line: every snippet, the notebook's first.
        (_, items) = complete(client, fixture, "# Home\n\n$0", version: 5, invoked: true)
        let labels = items.filter { $0["kind"]?.intValue == 15 }.compactMap { $0["label"]?.stringValue }
        XCTAssertTrue(labels.contains("table") && labels.contains("hello") && labels.contains("sig"), "\(labels)")

        let (plainFixture, plain) = start(snippetSupport: false)
        defer { plain.close(); plainFixture.destroy() }
        (text, items) = complete(plain, plainFixture, "lin$0", version: 2)
        let link = try XCTUnwrap(snippet(items, "link"), "\(items)")
        XCTAssertNil(link["insertTextFormat"], "plain text for an editor without snippets")
        XCTAssertEqual(applying(link, to: text), "[text](https://)")
    }

    func testTheNotebooksSnippetsAndItsSnippetNotesAreOfferedAndFollowTheirFiles() throws {
        let (fixture, client) = start(snippetSupport: true)
        defer { client.close(); fixture.destroy() }
        var (text, items) = complete(client, fixture, "hel$0", version: 2)
        XCTAssertEqual(applying(snippet(items, "hello"), to: text), "Hello, ${1:world}!\nBye.")
        XCTAssertEqual(snippet(items, "hello")?["detail"]?.stringValue, "Says hello")
        (text, items) = complete(client, fixture, "si$0", version: 3)
        let year = Calendar(identifier: .gregorian).component(.year, from: Date())
        XCTAssertEqual(applying(snippet(items, "sig"), to: text), "-- ${1:Ann}, \(year)")
        // The file changes: the editor reports it, and the next completion has the new snippet.
        fixture.write(".macmd/snippets/mine.json", #"{"Bye": {"prefix": "bye", "body": "Goodbye!"}}"#)
        client.notify("workspace/didChangeWatchedFiles", ["changes": [["uri": .string(fixture.uri(".macmd/snippets/mine.json")), "type": 2]]])
        _ = client.request("workspace/symbol", ["query": "zzz"])
        client.server.settle()
        (_, items) = complete(client, fixture, "hel$0", version: 4)
        XCTAssertNil(snippet(items, "hello"), "the removed snippet is gone")
        (text, items) = complete(client, fixture, "by$0", version: 5)
        XCTAssertEqual(applying(snippet(items, "bye"), to: text), "Goodbye!")
    }

    func testABrokenSnippetFileIsReportedAndItsGoodSnippetsStillLoad() throws {
        var files = Self.notebook.texts
        files[".macmd/snippets/mine.json"] = """
            {
              "Good": { "prefix": "good", "body": "fine" },
              "Bad": { "prefix": "bad", "body": "${1:unclosed" }
            }
            """
        let fixture = NotebookFixture(files)
        defer { fixture.destroy() }
        let log = LogFile()
        let client = LSPTestClient.started(on: fixture, logger: log.logger())
        defer { client.close() }
        client.open(fixture, "index.md")
        let (text, items) = complete(client, fixture, "goo$0", version: 2)
        XCTAssertEqual(applying(snippet(items, "good"), to: text), "fine")
        // The log names the file and the line; opened, the file shows the problem where it is.
        client.server.settle()
        XCTAssertTrue(log.text.contains("snippets: \(fixture.root)/.macmd/snippets/mine.json:3:"), log.text)
        client.open(fixture, ".macmd/snippets/mine.json")
        let problems = try XCTUnwrap(client.diagnostics(for: fixture.uri(".macmd/snippets/mine.json")) { !$0.isEmpty })
        XCTAssertEqual(problems.compactMap { $0["code"]?.stringValue }, ["snippet-error"])
        XCTAssertEqual(problems.first?["range"]?["start"]?["line"], 2)
    }

    /// Runs `body` with a server whose user has `snippets` in `$XDG_CONFIG_HOME/macmd/snippets/`
    /// (the config folder's path is given), once the server has read that folder.
    func withUserSnippets(_ snippets: [String: String], _ body: (String, NotebookFixture, LSPTestClient) throws -> Void) rethrows {
        let config = NotebookFixture(Dictionary(uniqueKeysWithValues: snippets.map { ("macmd/snippets/\($0.key)", $0.value) }))
        defer { config.destroy() }
        setenv("XDG_CONFIG_HOME", config.root, 1)
        defer { unsetenv("XDG_CONFIG_HOME") }
        let (fixture, client) = start(snippetSupport: true)
        defer { client.close(); fixture.destroy() }
        // An answer means the reader has handled the didOpen before it, which had the folder
        // read; settling waits for that read.
        _ = client.request("workspace/symbol", ["query": "zzz"])
        client.server.settle()
        try body(config.root, fixture, client)
    }

    func testTheUsersOwnSnippetsComeFromTheirConfigFolder() throws {
        withUserSnippets(["global.json": #"{"Sign": {"prefix": "mysign", "body": "Yours, ${1:me}"}}"#]) { _, fixture, client in
            let (text, items) = complete(client, fixture, "mysi$0", version: 2)
            XCTAssertEqual(applying(snippet(items, "mysign"), to: text), "Yours, ${1:me}")
        }
    }

    func testASnippetAddedToTheUsersFolderIsOfferedWithoutARestart() throws {
        try withUserSnippets(["global.json": #"{"Sign": {"prefix": "mysign", "body": "Yours"}}"#]) { configRoot, fixture, client in
            XCTAssertNil(snippet(complete(client, fixture, "zzq$0", version: 2).items, "zzquote"))
            // A new file that no built-in snippet's prefix matches: the completion that finds
            // nothing still has the folder read, and the next one offers it.
            try #"{"Quote": {"prefix": "zzquote", "body": "> ${1:quote}"}}"#
                .write(toFile: configRoot + "/macmd/snippets/quotes.json", atomically: true, encoding: .utf8)
            _ = complete(client, fixture, "zzq$0", version: 3)
            client.server.settle()
            let (text, items) = complete(client, fixture, "zzq$0", version: 4)
            XCTAssertEqual(applying(snippet(items, "zzquote"), to: text), "> ${1:quote}")
        }
    }

    /// The file, notebook and title variables of a note, the title as the note reads at this
    /// keystroke (not as it was last indexed); in a note outside every notebook, its own file.
    func testSnippetVariablesNameTheNoteItsNotebookAndItsTitleAsTyped() throws {
        var files = Self.notebook.texts
        files[".macmd/snippets/vars.json"] = #"{"Vars": {"prefix": "vars", "body": "$NOTE_TITLE|$TM_FILENAME_BASE|$WORKSPACE_NAME"}}"#
        files["notes/plan.md"] = "# Plan\n"
        let fixture = NotebookFixture(files)
        defer { fixture.destroy() }
        let client = LSPTestClient.started(on: fixture, capabilities: [
            "textDocument": ["completion": ["completionItem": ["snippetSupport": true]]]])
        defer { client.close() }
        client.open(fixture, "index.md")
        let notebookName = URL(fileURLWithPath: fixture.root).lastPathComponent
        var (text, items) = complete(client, fixture, "---\ntitle: Fresh title\n---\nvars$0", version: 2)
        XCTAssertEqual(applying(snippet(items, "vars"), to: text), "---\ntitle: Fresh title\n---\nFresh title|index|\(notebookName)")
        (text, items) = complete(client, fixture, "# A heading now\n\nvars$0", version: 3)
        XCTAssertEqual(applying(snippet(items, "vars"), to: text), "# A heading now\n\nA heading now|index|\(notebookName)")

        // A note in no notebook: no notebook snippets, its file name as the title.
        let outside = NotebookFixture(["loose note.md": "dat"])
        defer { outside.destroy() }
        let uri = outside.uri("loose note.md")
        client.notify("textDocument/didOpen", ["textDocument": ["uri": .string(uri), "languageId": "markdown", "version": 1, "text": "dat"]])
        let answer = client.request("textDocument/completion", ["textDocument": ["uri": .string(uri)],
                                                                "position": ["line": 0, "character": 3]])
        items = answer?.value?["items"]?.arrayValue ?? []
        XCTAssertNotNil(snippet(items, "date"), "built-in snippets everywhere")
        XCTAssertNil(snippet(items, "vars"), "the notebook's own snippets only in its notes")
    }

    /// A writer whose dates are German (`LC_TIME`) gets German month names from a snippet.
    func testMonthNamesInTheWritersLanguage() throws {
        var files = Self.notebook.texts
        files[".macmd/snippets/month.json"] = #"{"Month": {"prefix": "month", "body": "$CURRENT_MONTH_NAME"}}"#
        let fixture = NotebookFixture(files)
        defer { fixture.destroy() }
        let client = LSPTestClient.started(on: fixture, environment: ["LC_TIME": "de_DE.UTF-8"])
        defer { client.close() }
        client.open(fixture, "index.md")
        let (text, items) = complete(client, fixture, "month$0", version: 2)
        let month = Calendar(identifier: .gregorian).component(.month, from: Date())
        let german = ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
                      "November", "Dezember"]
        XCTAssertEqual(applying(snippet(items, "month"), to: text), german[month - 1])
    }
}
