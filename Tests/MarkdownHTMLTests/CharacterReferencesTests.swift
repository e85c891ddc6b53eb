import XCTest
import MarkdownSyntax

final class CharacterReferencesTests: XCTestCase {
    func decode(_ text: String) -> String {
        String(decoding: CharacterReferences.decoded(Array(text.utf8)[...]), as: UTF8.self)
    }

    func testNamedReferences() {
        XCTAssertEqual(decode("&amp; &copy; &AElig; &Dcaron; &frac34; &HilbertSpace; &ngE; &zwnj;"),
                       "& © Æ Ď ¾ ℋ ≧̸ \u{200C}")
        // A name must end with `;` and be known; otherwise the `&` stays.
        XCTAssertEqual(decode("&copy &MadeUpEntity; &; &x;"), "&copy &MadeUpEntity; &; &x;")
    }

    func testNumericReferences() {
        XCTAssertEqual(decode("&#35; &#1234; &#992; &#0; &#X22; &#XD06; &#xcab;"), "# Ӓ Ϡ \u{FFFD} \" ആ ಫ")
        XCTAssertEqual(decode("&#87654321; &#abcdef0; &#xD800; &#x110000;"), "&#87654321; &#abcdef0; \u{FFFD} \u{FFFD}")
        XCTAssertEqual(decode("&#1234567; &#x1234567;"), "\u{FFFD} &#x1234567;")
    }

    func testBackslashEscapes() {
        XCTAssertEqual(decode(#"\*not emphasized\* \\ \a \é \&amp;"#), #"*not emphasized* \ \a \é &amp;"#)
    }

    func testEntitiesOnlyKeepsBackslashes() {
        var output: [UInt8] = []
        CharacterReferences.decodeEntities(Array(#"a\*&amp;"#.utf8)[...], into: &output)
        XCTAssertEqual(String(decoding: output, as: UTF8.self), #"a\*&"#)
    }

    func testMatchReferenceReportsLength() {
        let bytes = Array("x&ouml;y".utf8)
        var output: [UInt8] = []
        let length = bytes.withUnsafeBufferPointer { CharacterReferences.matchReference($0, at: 1, into: &output) }
        XCTAssertEqual(length, 6)
        XCTAssertEqual(output, Array("ö".utf8))
    }

    func testTruncatedInputNeverTraps() {
        for text in ["&", "&#", "&#x", "&#x;", "&a", "\\", "&amp", String(repeating: "a", count: 40) + ";"] {
            _ = decode("&" + text)
            _ = decode(text)
        }
    }
}
