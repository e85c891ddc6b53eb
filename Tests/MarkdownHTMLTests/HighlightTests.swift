// Table tests of `CodeHighlighter`: input -> expected HTML per language, written in a shorthand
// where `«k:let»` stands for `<span class="hl-keyword">let</span>` (k keyword, s string,
// c comment, n number, t type, l literal, f function, m meta, g tag, a attr, v variable).
// Set MACMD_PRINT_HIGHLIGHT=1 to print the actual output of every case in the shorthand.

import Foundation
import XCTest
@testable import MarkdownHTML

final class HighlightTests: XCTestCase {
    static let classes: [(String, String)] = [
        ("k", "keyword"), ("s", "string"), ("c", "comment"), ("n", "number"), ("t", "type"), ("l", "literal"),
        ("f", "function"), ("m", "meta"), ("g", "tag"), ("a", "attr"), ("v", "variable"),
    ]

    /// `«k:let»` -> `<span class="hl-keyword">let</span>`.
    static func expand(_ shorthand: String) -> String {
        var result = shorthand
        for (letter, name) in classes {
            result = result.replacingOccurrences(of: "«\(letter):", with: "<span class=\"hl-\(name)\">")
        }
        return result.replacingOccurrences(of: "»", with: "</span>")
    }

    /// The reverse of `expand`, for printing actual output.
    static func shorten(_ html: String) -> String {
        var result = html
        for (letter, name) in classes {
            result = result.replacingOccurrences(of: "<span class=\"hl-\(name)\">", with: "«\(letter):")
        }
        return result.replacingOccurrences(of: "</span>", with: "»")
    }

    func check(_ language: String, _ cases: [(String, String)], file: StaticString = #filePath, line: UInt = #line) {
        guard let parsed = CodeHighlighter.language(named: language) else {
            XCTFail("unknown language \(language)", file: file, line: line)
            return
        }
        for (input, expected) in cases {
            let actual = CodeHighlighter.highlight(Array(input.utf8), as: parsed)
            if ProcessInfo.processInfo.environment["MACMD_PRINT_HIGHLIGHT"] != nil {
                print("[\(language)] \(input.debugDescription)\n    -> \(HighlightTests.shorten(actual).debugDescription)")
            }
            XCTAssertEqual(actual, HighlightTests.expand(expected), "\(language): \(input.debugDescription)", file: file, line: line)
        }
    }

    // MARK: Languages

    func testSwift() {
        check("swift", [
            ("let x = 42", "«k:let» x = «n:42»"),
            ("func greet(_ name: String) -> String { \"Hi \\(name)\" }",
             "«k:func» «f:greet»(_ name: «t:String») -&gt; «t:String» { «s:&quot;Hi \\(name)&quot;» }"),
            ("// note\n/* a /* nested */ still */ x", "«c:// note»\n«c:/* a /* nested */ still */» x"),
            ("@MainActor final class A {}", "«m:@MainActor» «k:final» «k:class» «t:A» {}"),
            ("#if DEBUG\nprint(1...3, 0x1F, 1_000.5e-3)\n#endif",
             "«m:#if» «t:DEBUG»\n«f:print»(«n:1»...«n:3», «n:0x1F», «n:1_000.5e-3»)\n«m:#endif»"),
            ("let s = \"\"\"\n  a \"quoted\" line\n  \"\"\"", "«k:let» s = «s:&quot;&quot;&quot;\n  a &quot;quoted&quot; line\n  &quot;&quot;&quot;»"),
            ("#\"raw \\n\"# nil true", "«s:#&quot;raw \\n&quot;#» «l:nil» «l:true»"),
            ("t.0 < y && a != b", "t.«n:0» &lt; y &amp;&amp; a != b"),
        ])
    }

    func testPython() {
        check("py", [
            ("def f(x):\n    return None  # done", "«k:def» «f:f»(x):\n    «k:return» «l:None»  «c:# done»"),
            ("@property\nclass A(Base): pass", "«m:@property»\n«k:class» «t:A»(«t:Base»): «k:pass»"),
            ("s = f'{x}' + r\"\\d\" + b'\\x00'", "s = «s:f'{x}'» + «s:r&quot;\\d&quot;» + «s:b'\\x00'»"),
            ("'''doc\nstring'''", "«s:'''doc\nstring'''»"),
            ("print(len([1, 2.5, 3j]), True)", "«f:print»(«f:len»([«n:1», «n:2.5», «n:3j»]), «l:True»)"),
        ])
    }

