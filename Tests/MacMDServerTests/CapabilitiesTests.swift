import JSON
import LSPTypes
import NotebookWorkspace
import TestSupport
import XCTest
@testable import MacMDServer

/// What `initialize` advertises comes from the server's registry of handlers: a client is told
/// of every request the server answers, and of nothing it does not.
final class CapabilitiesTests: XCTestCase {
    /// LSP 3.17 pairs each capability with the messages it announces (a provider, or one member
    /// of it). A capability is advertised exactly when all its messages have handlers.
    static let announced: [(path: [String], methods: [String])] = [
        (["textDocumentSync", "openClose"], [DidOpenTextDocumentNotification.method, DidCloseTextDocumentNotification.method]),
        (["textDocumentSync", "change"], [DidChangeTextDocumentNotification.method]),
        (["textDocumentSync", "save"], [DidSaveTextDocumentNotification.method]),
        (["definitionProvider"], [DefinitionRequest.method]),
        (["referencesProvider"], [ReferencesRequest.method]),
        (["hoverProvider"], [HoverRequest.method]),
        (["renameProvider"], [RenameRequest.method]),
        (["renameProvider", "prepareProvider"], [PrepareRenameRequest.method]),
        (["documentLinkProvider"], [DocumentLinkRequest.method]),
        (["documentSymbolProvider"], [DocumentSymbolRequest.method]),
        (["foldingRangeProvider"], [FoldingRangeRequest.method]),
        (["workspaceSymbolProvider"], [WorkspaceSymbolRequest.method]),
        (["codeActionProvider"], [CodeActionRequest.method]),
        (["codeActionProvider", "resolveProvider"], [CodeActionResolveRequest.method]),
        (["completionProvider"], [CompletionRequest.method]),
        (["completionProvider", "resolveProvider"], [CompletionItemResolveRequest.method]),
        (["diagnosticProvider"], [DocumentDiagnosticRequest.method]),
        (["diagnosticProvider", "workspaceDiagnostics"], [WorkspaceDiagnosticRequest.method]),
        (["workspace", "workspaceFolders", "changeNotifications"], [DidChangeWorkspaceFoldersNotification.method]),
        (["workspace", "fileOperations", "didCreate"], [DidCreateFilesNotification.method]),
        (["workspace", "fileOperations", "didDelete"], [DidDeleteFilesNotification.method]),
        (["workspace", "fileOperations", "didRename"], [DidRenameFilesNotification.method]),
        (["workspace", "fileOperations", "willRename"], [WillRenameFilesRequest.method]),
        (["experimental", "macmd", "preview"], [MacMDPreviewRequest.method]),
        (["experimental", "macmd", "pairs"], [MacMDPairsRequest.method]),
        (["experimental", "macmd", "unlinkedMentions"], [MacMDUnlinkedMentionsRequest.method]),
        (["experimental", "macmd", "statistics"], [MacMDStatisticsRequest.method]),
        (["experimental", "macmd", "search"], [MacMDSearchRequest.method]),
        (["documentFormattingProvider"], [DocumentFormattingRequest.method]),
        (["documentRangeFormattingProvider"], [DocumentRangeFormattingRequest.method]),
        (["documentOnTypeFormattingProvider"], [DocumentOnTypeFormattingRequest.method]),
        (["documentHighlightProvider"], [DocumentHighlightRequest.method]),
        (["selectionRangeProvider"], [SelectionRangeRequest.method]),
        (["codeLensProvider"], [CodeLensRequest.method, CodeLensResolveRequest.method]),
        (["semanticTokensProvider"], [SemanticTokensFullRequest.method, SemanticTokensRangeRequest.method]),
        (["semanticTokensProvider", "full"], [SemanticTokensFullRequest.method]),
        (["semanticTokensProvider", "range"], [SemanticTokensRangeRequest.method]),
        (["callHierarchyProvider"], [CallHierarchyPrepareRequest.method, CallHierarchyIncomingCallsRequest.method,
                                     CallHierarchyOutgoingCallsRequest.method]),
    ]

    /// The provider keys that take `true` or an options object, and the members of options
    /// objects that are settings rather than announcements (they are checked by value below).
    static let settings: Set<String> = ["triggerCharacters", "identifier", "interFileDependencies", "codeActionKinds",
                                        "supported", "filters", "includeText", "firstTriggerCharacter", "moreTriggerCharacter"]

    func value(_ json: JSONValue?, at path: [String]) -> JSONValue? {
        path.reduce(json) { $0?[$1] }
    }

    /// Every path to a leaf of a capabilities object (an empty object has none).
    func leaves(_ json: JSONValue, _ prefix: [String] = []) -> [[String]] {
        guard case .object(let members) = json else { return [prefix] }
        return members.sorted { $0.key < $1.key }.flatMap { leaves($0.value, prefix + [$0.key]) }
    }

