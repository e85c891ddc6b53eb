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
            ("½ cup of ²", "½-cup-of-²"),
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