    func testJavaScriptAndTypeScript() {
        check("js", [
            ("const $el = document.querySelector('#a');", "«k:const» $el = document.«f:querySelector»(«s:'#a'»);"),
            ("let t = `line ${x}\nnext`; // c", "«k:let» t = «s:`line ${x}\nnext`»; «c:// c»"),
            ("if (a === null) throw new Error(\"x\")",
             "«k:if» (a === «l:null») «k:throw» «k:new» «t:Error»(«s:&quot;x&quot;»)"),
        ])
        check("ts", [
            ("interface P { name: string; age?: number }",
             "«k:interface» «t:P» { name: «t:string»; age?: «t:number» }"),
            ("@Component() export type Id = string | undefined",
             "«m:@Component»() «k:export» «k:type» «t:Id» = «t:string» | «l:undefined»"),
        ])
    }

    func testJSON() {
        check("json", [
            ("{\"name\": \"macmd\", \"n\": -1.5e3, \"ok\": true, \"x\": null}",
             "{«a:&quot;name&quot;»: «s:&quot;macmd&quot;», «a:&quot;n&quot;»: «n:-1.5e3», «a:&quot;ok&quot;»: «l:true», «a:&quot;x&quot;»: «l:null»}"),
            ("[\"a\\\"b\", 0]", "[«s:&quot;a\\&quot;b&quot;», «n:0»]"),
        ])
    }

    func testShell() {
        check("bash", [
            ("echo \"$HOME\" ${PATH} $1 # comment", "«f:echo» «s:&quot;$HOME&quot;» «v:${PATH}» «v:$1» «c:# comment»"),
            ("if [ -f file-2.txt ]; then exit 1; fi", "«k:if» [ -f file-2.txt ]; «k:then» «f:exit» «n:1»; «k:fi»"),
            ("x=$# a#b 'it''s'", "x=«v:$#» a#b «s:'it'»«s:'s'»"),
            ("for f in *.md; do cat \"$f\"; done", "«k:for» f «k:in» *.md; «k:do» cat «s:&quot;$f&quot;»; «k:done»"),
        ])
    }

    func testRust() {
        check("rust", [
            ("fn main() { let v: Vec<u8> = vec![1, 2]; println!(\"{}\", v.len()); }",
             "«k:fn» «f:main»() { «k:let» v: «t:Vec»&lt;«t:u8»&gt; = «f:vec!»[«n:1», «n:2»]; «f:println!»(«s:&quot;{}&quot;», v.«f:len»()); }"),
            ("#[derive(Debug)]\nstruct S<'a> { c: char }", "«m:#[derive(Debug)]»\n«k:struct» «t:S»&lt;«m:'a»&gt; { c: «t:char» }"),
            ("let c = 'x'; let r = r#\"a \"q\" b\"#; let b = b'\\n';",
             "«k:let» c = «s:'x'»; «k:let» r = «s:r#&quot;a &quot;q&quot; b&quot;#»; «k:let» b = «s:b'\\n'»;"),
            ("/* outer /* inner */ */ Some(1)", "«c:/* outer /* inner */ */» «l:Some»(«n:1»)"),
        ])
    }

    func testGo() {
        check("go", [
            ("package main\nfunc main() { fmt.Println(`raw\nstring`, 'r', nil) }",
             "«k:package» main\n«k:func» «f:main»() { fmt.«f:Println»(«s:`raw\nstring`», «s:'r'», «l:nil») }"),
            ("var x int64 = 0o17 // octal", "«k:var» x «t:int64» = «n:0o17» «c:// octal»"),
        ])
    }

    func testCAndCpp() {
        check("c", [
            ("#include <stdio.h>\nint main(void) { printf(\"%d\\n\", 'a'); return 0; }",
             "«m:#include &lt;stdio.h&gt;»\n«t:int» «f:main»(«t:void») { «f:printf»(«s:&quot;%d\\n&quot;», «s:'a'»); «k:return» «n:0»; }"),
            ("#define TWO \\\n  2\nx = a # b;", "«m:#define TWO \\\n  2»\nx = a # b;"),
        ])
        check("c++", [
            ("template <typename T> class V : public B { T* p = nullptr; };",
             "«k:template» &lt;«k:typename» T&gt; «k:class» V : «k:public» B { T* p = «l:nullptr»; };"),
        ])
    }

