// The typing suite in each real client (TypingSuite.swift; the cases are
// Fixtures/editors/typing.json), and the table of it in docs/editors.md.

import Foundation
import TestSupport
import XCTest

final class TypingSuiteTests: XCTestCase {
    /// Types every case `client` supports and checks each buffer against the case's expectation.
    func check(_ client: TypingClient) throws {
        let cases = try TypingSuite.cases(for: client)
        let outcome = try TypingSuite.run(client)
        TypingSuite.keep(outcome, cases: cases)
        var passed = 0
        for item in cases {
            let expected = item.expected(for: client)
            guard let result = outcome.results[item.name], let text = result else {
                XCTFail("\(client.title): `\(item.name)` did not finish\n\(outcome.log)")
                continue
            }
            if text == expected { passed += 1 }
            let screen = outcome.screens[item.name] ?? ""
            XCTAssertEqual(text, expected, "\(client.title): \(item.name)\nkeys: \(item.keys)\nscreen:\n\(screen)")
            // Typing is quiet: no client chatter about the edits it applied (eglot echoed
            // `[eglot] applying 1 edits` at every trigger).
            for chatter in ["applying", "Applying", "Error", "error:", "E5108"] {
                XCTAssertFalse(screen.contains(chatter), "\(client.title): \(item.name): `\(chatter)` on the screen\n\(screen)")
            }
        }
        let skipped = (try TypingCase.all()).count - cases.count
        print("EditorTests: typed \(passed) of \(cases.count) cases key by key in \(client.title) (\(skipped) unsupported there, listed with the reason)")
    }

    func testTypingInNeovim07() throws { try check(.neovim07) }
    func testTypingInCurrentNeovim() throws { try check(.neovim) }
    func testTypingInVimWithALE() throws { try check(.vimALE) }
    func testTypingInEmacsWithEglot() throws { try check(.emacsEglot) }
    func testTypingInEmacsWithLSPMode() throws { try check(.emacsLSPMode) }

    /// docs/editors.md shows the suite as a table of cases × clients, generated from typing.json
    /// (`MACMD_BLESS=1` rewrites it).
    func testTheDocsTableIsTheSuite() throws {
        let url = TestPaths.packageRoot.appendingPathComponent("docs/editors.md")
        let doc = try String(contentsOf: url, encoding: .utf8)
        let table = TypingSuite.table(try TypingCase.all())
        guard let begin = doc.range(of: TypingSuite.tableBegin), let end = doc.range(of: TypingSuite.tableEnd),
              begin.upperBound <= end.lowerBound else {
            return XCTFail("docs/editors.md has no `\(TypingSuite.tableBegin)` … `\(TypingSuite.tableEnd)` section")
        }
        let current = String(doc[begin.upperBound..<end.lowerBound])
        let wanted = "\n" + table + "\n"
        if Golden.isBlessing {
            if current != wanted { try (doc.replacingCharacters(in: begin.upperBound..<end.lowerBound, with: wanted)).write(to: url, atomically: true, encoding: .utf8) }
            return
        }
        XCTAssertEqual(current, wanted, "docs/editors.md's typing table is not typing.json's; run the test with MACMD_BLESS=1")
    }

    /// The keys of the cases use only names every client knows.
    func testEveryKeyNameIsKnown() throws {
        let known: Set<String> = ["<CR>", "<BS>", "<Tab>", "<S-Tab>", "<Esc>", "<End>", "<Home>", "<Left>", "<Right>", "<Up>", "<Down>",
                                  "<lt>", "<Complete>", "<Wrap>"]
        for item in try TypingCase.all() {
            for token in item.tokens where token.count > 1 {
                XCTAssertTrue(known.contains(token), "\(item.name): unknown key \(token)")
            }
        }
    }
}