    func testInitializeAdvertisesWhatTheRegistryHandlesAndNothingElse() throws {
        let client = LSPTestClient()
        defer { client.close() }
        let capabilities = try XCTUnwrap(client.initialize()?["capabilities"])
        let registered = Set(Server.registry.methods)

        // Each handler's own capabilities are in the answer, as the registry gives them.
        for (capability, _) in Server.registry.capabilities {
            let advertised = try XCTUnwrap(value(capabilities, at: capability.path), "\(capability.path) is not advertised")
            for leaf in leaves(capability.value) {
                XCTAssertEqual(value(advertised, at: leaf), value(capability.value, at: leaf), "\(capability.path + leaf)")
            }
        }
        // A capability is there exactly when its messages are handled.
        for (path, methods) in CapabilitiesTests.announced {
            let handled = methods.allSatisfy(registered.contains)
            let advertised = value(capabilities, at: path).map { $0 != .bool(false) && !$0.isNull } ?? false
            XCTAssertEqual(advertised, handled, "\(path.joined(separator: ".")) advertised: \(advertised), \(methods) handled: \(handled)")
        }
        // Nothing is advertised that announces no handled message: every leaf is an
        // announcement above or inside one, a setting beside one, or the negotiated encoding.
        for leaf in leaves(capabilities) where leaf != ["positionEncoding"] {
            let known = CapabilitiesTests.announced.contains { announcement in
                leaf.starts(with: announcement.path)
                    || (CapabilitiesTests.settings.contains(leaf.last ?? "") && Array(leaf.dropLast()) == Array(announcement.path.dropLast()))
            }
            XCTAssertTrue(known, "\(leaf.joined(separator: ".")) is advertised but announces no handled message")
        }
    }

    func testEveryTypedClientMessageIsRegisteredAndAnswered() {
        let registered = Set(Server.registry.methods)
        for request in LSPMessages.clientRequests {
            XCTAssertTrue(registered.contains(request.method), "no handler for \(request.method)")
        }
        for notification in LSPMessages.clientNotifications {
            XCTAssertTrue(registered.contains(notification.method), "no handler for \(notification.method)")
        }
        // A method the registry does not have is answered "method not found".
        let client = LSPTestClient()
        defer { client.close() }
        client.initialize()
        XCTAssertEqual(client.request("textDocument/inlineValue", ["textDocument": ["uri": "file:///x.md"]])?.errorCode, -32601)
    }
}

/// `features` in the editor's settings switch features off: not announced, refused when asked,
/// and nothing pushed for diagnostics; the rest works as before.
final class FeatureSwitchTests: XCTestCase {
    func testASwitchedOffFeatureIsNeitherAnnouncedNorAnswered() throws {
        let fixture = NotebookFixture("""
            //- /index.md
            See [[so$0il]] and [[nowhere]].
            //- /soil.md
            # Soil
            """)
        defer { fixture.destroy() }
        let client = LSPTestClient.started(on: fixture, initializationOptions: ["features": ["hover": false, "completion": false,
                                                                                              "diagnostics": false, "preview": true]])
        defer { client.close() }
        let capabilities = try XCTUnwrap(client.initializeResult?["capabilities"])
        XCTAssertNil(capabilities["hoverProvider"])
        XCTAssertNil(capabilities["completionProvider"])
        XCTAssertNil(capabilities["diagnosticProvider"])
        XCTAssertEqual(capabilities["definitionProvider"], true)
        XCTAssertEqual(capabilities["experimental"]?["macmd"]?["preview"], true)
        XCTAssertEqual(Set(Server.registry.features.values), Set(EditorFeature.allCases), "every feature switches something off")

        client.open(fixture, "index.md")
        let place: JSONValue = ["textDocument": ["uri": .string(fixture.uri("index.md"))],
                                "position": ["line": 0, "character": .int(Int64(fixture.fixture.cursor?.utf8Offset ?? 0))]]
        guard case .failure(let refused)? = client.request("textDocument/hover", place) else { return XCTFail("hover answered") }
        XCTAssertEqual(refused.code, -32601)
        XCTAssertEqual(refused.message, "`textDocument/hover` is switched off in the editor's settings (`features.hover`)")
        guard case .success(let definition)? = client.request("textDocument/definition", place) else { return XCTFail("no definition") }
        XCTAssertEqual(definition.arrayValue?.first?["uri"]?.stringValue, fixture.uri("soil.md"), "the rest still works")
        // The broken `[[nowhere]]` is not pushed: once the server has settled, a request's answer
        // comes after anything it pushed, and nothing was.
        client.server.settle()
        _ = client.request("textDocument/definition", place)
        XCTAssertFalse(client.received.contains { message in
            if case .notification("textDocument/publishDiagnostics", _) = message { return true }
            return false
        })
    }

    /// A notebook's `.macmd.json` cannot switch features off: they are the editor's.
    func testANotebookCannotSwitchFeatures() {
        var configuration = NotebookConfiguration(layers: [ConfigurationLayer(source: ".macmd.json", value: ["features": ["hover": false]],
                                                                              isNotebookFile: true)])
        XCTAssertEqual(configuration.disabledFeatures, [])
        XCTAssertEqual(configuration.problems.map(\.reason.english).count, 1)
        configuration = NotebookConfiguration(layers: [ConfigurationLayer(source: "initializationOptions",
                                                                          value: ["features": ["hover": false, "nope": false, "pairs": "no"]])])
        XCTAssertEqual(configuration.disabledFeatures, [.hover])
        XCTAssertEqual(configuration.problems.map(\.reason.english),
                       ["unknown key `features.nope` ignored", "`features.pairs`: expected `true` or `false`, got \"no\""])
    }
}
