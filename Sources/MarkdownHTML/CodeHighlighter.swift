// Offline syntax highlighting of fenced code blocks.
//
// Invariants:
// - A byte-level tokenizer per language family, no regex and no Foundation. Every loop advances
//   by at least one byte and every look-ahead is bounded or consumed, so time is linear in the
//   input; nothing traps on any input (unterminated strings and comments end at the end of their
//   line or of the block; invalid UTF-8 is passed through `HTMLWriter`'s repair).
// - Highlighting only adds `<span class="hl-…">` and `</span>` around runs of the escaped text:
//   with the spans removed the output is byte-identical to unhighlighted output. Token bounds
//   never fall inside a UTF-8 sequence (they sit before an ASCII byte, or after a whole
//   identifier, which takes every byte >= 0x80 that follows it), so the repair is unchanged too.
// - Unknown languages (and Markdown) are not highlighted at all.

/// Highlights source code as HTML `<span class="hl-…">` runs for the page stylesheet's themes.
///
/// Classes written: `hl-keyword`, `hl-string`, `hl-comment`, `hl-number`, `hl-type`,
/// `hl-literal` (`true`, `nil`, symbols, entities), `hl-function` (called names and shell
/// builtins), `hl-meta` (attributes, decorators, preprocessor lines, directives), `hl-tag` and
/// `hl-attr` (markup tag and attribute names, JSON/YAML keys, CSS selectors and properties) and
/// `hl-variable` (shell, Ruby and YAML anchors).
public enum CodeHighlighter {
    /// The language named by the first word of a fence's info string (`swift`, `py`,
    /// `language-js`…), case-insensitively; nil for Markdown and languages it does not know.
    public static func language(named name: String) -> Language? {
        Language(infoWord: Array(name.utf8)[...])
    }

    /// The highlighted, HTML-escaped text of `code` (what goes inside `<code>`).
    public static func highlight(_ code: [UInt8], as language: Language) -> String {
        var out = HTMLWriter(capacity: code.count * 2 + 16)
        highlight(code[...], as: language, into: &out)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// The highlighted, HTML-escaped text of `code` in the language named `name`, or nil when
    /// that language is not highlighted.
    public static func highlight(_ code: String, language name: String) -> String? {
        guard let language = language(named: name) else { return nil }
        return highlight(Array(code.utf8), as: language)
    }

    /// Writes `code` highlighted into the renderer's output.
    static func highlight(_ code: ArraySlice<UInt8>, as language: Language, into out: inout HTMLWriter) {
        var lexer = Lexer(code: code)
        swap(&lexer.out, &out)
        switch language.family {
        case .generic(let spec): lexer.runGeneric(spec)
        case .markup: lexer.runMarkup()
        case .css: lexer.runCSS()
        case .yaml: lexer.runYAML()
        }
        lexer.finish()
        swap(&lexer.out, &out)
    }
}