    func testJava() {
        check("java", [
            ("@Override public String toString() { return \"x\" + 1L; }",
             "«m:@Override» «k:public» «t:String» «f:toString»() { «k:return» «s:&quot;x&quot;» + «n:1L»; }"),
        ])
    }

    func testRuby() {
        check("rb", [
            ("def initialize(name)\n  @name = name # store\nend", "«k:def» «f:initialize»(name)\n  «v:@name» = name «c:# store»\n«k:end»"),
            ("puts :sym, $stdout, Foo::Bar, nil", "puts «l::sym», «v:$stdout», «t:Foo»::«t:Bar», «l:nil»"),
            ("h = { a: 1 }; x ? y : z", "h = { a: «n:1» }; x ? y : z"),
        ])
    }

    func testYAML() {
        check("yaml", [
            ("---\nname: macmd # the name\nversion: 1.2\nenabled: true\n",
             "«m:---»\n«a:name»: macmd «c:# the name»\n«a:version»: «n:1.2»\n«a:enabled»: «l:true»\n"),
            ("items:\n  - \"quoted: not a key\"\n  - key: &anchor value\n    other: *anchor\n",
             "«a:items»:\n  - «s:&quot;quoted: not a key&quot;»\n  - «a:key»: «v:&amp;anchor» value\n    «a:other»: «v:*anchor»\n"),
            ("url: http://x.y/#frag\n'k': !!str 3\nlist: [1, null, ~]",
             "«a:url»: http://x.y/#frag\n«a:'k'»: «m:!!str» «n:3»\n«a:list»: [«n:1», «l:null», «l:~»]"),
        ])
    }

    func testHTMLAndXML() {
        check("html", [
            ("<!DOCTYPE html>\n<a href=\"/x?a=1&amp;b\" class=big>Hi &amp; bye</a>",
             "«m:&lt;!DOCTYPE html&gt;»\n&lt;«g:a» «a:href»=«s:&quot;/x?a=1&amp;amp;b&quot;» «a:class»=«s:big»&gt;Hi «l:&amp;amp;» bye&lt;/«g:a»&gt;"),
            ("<!-- note --><br/><img src='a.png' alt>", "«c:&lt;!-- note --&gt;»&lt;«g:br»/&gt;&lt;«g:img» «a:src»=«s:'a.png'» «a:alt»&gt;"),
        ])
        check("xml", [
            ("<?xml version=\"1.0\"?>\n<svg:rect x=\"1\"/><![CDATA[<raw>]]>",
             "«m:&lt;?xml version=&quot;1.0&quot;?&gt;»\n&lt;«g:svg:rect» «a:x»=«s:&quot;1&quot;»/&gt;«s:&lt;![CDATA[&lt;raw&gt;]]&gt;»"),
        ])
    }

    func testCSS() {
        check("css", [
            ("body > .note, #main a:hover { color: #fff; margin: 0 -1.5em 10%; }",
             "«g:body» &gt; «t:.note», «t:#main» «g:a»«m::hover» { «a:color»: «n:#fff»; «a:margin»: «n:0» «n:-1.5em» «n:10%»; }"),
            ("@media (max-width: 600px) { p { --gap: calc(1px + 2px) !important } } /* c */",
             "«k:@media» (max-width: «n:600px») { «g:p» { «a:--gap»: «f:calc»(«n:1px» + «n:2px») «k:!important» } } «c:/* c */»"),
            ("a::before { content: \"→\" }", "«g:a»«m:::before» { «a:content»: «s:&quot;→&quot;» }"),
        ])
    }

    func testUnknownLanguagesAndMarkdownAreNotHighlighted() {
        XCTAssertNil(CodeHighlighter.language(named: "markdown"))
        XCTAssertNil(CodeHighlighter.language(named: "md"))
        XCTAssertNil(CodeHighlighter.language(named: "brainfuck"))
        XCTAssertNil(CodeHighlighter.language(named: ""))
        XCTAssertEqual(CodeHighlighter.language(named: "Swift"), .swift)
        XCTAssertEqual(CodeHighlighter.language(named: "language-ts"), .typescript)
        XCTAssertEqual(CodeHighlighter.language(named: "SH"), .bash)
        XCTAssertNil(CodeHighlighter.highlight("let x", language: "cobol"))
    }
}
