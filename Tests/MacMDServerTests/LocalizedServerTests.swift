import JSON
import JSONRPC
import Localization
import TestSupport
import XCTest
@testable import MacMDServer

/// The server writes what people read in the writer's language, chosen at `initialize`
/// (`initializationOptions.locale` over the client's `locale`): error messages of responses,
/// the scan's `$/progress`, and the notice when a language is served by a substitute. Before
/// `initialize` there is no language yet: English.
final class LocalizedServerTests: XCTestCase {
    static let notebook: [String: String] = ["index.md": "# Home\n", "other.md": "# Other\n"]

    /// Initializes a client on `fixture` with the given `locale` and `initializationOptions`,
    /// showing progress; returns the client and the `$/progress` notifications of the scan.
    func start(on fixture: NotebookFixture, locale: String?, options: JSONValue? = nil) -> (LSPTestClient, [JSONValue]) {
        let client = LSPTestClient()
        var params: [String: JSONValue] = [
            "processId": .null, "rootUri": .null,
            "capabilities": ["window": ["workDoneProgress": true]],
            "workspaceFolders": [["uri": .string("file://" + fixture.root), "name": "notes"]],
        ]
        if let locale { params["locale"] = .string(locale) }
        if let options { params["initializationOptions"] = options }
        if case .failure(let error)? = client.request("initialize", .object(params)) { XCTFail("initialize failed: \(error.message)") }
        client.notify("initialized", [:])
        var progress: [JSONValue] = []
        while progress.last?["value"]?["kind"]?.stringValue != "end", let params = client.notification("$/progress") {
            progress.append(params)
        }
        return (client, progress)
    }

    /// The message of the error answering a hover whose position is a string.
    func invalidParamsMessage(_ client: LSPTestClient, _ fixture: NotebookFixture) -> String? {
        let result = client.request("textDocument/hover", ["textDocument": ["uri": .string(fixture.uri("index.md"))], "position": "top"])
        guard case .failure(let error)? = result else {
            XCTFail("expected an error, got \(String(describing: result))")
            return nil
        }
        XCTAssertEqual(error.code, ResponseError.invalidParams)
        return error.message
    }

    func testErrorsAndProgressAreInTheChosenLanguage() {
        let fixture = NotebookFixture(Self.notebook)
        defer { fixture.destroy() }

        // English by default: today's texts.
        let (english, englishProgress) = start(on: fixture, locale: nil)
        XCTAssertEqual(invalidParamsMessage(english, fixture), "params.position: expected an object, got \"top\"")
        XCTAssertEqual(englishProgress.first?["value"]?["title"]?.stringValue, "Indexing notes")
        XCTAssertEqual(englishProgress.first?["value"]?["message"]?.stringValue, "2 notes")
        XCTAssertEqual(englishProgress.last?["value"]?["message"]?.stringValue, "2 notes indexed")
        english.close()

        // German from `initializationOptions.locale`, which wins over the client's `locale`.
        let (german, germanProgress) = start(on: fixture, locale: "ja", options: ["locale": "de"])
        XCTAssertEqual(invalidParamsMessage(german, fixture), "params.position: erwartet wurde ein Objekt, erhalten: \"top\"")
        XCTAssertEqual(germanProgress.first?["value"]?["title"]?.stringValue, "Notizen werden indiziert")
        XCTAssertEqual(germanProgress.last?["value"]?["message"]?.stringValue, "2 Notizen indiziert")
        guard case .failure(let unknown)? = german.request("macmd/noSuchMethod", [:]) else { return XCTFail("expected an error") }
        XCTAssertEqual(unknown.message, "unbekannte Methode `macmd/noSuchMethod`")
        german.close()

        // Japanese from the client's `locale`.
        let (japanese, japaneseProgress) = start(on: fixture, locale: "ja-JP")
        XCTAssertEqual(invalidParamsMessage(japanese, fixture), "params.position: オブジェクト が必要です（受け取った値: \"top\"）")
        XCTAssertEqual(japaneseProgress.first?["value"]?["title"]?.stringValue, "ノートのインデックスを作成中")
        XCTAssertEqual(japaneseProgress.last?["value"]?["message"]?.stringValue, "2 件のノートをインデックスに登録しました")
        japanese.close()
    }

    /// A JSON error keeps its catalog message, so it can be written in any language; English is
    /// today's text.
    func testJSONAndResponseErrorsCarryTheirCatalogMessage() {
        do {
            _ = try JSON.parse("{\"a\": 1")
            XCTFail("an unterminated object parses")
        } catch {
            XCTAssertEqual(error.description, "unterminated object at byte 7")
            XCTAssertEqual(error.located.string(in: .de), "nicht abgeschlossenes Objekt bei Byte 7")
            XCTAssertEqual(error.located.string(in: .fr), "objet non fermé à l’octet 7")
        }
        let refusal = ResponseError(code: ResponseError.methodNotFound, text: LocalizedText("server.request.unknownMethod", "x/y"))
        XCTAssertEqual(refusal.message, "unknown method `x/y`")
        XCTAssertEqual(refusal.localized(in: .ja).message, "不明なメソッド `x/y`")
        XCTAssertEqual(refusal.localized(in: .ja).json["message"], "不明なメソッド `x/y`")
    }

    /// Before `initialize` there is no language: the refusal is English.
    func testARequestBeforeInitializeIsAnsweredInEnglish() {
        let client = LSPTestClient()
        defer { client.close() }
        guard case .failure(let error)? = client.request("textDocument/hover", [:]) else { return XCTFail("expected an error") }
        XCTAssertEqual(error.code, ResponseError.serverNotInitialized)
        XCTAssertEqual(error.message, "the server is not initialized: send `initialize` first")
    }

    /// Portuguese of Portugal is served in Brazilian Portuguese, and the writer is told so.
    func testPortugueseOfPortugalIsToldItGetsBrazilianPortuguese() {
        let fixture = NotebookFixture(Self.notebook)
        defer { fixture.destroy() }
        let (client, progress) = start(on: fixture, locale: "pt-PT")
        defer { client.close() }
        let expected = LocaleChoice.forServer(initializeLocale: "pt-PT", initializationOptionsLocale: nil)
        XCTAssertEqual(expected.locale, .ptBR)
        let shown = client.notification("window/showMessage")
        let message = shown?["message"]?.stringValue ?? ""
        XCTAssertEqual(message, expected.notice?.string(in: .ptBR))
        XCTAssertTrue(message.contains("Brasil"), message)
        XCTAssertEqual(progress.first?["value"]?["title"]?.stringValue, "Indexando notas")
    }
}
