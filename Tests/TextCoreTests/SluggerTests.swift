// Table-driven tests of Slugger against github-slugger's behaviour.

import XCTest
@testable import TextCore

final class SluggerTests: XCTestCase {
    func testSlugs() {
        let cases: [(text: String, slug: String)] = [
            ("Hello World", "hello-world"),
            ("Hello, World!", "hello-world"),
            ("  spaced  out ", "--spaced--out-"),
            ("snake_case and kebab-case", "snake_case-and-kebab-case"),
            ("C++ & Objective-C", "c--objective-c"),
            ("Version 2.0 (beta)", "version-20-beta"),
            ("Café au lait", "café-au-lait"),
            ("ÜBER Straße", "über-straße"),
            ("日本語の見出し", "日本語の見出し"),
            ("Привет, мир", "привет-мир"),
            ("مرحبا بالعالم", "مرحبا-بالعالم"),
            ("हिन्दी शीर्षक", "हिन्दी-शीर्षक"),  // combining marks are kept
            ("🎉 Party time 🎉", "-party-time-"),
            ("em—dash – en dash", "emdash--en-dash"),
            ("“Quotes” and ‘apostrophes’", "quotes-and-apostrophes"),
            ("Tab\there", "tabhere"),
            ("non\u{00A0}breaking", "nonbreaking"),
            ("½ cup of ² and ①", "-cup-of--and-"),     // other numbers are dropped
            ("Ⅻ and ٣ and ０", "ⅻ-and-٣-and-０"),   // letter and decimal numbers are kept
            ("Ⓐ plan", "ⓐ-plan"),                  // an alphabetic symbol is kept
            ("I ♥ unicode", "i--unicode"),
            ("exchange.bind_headers(exchange, routing [, cb])", "exchangebind_headersexchange-routing--cb"),
            ("__proto__", "__proto__"),
            ("apostrophe’s", "apostrophes"),
            ("$x^2$ math", "x2-math"),
            ("", ""),
            ("!!!", ""),
        ]
        for c in cases {
            XCTAssertEqual(Slugger.slug(for: c.text), c.slug, "slug of \(c.text.debugDescription)")
        }
    }

    func testRepeatsGetNumberedSuffixes() {
        let cases: [(texts: [String], slugs: [String])] = [
            (["Intro", "Intro", "Intro"], ["intro", "intro-1", "intro-2"]),
            (["a", "a", "a-1"], ["a", "a-1", "a-1-1"]),
            (["a-1", "a", "a"], ["a-1", "a", "a-2"]),
            (["Notes", "notes", "NOTES!"], ["notes", "notes-1", "notes-2"]),
            (["echo", "echo", "echo 1", "echo-1", "echo"], ["echo", "echo-1", "echo-1-1", "echo-1-2", "echo-2"]),
            (["", "", "?"], ["", "-1", "-2"]),
        ]
        for c in cases {
            var slugger = Slugger()
            XCTAssertEqual(c.texts.map { slugger.slug(for: $0) }, c.slugs, "\(c.texts)")
        }
    }

    func testResetForgetsSlugs() {
        var slugger = Slugger()
        XCTAssertEqual(slugger.slug(for: "Same"), "same")
        slugger.reset()
        XCTAssertEqual(slugger.slug(for: "Same"), "same")
    }
}

/// The slugger's fast paths for non-ASCII headings agree with the Unicode rules they stand for.
final class SluggerFastPathTests: XCTestCase {
    func testRangesAgreeWithTheProperties() {
        for v in UInt32(0)...0xFFFF {
            guard let scalar = Unicode.Scalar(v), scalar.properties.generalCategory != .unassigned else { continue }
            if !Slugger.mayChangeWhenLowercased(v) {
                XCTAssertFalse(scalar.properties.changesWhenLowercased, String(v, radix: 16))
            }
            if let kept = Slugger.keptByRange(v) {
                XCTAssertEqual(kept, Slugger.isKept(scalar), String(v, radix: 16))
            }
        }
    }

    func testNonASCIISlugsEqualTheGeneralRule() {
        for text in ["Привет, мир!", "ΚΑΛΗΜΕΡΑ κόσμε", "مرحبا بالعالم؟", "नमस्ते दुनिया।", "ひらがな・カタカナ", "漢字の見出し",
                     "한국어 제목", "Ünïcödé Ça va", "Ⓐ circled ½ ² 🎉", "İstanbul ǅ"] {
            var expected = String.UnicodeScalarView()
            for scalar in Slugger.lowercased(text).unicodeScalars {
                if scalar == " " { expected.append("-") } else if Slugger.isKept(scalar) { expected.append(scalar) }
            }
            XCTAssertEqual(Slugger.slug(for: text), String(expected), text)
        }
    }

    /// Random mixes of ASCII, caseless scripts, cased letters, marks, symbols and astral
    /// scalars: the byte path (or its refusal) always gives the definition's slug.
    func testBytePathEqualsTheDefinitionOnRandomText() {
        let pieces = ["a", "Z", "9", " ", "-", "_", ".", "!", "é", "É", "я", "Я", "λ", "Σ", "ς", "م", "ह", "ा", "।", "ひ", "カ",
                      "・", "漢", "한", "\u{301}", "½", "Ⓐ", "🎉", "𝒜", "，", "ǅ", "İ"]
        var state: UInt64 = 20261123
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<2000 {
            let text = (0..<next(12)).map { _ in pieces[next(pieces.count)] }.joined()
            var expected = String.UnicodeScalarView()
            for scalar in Slugger.lowercased(text).unicodeScalars {
                if scalar == " " { expected.append("-") } else if Slugger.isKept(scalar) { expected.append(scalar) }
            }
            XCTAssertEqual(Slugger.slug(for: text), String(expected), text)
            XCTAssertEqual(Slugger.generalSlug(text), String(expected), text)
        }
    }

    /// Past the short list the counts move to a table: numbering goes on exactly as before.
    func testManyRepeatsNumberAsGithubSlugger() {
        var slugger = Slugger()
        var reference: [String: Int] = [:]
        for index in 0..<300 {
            let text = ["Intro", "Notes", "a-1", "a", "Notes 1", "x\(index % 37)"][index % 6]
            let base = Slugger.slug(for: text)
            var expected = base
            while reference[expected] != nil {
                reference[base, default: 0] += 1
                expected = base + "-" + String(reference[base] ?? 0)
            }
            reference[expected] = 0
            XCTAssertEqual(slugger.slug(for: text), expected, "heading \(index): \(text)")
        }
    }
}
