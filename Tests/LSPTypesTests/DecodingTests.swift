import JSON
import JSONRPC
import LSPTypes
import XCTest

/// Reading params: what each message accepts, and for what it refuses, the error a client author
/// reads (the same the server's hand-written readers gave).
final class DecodingTests: XCTestCase {
    let doc = TextDocumentIdentifier(uri: "file:///n/a.md")

    func testPositionParams() {
        let at = TextDocumentPositionParams(textDocument: doc, position: LSPPosition(line: 3, character: 7))
        checkDecoding(TextDocumentPositionParams.self, [
            (#"{"textDocument":{"uri":"file:///n/a.md"},"position":{"line":3,"character":7}}"#, .value(at)),
            // Some clients write integers as doubles; members of other messages are ignored.
            (#"{"textDocument":{"uri":"file:///n/a.md"},"position":{"line":3.0,"character":7},"newName":5}"#, .value(at)),
            (nil, .error("params.textDocument: expected an object, got nothing")),
            ("[1,2]", .error("params.textDocument: expected an object, got nothing")),
            (#"{"textDocument":42}"#, .error("params.textDocument: expected an object, got 42")),
            (#"{"textDocument":{"uri":42}}"#, .error("params.textDocument.uri: expected a string, got 42")),
            (#"{"textDocument":{"uri":"u"}}"#, .error("params.position: expected an object, got nothing")),
            (#"{"textDocument":{"uri":"u"},"position":{"line":"x","character":0}}"#,
             .error(#"params.position.line: expected an integer, got "x""#)),
            (#"{"textDocument":{"uri":"u"},"position":{"line":1.5,"character":0}}"#,
             .error("params.position.line: expected an integer, got 1.5")),
            (#"{"textDocument":{"uri":"u"},"position":{"line":0,"character":null}}"#,
             .error("params.position.character: expected an integer, got null")),
        ])
    }

    func testReferenceParamsIncludeTheDeclarationUnlessTold() {
        let position = #""textDocument":{"uri":"file:///n/a.md"},"position":{"line":0,"character":1}"#
        func params(_ include: Bool) -> ReferenceParams {
            ReferenceParams(textDocument: doc, position: LSPPosition(line: 0, character: 1),
                            context: ReferenceContext(includeDeclaration: include))
        }
        checkDecoding(ReferenceParams.self, [
            ("{\(position)}", .value(params(true))),
            ("{\(position),\"context\":{}}", .value(params(true))),
            ("{\(position),\"context\":5}", .value(params(true))),
            ("{\(position),\"context\":{\"includeDeclaration\":false}}", .value(params(false))),
            ("{\(position),\"context\":{\"includeDeclaration\":true}}", .value(params(true))),
            ("{\(position),\"context\":{\"includeDeclaration\":\"no\"}}",
             .error(#"params.context.includeDeclaration: expected true or false, got "no""#)),
            (#"{"position":{"line":0,"character":1}}"#, .error("params.textDocument: expected an object, got nothing")),
        ])
    }

    func testRenameParamsNeedANewName() {
        let position = #""textDocument":{"uri":"file:///n/a.md"},"position":{"line":2,"character":0}"#
        checkDecoding(RenameParams.self, [
            ("{\(position),\"newName\":\"Loam\"}",
             .value(RenameParams(textDocument: doc, position: LSPPosition(line: 2, character: 0), newName: "Loam"))),
            ("{\(position)}", .error("params.newName: expected a string, got nothing")),
            // As the server said before: a null name is no name.
            ("{\(position),\"newName\":null}", .error("params.newName: expected a string, got nothing")),
            ("{\(position),\"newName\":5}", .error("params.newName: expected a string, got 5")),
            // The document and the position are read first.
            (#"{"newName":"x"}"#, .error("params.textDocument: expected an object, got nothing")),
        ])
    }

    func testCodeActionParams() {
        checkDecoding(CodeActionParams.self, [
            (#"{"textDocument":{"uri":"file:///n/a.md"},"range":\#(rangeJSON(1, 0, 4)),"context":{"diagnostics":[]}}"#,
             .value(CodeActionParams(textDocument: doc, range: range(1, 0, 4)))),
            (#"{"textDocument":{"uri":"file:///n/a.md"},"range":"bad"}"#, .error(#"params.range: expected an object, got "bad""#)),
            (#"{"textDocument":{"uri":"file:///n/a.md"},"range":{}}"#, .error("params.range.start: expected an object, got nothing")),
            (#"{"textDocument":{"uri":"file:///n/a.md"},"range":{"start":{"line":0,"character":0},"end":[]}}"#,
             .error("params.range.end: expected an object, got an array")),
        ])
    }

    func testDocumentParams() {
        checkDecoding(TextDocumentParams.self, [
            (#"{"textDocument":{"uri":"file:///n/a.md","version":3}}"#, .value(TextDocumentParams(textDocument: doc))),
            ("[1,2,3]", .error("params.textDocument: expected an object, got nothing")),
            (#"{"textDocument":{"uri":null}}"#, .error("params.textDocument.uri: expected a string, got null")),
        ])
        checkDecoding(DidSaveTextDocumentParams.self, [
            (#"{"textDocument":{"uri":"file:///n/a.md"}}"#, .value(DidSaveTextDocumentParams(textDocument: doc))),
            (##"{"textDocument":{"uri":"file:///n/a.md"},"text":"# A\n"}"##,
             .value(DidSaveTextDocumentParams(textDocument: doc, text: "# A\n"))),
            (#"{"textDocument":{"uri":"file:///n/a.md"},"text":5}"#, .error("params.text: expected a string, got 5")),
        ])
        checkDecoding(WorkspaceSymbolParams.self, [
            (#"{"query":"soil"}"#, .value(WorkspaceSymbolParams(query: "soil"))),
            (nil, .error("params.query: expected a string, got nothing")),
        ])
    }

    func testTextSynchronisation() {
        checkDecoding(DidOpenTextDocumentParams.self, [
            (##"{"textDocument":{"uri":"file:///n/a.md","languageId":"markdown","version":1,"text":"# A"}}"##,
             .value(DidOpenTextDocumentParams(textDocument: TextDocumentItem(uri: "file:///n/a.md", languageID: "markdown",
                                                                             version: 1, text: "# A")))),
            // A missing language is Markdown's.
            (#"{"textDocument":{"uri":"untitled:1","version":0,"text":""}}"#,
             .value(DidOpenTextDocumentParams(textDocument: TextDocumentItem(uri: "untitled:1", languageID: "markdown",
                                                                             version: 0, text: "")))),
            (#"{"textDocument":{"uri":"file:///a.md","version":"one","text":5}}"#,
             .error(#"params.textDocument.version: expected an integer, got "one""#)),
            (#"{"textDocument":{"uri":1}}"#, .error("params.textDocument.uri: expected a string, got 1")),
            (#"{"textDocument":{"uri":"u","version":1}}"#, .error("params.textDocument.text: expected a string, got nothing")),
        ])
        let change = TextDocumentContentChangeEvent(range: range(0, 1, 2), text: "x")
        checkDecoding(DidChangeTextDocumentParams.self, [
            (#"{"textDocument":{"uri":"file:///n/a.md","version":4},"contentChanges":[{"range":\#(rangeJSON(0, 1, 2)),"rangeLength":1,"text":"x"},{"text":"all"}]}"#,
             .value(DidChangeTextDocumentParams(
                textDocument: OptionalVersionedTextDocumentIdentifier(uri: "file:///n/a.md", version: 4),
                contentChanges: [change, TextDocumentContentChangeEvent(range: nil, text: "all")]))),
            // Without a version, and with a null range (the whole text).
            (#"{"textDocument":{"uri":"file:///n/a.md"},"contentChanges":[{"range":null,"text":"all"}]}"#,
             .value(DidChangeTextDocumentParams(
                textDocument: OptionalVersionedTextDocumentIdentifier(uri: "file:///n/a.md", version: nil),
                contentChanges: [TextDocumentContentChangeEvent(range: nil, text: "all")]))),
            (#"{"textDocument":"nope"}"#, .error(#"params.textDocument: expected an object, got "nope""#)),
            (#"{"contentChanges":12}"#, .error("params.textDocument: expected an object, got nothing")),
            (#"{"textDocument":{"uri":"u"},"contentChanges":12}"#, .error("params.contentChanges: expected an array, got 12")),
            (#"{"textDocument":{"uri":"u"},"contentChanges":[{"range":"bad","text":"x"}]}"#,
             .error(#"params.contentChanges[0].range: expected an object, got "bad""#)),
            (#"{"textDocument":{"uri":"u"},"contentChanges":[{"text":"x"},5]}"#,
             .error("params.contentChanges[1]: expected an object, got 5")),
            (#"{"textDocument":{"uri":"u","version":"2"},"contentChanges":[]}"#,
             .error(#"params.textDocument.version: expected an integer, got "2""#)),
        ])
    }

    func testFileEventsAndOperations() {
        checkDecoding(DidChangeWatchedFilesParams.self, [
            (#"{"changes":[{"uri":"file:///n/a.md","type":1},{"uri":"file:///n/b.md","type":2},{"uri":"file:///n/c","type":3}]}"#,
             .value(DidChangeWatchedFilesParams(changes: [FileEvent(uri: "file:///n/a.md", kind: .created),
                                                          FileEvent(uri: "file:///n/b.md", kind: .changed),
                                                          FileEvent(uri: "file:///n/c", kind: .deleted)]))),
            (#"{"changes":[{"uri":"file:///n/a.md","type":7}]}"#, .error("params.changes[0].type: expected 1, 2 or 3, got 7")),
            // The type is read before the URI.
            (#"{"changes":[{"type":"x"}]}"#, .error(#"params.changes[0].type: expected an integer, got "x""#)),
            (#"{"changes":[{"type":2}]}"#, .error("params.changes[0].uri: expected a string, got nothing")),
            (nil, .error("params.changes: expected an array, got nothing")),
        ])
        checkDecoding(CreateFilesParams.self, [
            (#"{"files":[{"uri":"file:///n/new.md"}]}"#, .value(CreateFilesParams(files: [FileCreate(uri: "file:///n/new.md")]))),
            (#"{"files":[]}"#, .value(CreateFilesParams(files: []))),
            (#"{"files":[5]}"#, .error("params.files[0].uri: expected a string, got nothing")),
            (#"{"files":{}}"#, .error("params.files: expected an array, got an object")),
        ])
        checkDecoding(RenameFilesParams.self, [
            (#"{"files":[{"oldUri":"file:///n/a.md","newUri":"file:///n/b.md"}]}"#,
             .value(RenameFilesParams(files: [FileRename(oldURI: "file:///n/a.md", newURI: "file:///n/b.md")]))),
            (#"{"files":[{"oldUri":"file:///n/a.md"}]}"#, .error("params.files[0].newUri: expected a string, got nothing")),
            (#"{"files":[{"uri":"file:///n/a.md"}]}"#, .error("params.files[0].oldUri: expected a string, got nothing")),
        ])
    }

    func testWorkspaceFoldersAndSettings() {
        checkDecoding(DidChangeWorkspaceFoldersParams.self, [
            (#"{"event":{"added":[{"uri":"file:///m","name":"m"}],"removed":[{"uri":"file:///n","name":"n"}]}}"#,
             .value(DidChangeWorkspaceFoldersParams(event: WorkspaceFoldersChangeEvent(
                added: [WorkspaceFolder(uri: "file:///m")], removed: [WorkspaceFolder(uri: "file:///n")])))),
            ("{}", .value(DidChangeWorkspaceFoldersParams(event: WorkspaceFoldersChangeEvent(added: [], removed: [])))),
            (#"{"event":{"removed":[{"uri":3}]}}"#, .error("params.event.removed[0].uri: expected a string, got 3")),
            (#"{"event":{"added":"file:///m"}}"#, .error(#"params.event.added: expected an array, got "file:///m""#)),
        ])
        checkDecoding(DidChangeConfigurationParams.self, [
            (#"{"settings":{"macmd":{"previewTheme":"dark"}}}"#,
             .value(DidChangeConfigurationParams(settings: ["macmd": ["previewTheme": "dark"]]))),
            (#"{"settings":null}"#, .value(DidChangeConfigurationParams(settings: .null))),
            ("{}", .value(DidChangeConfigurationParams(settings: nil))),
            ("[1]", .value(DidChangeConfigurationParams(settings: nil))),
        ])
    }

    func testCancelParams() {
        checkDecoding(CancelParams.self, [
            (#"{"id":5}"#, .value(CancelParams(id: .int(5)))),
            (#"{"id":"macmd-1"}"#, .value(CancelParams(id: .string("macmd-1")))),
            (#"{"id":{"nested":true}}"#, .error("params.id: expected an integer or a string, got an object")),
            (#"{"id":null}"#, .error("params.id: expected an integer or a string, got null")),
            (nil, .error("params.id: expected an integer or a string, got nothing")),
        ])
    }

    func testPreviewParams() {
        checkDecoding(PreviewParams.self, [
            (#"{"textDocument":{"uri":"file:///n/a.md"}}"#, .value(PreviewParams(uri: "file:///n/a.md"))),
            (#"{"textDocument":{"uri":"file:///n/a.md"},"options":null}"#, .value(PreviewParams(uri: "file:///n/a.md"))),
            (#"{"textDocument":{"uri":"file:///n/a.md"},"options":{"profile":"gfm","theme":"dark","fullPage":true,"sourceLines":false,"safe":false}}"#,
             .value(PreviewParams(uri: "file:///n/a.md", profile: "gfm", theme: "dark", fullPage: true, sourceLines: false,
                                  safe: false))),
            (#"{"textDocument":{"uri":"file:///n/a.md"},"options":{"resources":"absolute","baseUri":"https://x/n","baseHref":true}}"#,
             .value(PreviewParams(uri: "file:///n/a.md", resources: "absolute", baseUri: "https://x/n", baseHref: true))),
            (#"{"textDocument":{"uri":"file:///a.md"},"options":{"resources":1}}"#,
             .error("params.options.resources: expected a string, got 1")),
            (#"{"textDocument":{"uri":"file:///a.md"},"options":{"baseHref":"yes"}}"#,
             .error(#"params.options.baseHref: expected true or false, got "yes""#)),
            (nil, .error("params: expected an object, got nothing")),
            ("[1,2]", .error("params: expected an object, got an array")),
            (#"{"textDocument":42}"#, .error("params.textDocument: expected an object, got 42")),
            (#"{"textDocument":{"uri":42}}"#, .error("params.textDocument.uri: expected a string, got 42")),
            (#"{"textDocument":{"uri":"file:///a.md"},"options":"x"}"#, .error(#"params.options: expected an object, got "x""#)),
            (#"{"textDocument":{"uri":"file:///a.md"},"options":{"fullPage":"yes"}}"#,
             .error(#"params.options.fullPage: expected true or false, got "yes""#)),
        ])
    }

    func testInitializeParams() throws {
        let params = try XCTUnwrap(json(#"""
        {"processId":42,"clientInfo":{"name":"Neovim"},"rootUri":"file:///n",
         "workspaceFolders":[{"uri":"file:///n","name":"n"},{"uri":"file:///m","name":"m"}],
         "initializationOptions":{"previewTheme":"dark"},
         "capabilities":{"general":{"positionEncodings":["utf-16","utf-8"]},
                         "window":{"workDoneProgress":true},
                         "textDocument":{"diagnostic":{"dynamicRegistration":false}},
                         "workspace":{"configuration":true,"didChangeConfiguration":{"dynamicRegistration":true},
                                      "diagnostics":{"refreshSupport":true},
                                      "didChangeWatchedFiles":{"dynamicRegistration":true},
                                      "workspaceEdit":{"documentChanges":true}}}}
        """#))
        let read = try InitializeParams(params: params)
        XCTAssertEqual(read.processID, 42)
        XCTAssertEqual(read.clientName, "Neovim")
        XCTAssertEqual(read.rootURI, "file:///n")
        XCTAssertEqual(read.workspaceFolders, ["file:///n", "file:///m"])
        XCTAssertEqual(read.positionEncodings, ["utf-16", "utf-8"])
        XCTAssertEqual(read.initializationOptions, ["previewTheme": "dark"])
        XCTAssertTrue(read.supportsConfiguration && read.supportsDynamicConfigurationRegistration && read.supportsWorkDoneProgress
                      && read.supportsPullDiagnostics && read.supportsDiagnosticRefresh && read.supportsWatchedFilesRegistration
                      && read.supportsDocumentChanges)
        XCTAssertEqual(try InitializeParams(ParamReader(params)), read, "the legacy and the typed entry points read alike")

        let bare = try InitializeParams(params: ["processId": nil, "rootUri": nil, "capabilities": [:]])
        XCTAssertEqual(bare.workspaceFolders, [])
        XCTAssertEqual(bare.positionEncodings, [])
        XCTAssertFalse(bare.supportsConfiguration || bare.supportsPullDiagnostics || bare.supportsDocumentChanges)

        // Neovim announces the resource operations it applies and no `documentChanges` flag:
        // those operations exist only in `documentChanges`, so it takes them. An explicit
        // `false` still wins.
        let neovim = try InitializeParams(params: ["capabilities": ["workspace": ["workspaceEdit": [
            "resourceOperations": ["rename", "create", "delete"], "changeAnnotationSupport": ["groupsOnLabel": true]]]]])
        XCTAssertTrue(neovim.supportsDocumentChanges && neovim.supportsChangeAnnotations)
        let refusing = try InitializeParams(params: ["capabilities": ["workspace": ["workspaceEdit": [
            "documentChanges": false, "resourceOperations": ["create"]]]]])
        XCTAssertFalse(refusing.supportsDocumentChanges)
        let none = try InitializeParams(params: ["capabilities": ["workspace": ["workspaceEdit": ["resourceOperations": []]]]])
        XCTAssertFalse(none.supportsDocumentChanges)
        // `window.showMessage` named says `window/showMessageRequest` is answered, even as
        // `null` (lsp-mode's way); ALE names no `window`.
        for (window, answers) in [(["showMessage": ["messageActionItem": [:]]] as JSONValue, true), (["showMessage": nil], true),
                                  (["workDoneProgress": true], false)] {
            let read = try InitializeParams(params: ["capabilities": ["window": window]])
            XCTAssertEqual(read.supportsShowMessageRequest, answers, "\(window)")
        }
        XCTAssertFalse(bare.supportsShowMessageRequest)
        XCTAssertEqual(try MessageActionItem(params: ["title": "Merge tags"]), MessageActionItem(title: "Merge tags"))
        XCTAssertEqual(ShowMessageRequestParams(type: .warning, message: "Merge?", actions: [MessageActionItem(title: "Yes")]).json,
                       ["type": 2, "message": "Merge?", "actions": [["title": "Yes"]]])

        let refused: [(JSONValue?, String)] = [
            ("not an object", #"params: expected an object, got "not an object""#),
            (nil, "params: expected an object, got nothing"),
            (["capabilities": ["general": ["positionEncodings": [1]]]],
             "params.capabilities.general.positionEncodings[0]: expected a string, got 1"),
            (["workspaceFolders": [["uri": 1]]], "params.workspaceFolders[0].uri: expected a string, got 1"),
            (["processId": "42"], #"params.processId: expected an integer, got "42""#),
        ]
        for (params, message) in refused {
            XCTAssertThrowsError(try InitializeParams(params: params)) { error in
                XCTAssertEqual((error as? ResponseError)?.message, message)
            }
        }
    }

    /// `completionItem/resolve` answers the item with every member the client sent, as it sent
    /// them, whatever they are.
    func testACompletionItemComesBackWhole() throws {
        let sent = #"{"label":"Soil","kind":"not a kind","documentation":null,"data":{"root":"/n","path":"soil.md"},"x-client":{"k":[1,2]}}"#
        var item = try EchoedCompletionItem(params: json(sent))
        XCTAssertEqual(item.json, json(sent))
        XCTAssertFalse(item.hasDocumentation, "a null documentation is none")
        XCTAssertEqual(item.data, CompletionItemData(root: "/n", path: "soil.md"))
        item.setDocumentation(.markdown("**Soil**"))
        XCTAssertEqual(item.json, json(#"{"label":"Soil","kind":"not a kind","documentation":{"kind":"markdown","value":"**Soil**"},"data":{"root":"/n","path":"soil.md"},"x-client":{"k":[1,2]}}"#))
        XCTAssertTrue(try EchoedCompletionItem(params: json(#"{"label":"a","documentation":"plain"}"#)).hasDocumentation)
        XCTAssertTrue(try EchoedCompletionItem(params: json(#"{"label":"a","documentation":{"kind":"markdown","value":""}}"#)).hasDocumentation)
        XCTAssertNil(try EchoedCompletionItem(params: json("{}")).data)
        // The data MacMD wrote, read back; what a client changed beyond reading is no target.
        for (data, expected) in [
            (#"{"root":"/n","path":"a.md","uri":"file:///n/a.md","headingIndex":2,"heading":"Plan"}"#,
             CompletionItemData(root: "/n", path: "a.md", uri: "file:///n/a.md", anchor: .heading(index: 2, text: "Plan"))),
            (#"{"root":"/n","path":"a.md","block":"b1"}"#, CompletionItemData(root: "/n", path: "a.md", anchor: .block(id: "b1"))),
            (#"{"root":"/n","path":"a.md","heading":"Plan"}"#, CompletionItemData(root: "/n", path: "a.md", anchor: .heading(index: -1, text: "Plan"))),
            (#"{"root":"/n","path":7}"#, nil),
            (#"{"path":"a.md"}"#, nil),
            (#""a.md""#, nil),
        ] {
            XCTAssertEqual(try EchoedCompletionItem(params: json(#"{"label":"x","data":"# + data + "}")).data, expected, data)
            // Written back whole (a heading read without its index gets -1, written out).
            if let expected, data.contains("headingIndex") || !data.contains("heading") {
                XCTAssertEqual(expected.json, json(data), "written as read: \(data)")
            }
        }
        checkDecoding(EchoedCompletionItem.self, [
            ("{}", .value(EchoedCompletionItem(members: [:]))),
            ("[1]", .error("params: expected a completion item")),
            (nil, .error("params: expected a completion item")),
        ])
        // An item the server wrote comes back as the same item.
        let written = CompletionItem(label: "Soil", kind: .file, textEdit: TextEdit(range: range(0, 2, 4), newText: "Soil"),
                                     data: CompletionItemData(root: "/n", path: "soil.md"))
        XCTAssertEqual(try EchoedCompletionItem(params: written.json), EchoedCompletionItem(written))
    }

    /// What the client answers to the server's own requests.
    func testResponsesToTheServersRequests() throws {
        let configuration = try WorkspaceConfigurationRequest.Response(ParamReader(json(#"[{"previewTheme":"dark"},null]"#), path: "result"))
        XCTAssertEqual(configuration, [["previewTheme": "dark"], .null])
        XCTAssertThrowsError(try WorkspaceConfigurationRequest.Response(ParamReader(json("{}"), path: "result"))) { error in
            XCTAssertEqual((error as? ResponseError)?.message, "result: expected an array, got an object")
        }
        // Requests answered with nothing accept whatever comes.
        for answer in ["null", "{}", "[]"] {
            XCTAssertEqual(RegisterCapabilityRequest.Response(ParamReader(json(answer), path: "result")), NullResult())
        }
        XCTAssertEqual(try ShutdownRequest.Params(params: nil), NoParams())
        XCTAssertEqual(try InitializedNotification.Params(params: [:]), NoParams())
    }
}
