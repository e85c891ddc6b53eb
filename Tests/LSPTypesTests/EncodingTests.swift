import LSPTypes
import XCTest

/// Writing results and server messages: the JSON a client receives, member for member, as the
/// server wrote it by hand before these types (absent members stay absent, nulls stay null).
final class EncodingTests: XCTestCase {
    let uri = "file:///n/soil.md"

    func testNavigationResults() {
        let location = Location(uri: uri, range: range(2, 0, 6))
        let locationJSON = #"{"uri":"file:///n/soil.md","range":\#(rangeJSON(2, 0, 6))}"#
        checkEncoding([
            (location, locationJSON),
            ([location] as [Location]?, "[\(locationJSON)]"),
            // No target under the cursor.
            (nil as [Location]?, "null"),
            ([] as [Location], "[]"),
            (Hover(contents: .markdown("**Soil** · `soil.md`"), range: range(1, 2, 10)),
             #"{"contents":{"kind":"markdown","value":"**Soil** · `soil.md`"},"range":\#(rangeJSON(1, 2, 10))}"#),
            (Hover(contents: MarkupContent(kind: .plainText, value: "x")), #"{"contents":{"kind":"plaintext","value":"x"}}"#),
            (nil as Hover?, "null"),
            (PrepareRenameResult(range: range(0, 2, 6), placeholder: "Soil"),
             #"{"range":\#(rangeJSON(0, 2, 6)),"placeholder":"Soil"}"#),
            (DocumentLink(range: range(4, 2, 8), target: "file:///n/loam.md"),
             #"{"range":\#(rangeJSON(4, 2, 8)),"target":"file:///n/loam.md"}"#),
        ])
    }

    func testWorkspaceEdits() {
        let edit = TextEdit(range: range(3, 2, 6), newText: "Loam")
        let editJSON = #"{"range":\#(rangeJSON(3, 2, 6)),"newText":"Loam"}"#
        checkEncoding([
            // A rename without file renames, or `willRenameFiles`: edits by URI.
            (WorkspaceEdit(changes: [uri: [edit], "file:///n/b.md": []]),
             #"{"changes":{"file:///n/soil.md":[\#(editJSON)],"file:///n/b.md":[]}}"#),
            // Nothing to change in `willRenameFiles`.
            (nil as WorkspaceEdit?, "null"),
            // Renaming a note renames its file; an open note's edits name its version, a closed one's `null`.
            (WorkspaceEdit(documentChanges: [
                .edit(TextDocumentEdit(textDocument: OptionalVersionedTextDocumentIdentifier(uri: uri, version: 7), edits: [edit])),
                .edit(TextDocumentEdit(textDocument: OptionalVersionedTextDocumentIdentifier(uri: "file:///n/b.md", version: nil),
                                       edits: [])),
                .rename(RenameFile(oldURI: uri, newURI: "file:///n/loam.md",
                                   options: RenameFileOptions(overwrite: false, ignoreIfExists: false))),
             ]),
             #"""
             {"documentChanges":[
               {"textDocument":{"uri":"file:///n/soil.md","version":7},"edits":[\#(editJSON)]},
               {"textDocument":{"uri":"file:///n/b.md","version":null},"edits":[]},
               {"kind":"rename","oldUri":"file:///n/soil.md","newUri":"file:///n/loam.md","options":{"overwrite":false,"ignoreIfExists":false}}]}
             """#),
            (DocumentChange.create(CreateFile(uri: uri)), #"{"kind":"create","uri":"file:///n/soil.md"}"#),
            (DocumentChange.delete(DeleteFile(uri: "file:///n/old", options: DeleteFileOptions(recursive: true))),
             #"{"kind":"delete","uri":"file:///n/old","options":{"recursive":true}}"#),
        ])
    }

    func testCodeActions() {
        let newNote = "file:///n/Greenhouse.md"
        checkEncoding([
            // Create the note a broken link names.
            (CodeAction(title: "Create note `Greenhouse.md`", kind: .quickFix, edit: WorkspaceEdit(documentChanges: [
                .create(CreateFile(uri: newNote, options: CreateFileOptions(overwrite: false, ignoreIfExists: true))),
                .edit(TextDocumentEdit(textDocument: OptionalVersionedTextDocumentIdentifier(uri: newNote, version: nil),
                                       edits: [TextEdit(range: range(0, 0, 0), newText: "# Greenhouse\n\n")])),
             ])),
             #"""
             {"title":"Create note `Greenhouse.md`","kind":"quickfix","edit":{"documentChanges":[
               {"kind":"create","uri":"file:///n/Greenhouse.md","options":{"overwrite":false,"ignoreIfExists":true}},
               {"textDocument":{"uri":"file:///n/Greenhouse.md","version":null},
                "edits":[{"range":\#(rangeJSON(0, 0, 0)),"newText":"# Greenhouse\n\n"}]}]}}
             """#),
            // Insert or update the table of contents.
            ([CodeAction(title: "Insert a table of contents", kind: .refactorRewrite,
                         edit: WorkspaceEdit(changes: [uri: [TextEdit(range: range(1, 0, 0), newText: "- [A](#a)\n")]]))],
             #"[{"title":"Insert a table of contents","kind":"refactor.rewrite","edit":{"changes":{"file:///n/soil.md":[{"range":\#(rangeJSON(1, 0, 0)),"newText":"- [A](#a)\n"}]}}}]"#),
            (CodeAction(title: "Fix", diagnostics: [Diagnostic(range: range(0, 0, 1), message: "m")], isPreferred: true),
             #"{"title":"Fix","diagnostics":[{"range":\#(rangeJSON(0, 0, 1)),"message":"m"}],"isPreferred":true}"#),
        ])
    }

    func testSymbolsAndFolding() {
        let child = DocumentSymbol(name: "Texture", detail: "", kind: .string, range: range(3, 0, 10),
                                   selectionRange: range(3, 3, 10), children: [])
        checkEncoding([
            (DocumentSymbol(name: "Soil", detail: "", kind: .string, range: range(0, 0, 6), selectionRange: range(0, 2, 6),
                            children: [child]),
             #"""
             {"name":"Soil","detail":"","kind":15,"range":\#(rangeJSON(0, 0, 6)),"selectionRange":\#(rangeJSON(0, 2, 6)),
              "children":[{"name":"Texture","detail":"","kind":15,"range":\#(rangeJSON(3, 0, 10)),
                           "selectionRange":\#(rangeJSON(3, 3, 10)),"children":[]}]}
             """#),
            (DocumentSymbol(name: "front matter", kind: .namespace, range: range(0, 0, 3), selectionRange: range(0, 0, 3)),
             #"{"name":"front matter","kind":3,"range":\#(rangeJSON(0, 0, 3)),"selectionRange":\#(rangeJSON(0, 0, 3))}"#),
            // A note: the location has no range.
            (WorkspaceSymbol(name: "Soil", kind: .file, containerName: "soil.md", uri: uri),
             #"{"name":"Soil","kind":1,"containerName":"soil.md","location":{"uri":"file:///n/soil.md"}}"#),
            (WorkspaceSymbol(name: "Texture", kind: .string, containerName: "Soil", uri: uri, range: range(3, 0, 10)),
             #"{"name":"Texture","kind":15,"containerName":"Soil","location":{"uri":"file:///n/soil.md","range":\#(rangeJSON(3, 0, 10))}}"#),
            (WorkspaceSymbol(name: "#garden", kind: .key, containerName: "3 uses", uri: uri),
             ##"{"name":"#garden","kind":20,"containerName":"3 uses","location":{"uri":"file:///n/soil.md"}}"##),
            (WorkspaceSymbol(name: "x", kind: .file, uri: uri), #"{"name":"x","kind":1,"location":{"uri":"file:///n/soil.md"}}"#),
            (FoldingRange(startLine: 0, endLine: 3, kind: .region), #"{"startLine":0,"endLine":3,"kind":"region"}"#),
            (FoldingRange(startLine: 5, startCharacter: 2, endLine: 9, endCharacter: 0),
             #"{"startLine":5,"startCharacter":2,"endLine":9,"endCharacter":0}"#),
        ])
    }

    func testCompletion() {
        let item = CompletionItem(label: "Soil", kind: .file, detail: "soil.md", documentation: .markdown("**Soil**"),
                                  sortText: "0001", filterText: "Soil",
                                  textEdit: TextEdit(range: range(0, 2, 4), newText: "Soil"),
                                  data: CompletionItemData(root: "/n", path: "soil.md"))
        checkEncoding([
            (CompletionList(isIncomplete: true, items: [item]),
             #"""
             {"isIncomplete":true,"items":[{"label":"Soil","kind":17,"detail":"soil.md",
               "documentation":{"kind":"markdown","value":"**Soil**"},"sortText":"0001","filterText":"Soil",
               "textEdit":{"range":\#(rangeJSON(0, 2, 4)),"newText":"Soil"},"data":{"root":"/n","path":"soil.md"}}]}
             """#),
            // Nothing to complete here.
            (CompletionList(isIncomplete: false, items: []), #"{"isIncomplete":false,"items":[]}"#),
            (CompletionItem(label: "#tag", kind: .keyword, insertText: "tag", insertTextFormat: .plainText),
             ##"{"label":"#tag","kind":14,"insertText":"tag","insertTextFormat":1}"##),
        ])
    }

    func testDiagnostics() {
        let broken = Diagnostic(range: range(4, 2, 12), severity: .warning, code: "ambiguous-link", source: "macmd",
                                message: "`[[Soil]]` names 2 notes",
                                relatedInformation: [DiagnosticRelatedInformation(
                                    location: Location(uri: "file:///n/a/Soil.md", range: range(0, 0, 0)),
                                    message: "candidate: a/Soil.md")])
        let brokenJSON = #"""
        {"range":\#(rangeJSON(4, 2, 12)),"severity":2,"code":"ambiguous-link","source":"macmd","message":"`[[Soil]]` names 2 notes",
         "relatedInformation":[{"location":{"uri":"file:///n/a/Soil.md","range":\#(rangeJSON(0, 0, 0))},"message":"candidate: a/Soil.md"}]}
        """#
        let unused = Diagnostic(range: range(9, 0, 20), severity: .hint, code: "unused-definition", source: "macmd",
                                message: "unused", tags: [.unnecessary])
        let unusedJSON = #"{"range":\#(rangeJSON(9, 0, 20)),"severity":4,"code":"unused-definition","source":"macmd","message":"unused","tags":[1]}"#
        checkEncoding([
            (broken, brokenJSON),
            (unused, unusedJSON),
            // No tags, no related information: the members are left out, not empty.
            (Diagnostic(range: range(0, 0, 1), severity: .error, code: "c", source: "macmd", message: "m"),
             #"{"range":\#(rangeJSON(0, 0, 1)),"severity":1,"code":"c","source":"macmd","message":"m"}"#),
            (PublishDiagnosticsParams(uri: uri, version: 3, diagnostics: [unused]),
             #"{"uri":"file:///n/soil.md","version":3,"diagnostics":[\#(unusedJSON)]}"#),
            // Clearing a closed note's diagnostics: no version.
            (PublishDiagnosticsParams(uri: uri, diagnostics: []), #"{"uri":"file:///n/soil.md","diagnostics":[]}"#),
            (FullDocumentDiagnosticReport(items: [broken]), #"{"kind":"full","items":[\#(brokenJSON)]}"#),
            (FullDocumentDiagnosticReport(resultID: "7", items: []), #"{"kind":"full","resultId":"7","items":[]}"#),
            (WorkspaceDiagnosticReport(items: [
                WorkspaceFullDocumentDiagnosticReport(uri: uri, version: 2, report: FullDocumentDiagnosticReport(items: [unused])),
                WorkspaceFullDocumentDiagnosticReport(uri: "file:///n/b.md", version: nil, report: FullDocumentDiagnosticReport(items: [])),
             ]),
             #"""
             {"items":[{"kind":"full","uri":"file:///n/soil.md","version":2,"items":[\#(unusedJSON)]},
                       {"kind":"full","uri":"file:///n/b.md","version":null,"items":[]}]}
             """#),
        ])
    }

    func testServerRequestsAndNotifications() {
        checkEncoding([
            (RegistrationParams(registrations: [Registration(
                id: "macmd-configuration", DidChangeConfigurationNotification.self,
                registerOptions: DidChangeConfigurationRegistrationOptions(section: "macmd"))]),
             #"{"registrations":[{"id":"macmd-configuration","method":"workspace/didChangeConfiguration","registerOptions":{"section":"macmd"}}]}"#),
            (RegistrationParams(registrations: [Registration(
                id: "macmd-watched-files", DidChangeWatchedFilesNotification.self,
                registerOptions: DidChangeWatchedFilesRegistrationOptions(watchers: [
                    FileSystemWatcher(globPattern: "**/*.{md,png}"), FileSystemWatcher(globPattern: "**/"),
                    FileSystemWatcher(globPattern: "**/.gitignore"), FileSystemWatcher(globPattern: "**/.macmd.json"),
                ]))]),
             #"""
             {"registrations":[{"id":"macmd-watched-files","method":"workspace/didChangeWatchedFiles",
               "registerOptions":{"watchers":[{"globPattern":"**/*.{md,png}"},{"globPattern":"**/"},
                                              {"globPattern":"**/.gitignore"},{"globPattern":"**/.macmd.json"}]}}]}
             """#),
            (Registration(id: "r", method: "m"), #"{"id":"r","method":"m"}"#),
            (FileSystemWatcher(globPattern: "**/*.md", kind: [.create, .delete]), #"{"globPattern":"**/*.md","kind":5}"#),
            (ConfigurationParams(items: [ConfigurationItem(section: "macmd")]), #"{"items":[{"section":"macmd"}]}"#),
            (ConfigurationItem(scopeURI: uri), #"{"scopeUri":"file:///n/soil.md"}"#),
            (WorkDoneProgressCreateParams(token: "macmd-index-/n"), #"{"token":"macmd-index-/n"}"#),
            (WorkDoneProgressCreateParams(token: 3), #"{"token":3}"#),
            // As the server sends it today: `"params": null`.
            (NoParams(), "null"),
            (ProgressParams(token: "macmd-index-/n", value: .begin(WorkDoneProgressBegin(
                title: "Indexing notes", cancellable: false, message: "120 notes", percentage: 0))),
             #"{"token":"macmd-index-/n","value":{"kind":"begin","title":"Indexing notes","message":"120 notes","percentage":0,"cancellable":false}}"#),
            (ProgressParams(token: "t", value: .report(WorkDoneProgressReport(message: "60/120 notes", percentage: 50))),
             #"{"token":"t","value":{"kind":"report","message":"60/120 notes","percentage":50}}"#),
            (ProgressParams(token: "t", value: .end(WorkDoneProgressEnd(message: "120 notes indexed"))),
             #"{"token":"t","value":{"kind":"end","message":"120 notes indexed"}}"#),
            (WorkDoneProgress.end(WorkDoneProgressEnd()), #"{"kind":"end"}"#),
            (LogMessageParams(type: .warning, message: "configuration: unknown key"),
             #"{"type":2,"message":"configuration: unknown key"}"#),
            (ShowMessageParams(type: .error, message: "x"), #"{"type":1,"message":"x"}"#),
        ])
    }

    func testLifecycleAndPreview() {
        checkEncoding([
            (InitializeResult(capabilities: ["textDocumentSync": ["openClose": true, "change": TextDocumentSyncKind.incremental.json]],
                              serverInfo: ServerInfo(name: "macmd", version: "0.4.0")),
             #"{"capabilities":{"textDocumentSync":{"openClose":true,"change":2}},"serverInfo":{"name":"macmd","version":"0.4.0"}}"#),
            (InitializeResult(capabilities: [:]), #"{"capabilities":{}}"#),
            (NullResult(), "null"),
            (PreviewResult(uri: uri, version: nil, title: "Soil", headings: [PreviewHeading(level: 1, text: "Soil", id: "soil", line: 0)],
                           wordCount: 120, characterCount: 700, readingTimeMinutes: 1, resources: ["file:///n/img/a%20b.png"]),
             #"""
             {"uri":"file:///n/soil.md","version":null,"title":"Soil","headings":[{"level":1,"text":"Soil","id":"soil","line":0}],
              "wordCount":120,"characterCount":700,"readingTimeMinutes":1,"resources":["file:///n/img/a%20b.png"]}
             """#),
            (PreviewResult(uri: uri, version: 4, title: "", headings: [], wordCount: 0, characterCount: 0, readingTimeMinutes: 0),
             #"{"uri":"file:///n/soil.md","version":4,"title":"","headings":[],"wordCount":0,"characterCount":0,"readingTimeMinutes":0,"resources":[]}"#),
        ])
    }

    /// The `workspace.fileOperations` filters of the server's capabilities, typed.
    func testFileOperationFilters() {
        let notes = FileOperationFilter(pattern: FileOperationPattern(glob: "**/*.{md,markdown}", matches: .file,
                                                                      options: FileOperationPatternOptions(ignoreCase: true)))
        let folders = FileOperationFilter(pattern: FileOperationPattern(glob: "**", matches: .folder))
        checkEncoding([
            (FileOperationRegistrationOptions(filters: [notes, folders]),
             #"""
             {"filters":[{"pattern":{"glob":"**/*.{md,markdown}","matches":"file","options":{"ignoreCase":true}}},
                         {"pattern":{"glob":"**","matches":"folder"}}]}
             """#),
            (FileOperationFilter(scheme: "file", pattern: FileOperationPattern(glob: "**")), #"{"scheme":"file","pattern":{"glob":"**"}}"#),
        ])
    }
}
