import XCTest
import TeXMath

/// One formula and the MathML expected inside `<semantics>` (before the annotation), written by
/// hand from MathML Core: what each TeX construct must become.
struct MathCase {
    var tex: String
    var display: Bool
    var body: String
    var line: UInt

    init(_ tex: String, display: Bool = false, _ body: String, line: UInt = #line) {
        self.tex = tex
        self.display = display
        self.body = body
        self.line = line
    }
}

/// The TeX source as the annotation holds it: HTML-escaped.
func escapedSource(_ tex: String) -> String {
    tex.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
}

/// The whole `<math>` element for a body.
func mathElement(_ body: String, tex: String, display: Bool) -> String {
    "<math display=\"\(display ? "block" : "inline")\"><semantics>\(body)"
        + "<annotation encoding=\"application/x-tex\">\(escapedSource(tex))</annotation></semantics></math>"
}

/// Checks every case: the output must be exactly the expected element.
func checkCases(_ cases: [MathCase], file: StaticString = #filePath) {
    for item in cases {
        let expected = mathElement(item.body, tex: item.tex, display: item.display)
        switch TeXMath.mathML(item.tex, display: item.display) {
        case .mathML(let actual):
            if actual != expected {
                XCTFail("\(item.tex)\n  expected \(expected)\n       got \(actual)", file: file, line: item.line)
            }
        case .error(let error):
            XCTFail("\(item.tex): unexpected error \(error.message.english) at \(error.utf8Offset)", file: file, line: item.line)
        }
    }
}

/// One malformed formula and the error it must give.
struct ErrorCase {
    var tex: String
    var message: String
    var offset: Int?
    var line: UInt

    init(_ tex: String, _ message: String, at offset: Int? = nil, line: UInt = #line) {
        self.tex = tex
        self.message = message
        self.offset = offset
        self.line = line
    }
}

func checkErrors(_ cases: [ErrorCase], file: StaticString = #filePath) {
    for item in cases {
        for display in [false, true] {
            switch TeXMath.mathML(item.tex, display: display) {
            case .mathML(let output):
                XCTFail("\(item.tex): expected the error \"\(item.message)\", got \(output)", file: file, line: item.line)
            case .error(let error):
                XCTAssertEqual(error.message.english, item.message, item.tex, file: file, line: item.line)
                if let offset = item.offset {
                    XCTAssertEqual(error.utf8Offset, offset, "offset of the error in \(item.tex)", file: file, line: item.line)
                }
            }
        }
    }
}
