// The languages `CodeHighlighter` knows: names, aliases, and how each one is tokenized.
//
// Invariants:
// - Keyword tables are built once (static lets) and only read afterwards.
// - A keyword lookup costs O(1) per identifier whatever its length: entries are bucketed by
//   first byte and compared only when the lengths match.

extension CodeHighlighter {
    /// A language the highlighter tokenizes.
    public enum Language: String, CaseIterable, Sendable {
        case swift, python, javascript, typescript, json, bash, rust, go, c, cpp, java, ruby, yaml, html, xml, css

        /// The language of a fence info word (`swift`, `py`, `language-js`…), ASCII
        /// case-insensitive; nil for Markdown and unknown names.
        init?(infoWord: ArraySlice<UInt8>) {
            var word = infoWord
            let prefix = Array("language-".utf8)
            if word.count > prefix.count, zip(word, prefix).allSatisfy({ ($0 | 0x20) == $1 || $0 == $1 }) {
                word = word.dropFirst(prefix.count)
            }
            guard !word.isEmpty, word.count <= 24 else { return nil }
            let lowered = String(decoding: word.map { ($0 >= 0x41 && $0 <= 0x5A) ? $0 | 0x20 : $0 }, as: UTF8.self)
            switch lowered {
            case "swift": self = .swift
            case "python", "py", "python3", "py3", "gyp", "pyi": self = .python
            case "javascript", "js", "jsx", "mjs", "cjs", "node": self = .javascript
            case "typescript", "ts", "tsx", "mts", "cts": self = .typescript
            case "json", "jsonc", "json5", "geojson", "jsonl": self = .json
            case "bash", "sh", "shell", "zsh", "ksh", "shellscript": self = .bash
            case "rust", "rs": self = .rust
            case "go", "golang": self = .go
            case "c", "h": self = .c
            case "cpp", "c++", "cc", "cxx", "hpp", "hh", "hxx": self = .cpp
            case "java": self = .java
            case "ruby", "rb", "gemspec", "podspec": self = .ruby
            case "yaml", "yml": self = .yaml
            case "html", "htm", "xhtml": self = .html
            case "xml", "svg", "plist", "xsl", "xslt", "xsd", "rss", "atom": self = .xml
            case "css", "scss", "less": self = .css
            default: return nil
            }
        }

        /// The tokenizer family and, for the C-like family, its rules.
        var family: Family {
            switch self {
            case .swift: return .generic(.swift)
            case .python: return .generic(.python)
            case .javascript: return .generic(.javascript)
            case .typescript: return .generic(.typescript)
            case .json: return .generic(.json)
            case .bash: return .generic(.bash)
            case .rust: return .generic(.rust)
            case .go: return .generic(.go)
            case .c: return .generic(.c)
            case .cpp: return .generic(.cpp)
            case .java: return .generic(.java)
            case .ruby: return .generic(.ruby)
            case .yaml: return .yaml
            case .html, .xml: return .markup
            case .css: return .css
            }
        }
    }

    /// How a language is tokenized.
    enum Family {
        case generic(LanguageRules)
        case markup
        case css
        case yaml
    }

    /// What `'` starts.
    enum SingleQuote {
        /// Nothing: a plain byte.
        case none
        /// A string with backslash escapes, like `"`.
        case string
        /// A character literal when it closes within one character (C, Java, Go, Rust); in Rust
        /// `'name` without a closing quote is a lifetime or label.
        case character
        /// A string without escapes that may span lines (shell).
        case raw
    }

    /// What `#` starts, besides a line comment.
    enum HashRule {
        case none
        /// A preprocessor line when `#` is the first thing on its line (C, C++).
        case preprocessor
        /// `#if`, `#available`… directives and `#"raw"#` strings (Swift).
        case swiftDirective
        /// `#[attribute]` and `#![attribute]` (Rust).
        case rustAttribute
    }

    /// What `@` starts.
    enum AtRule {
        case none
        /// An attribute, decorator or annotation (`@MainActor`, `@property`, `@Override`).
        case meta
        /// An instance or class variable (`@name`, `@@name`, Ruby).
        case variable
    }

    /// The tokenizer rules of a C-like (or shell-like) language.
    struct LanguageRules: Sendable {
        var lineComments: [[UInt8]] = [Array("//".utf8)]
        /// `#` comments only at the start of a word (shell: `$#` and `a#b` are not comments).
        var commentNeedsWordStart = false
        var blockComment: (open: [UInt8], close: [UInt8])? = (Array("/*".utf8), Array("*/".utf8))
        var nestedBlockComments = false
        /// `"` strings may span lines.
        var multilineStrings = false
        /// `"""` (and `'''` when `'` is a string quote) strings.
        var tripleQuotes = false
        var singleQuote = SingleQuote.string
        /// `` ` `` starts a string that may span lines (JavaScript templates, Go raw strings).
        var backtickStrings = false
        var hash = HashRule.none
        var at = AtRule.none
        /// `$name`, `${…}`, `$1` are variables (shell); `$name` is a global (Ruby).
        var dollarVariables = false
        /// `$` may appear inside identifiers (JavaScript).
        var dollarInIdentifiers = false
        /// `-` may appear inside words after their first byte (shell commands and options).
        var dashInWords = false
        /// Numbers must stand alone as a word (shell: `file1.txt` and `-2x` are not numbers).
        var numbersStandAlone = false
        /// `-` directly before a digit belongs to the number (JSON).
        var negativeNumbers = false
        /// Names that start with an upper-case letter are types.
        var capitalizedTypes = false
        /// A name directly followed by `(` is a function.
        var functionCalls = true
        /// `r"…"`, `b"…"`, `f"…"`: short letter prefixes belong to the string (Python, Rust).
        var stringPrefixes: [UInt8] = []
        /// `r#"…"#` raw strings after an `r`/`br` prefix (Rust).
        var rustRawStrings = false
        /// `name!(` is a macro (Rust).
        var bangMacros = false
        /// `:name` is a symbol (Ruby).
        var symbols = false
        /// A string directly followed by `:` is a key (JSON).
        var stringKeys = false
        var words: KeywordTable
    }

    /// What a word in a keyword table is.
    enum WordKind: UInt8 {
        case keyword, type, literal, function
    }

    /// Keywords, built-in types, literals and built-in commands of one language.
    struct KeywordTable: Sendable {
        /// Entries by first byte (0...127); non-ASCII first bytes never match.
        private var buckets: [[(word: [UInt8], kind: WordKind)]] = Array(repeating: [], count: 128)

        init(keywords: String = "", types: String = "", literals: String = "", functions: String = "") {
            for (list, kind) in [(keywords, WordKind.keyword), (types, .type), (literals, .literal), (functions, .function)] {
                for word in list.split(separator: " ") where !word.isEmpty {
                    let bytes = Array(word.utf8)
                    guard let first = bytes.first, first < 128 else { continue }
                    buckets[Int(first)].append((bytes, kind))
                }
            }
        }

        /// The kind of `code[start..<end]`, when it is in the table.
        func kind(of code: ArraySlice<UInt8>, _ start: Int, _ end: Int) -> WordKind? {
            guard start < end, start >= code.startIndex, end <= code.endIndex else { return nil }
            let first = code[start]
            guard first < 128 else { return nil }
            let length = end - start
            search: for entry in buckets[Int(first)] where entry.word.count == length {
                var k = 1
                while k < length {
                    if entry.word[k] != code[start + k] { continue search }
                    k += 1
                }
                return entry.kind
            }
            return nil
        }
    }
}

extension CodeHighlighter.LanguageRules {
    typealias Table = CodeHighlighter.KeywordTable

    static let swift = Self(
        nestedBlockComments: true, multilineStrings: false, tripleQuotes: true, singleQuote: .none,
        hash: .swiftDirective, at: .meta, capitalizedTypes: true,
        words: Table(
            keywords: "associatedtype class deinit enum extension fileprivate func import init inout internal let open "
                + "operator private precedencegroup protocol public rethrows static struct subscript typealias var break "
                + "case catch continue default defer do else fallthrough for guard if in repeat return throw switch where "
                + "while as is try await async throws some any super self Self actor nonisolated isolated consuming "
                + "borrowing mutating nonmutating override final lazy weak unowned convenience required dynamic "
                + "indirect get set willSet didSet macro package sending consume copy discard",
            literals: "true false nil"))

    static let python = Self(
        lineComments: [Array("#".utf8)], blockComment: nil, tripleQuotes: true, at: .meta, capitalizedTypes: true,
        stringPrefixes: Array("rRbBfFuU".utf8),
        words: Table(
            keywords: "and as assert async await break class continue def del elif else except finally for from "
                + "global if import in is lambda nonlocal not or pass raise return try while with yield",
            types: "int str float bool list dict set tuple bytes bytearray object complex frozenset type",
            literals: "True False None self cls",
            functions: ""))

    static let javascript = Self(
        multilineStrings: false, backtickStrings: true, at: .meta, dollarInIdentifiers: true, capitalizedTypes: true,
        words: Table(
            keywords: javascriptKeywords,
            literals: "true false null undefined NaN Infinity this"))

    static let typescript = Self(
        multilineStrings: false, backtickStrings: true, at: .meta, dollarInIdentifiers: true, capitalizedTypes: true,
        words: Table(
            keywords: javascriptKeywords + " interface type enum implements namespace declare abstract private "
                + "protected public readonly keyof infer is satisfies module override asserts unique",
            types: "string number boolean any unknown never void object symbol bigint",
            literals: "true false null undefined NaN Infinity this"))

    static let javascriptKeywords = "break case catch class const continue debugger default delete do else export "
        + "extends finally for function if import in instanceof let new of return static super switch throw try "
        + "typeof var void while with yield async await get set from as"

    static let json = Self(
        singleQuote: .none, negativeNumbers: true, functionCalls: false, stringKeys: true,
        words: Table(literals: "true false null"))

    static let bash = Self(
        lineComments: [Array("#".utf8)], commentNeedsWordStart: true, blockComment: nil, multilineStrings: true,
        singleQuote: .raw, dollarVariables: true, dashInWords: true, numbersStandAlone: true, functionCalls: false,
        words: Table(
            keywords: "if then else elif fi case esac for select while until do done in function time return local "
                + "export readonly declare typeset break continue",
            literals: "true false",
            functions: "echo cd printf read source exit set unset shift test eval exec trap alias pwd pushd popd "
                + "let wait kill ulimit umask type command builtin getopts"))

    static let rust = Self(
        nestedBlockComments: true, multilineStrings: true, singleQuote: .character, hash: .rustAttribute,
        capitalizedTypes: true, stringPrefixes: Array("b".utf8), rustRawStrings: true, bangMacros: true,
        words: Table(
            keywords: "as async await break const continue crate dyn else enum extern fn for if impl in let loop "
                + "match mod move mut pub ref return self Self static struct super trait type unsafe use where while "
                + "union macro_rules",
            types: "i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize f32 f64 bool char str",
            literals: "true false Some None Ok Err"))

    static let go = Self(
        singleQuote: .character, backtickStrings: true,
        words: Table(
            keywords: "break case chan const continue default defer else fallthrough for func go goto if import "
                + "interface map package range return select struct switch type var",
            types: "bool byte complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string uint "
                + "uint8 uint16 uint32 uint64 uintptr any comparable",
            literals: "true false nil iota"))

    static let cKeywords = "auto break case const continue default do else enum extern for goto if inline "
        + "register restrict return signed sizeof static struct switch typedef union unsigned volatile while "
        + "_Alignas _Alignof _Atomic _Generic _Noreturn _Static_assert _Thread_local"
    static let cTypes = "char double float int long short void bool _Bool size_t ssize_t ptrdiff_t intptr_t "
        + "uintptr_t int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t FILE wchar_t"

    static let c = Self(
        singleQuote: .character, hash: .preprocessor,
        words: Table(keywords: cKeywords, types: cTypes, literals: "NULL true false"))

    static let cpp = Self(
        singleQuote: .character, hash: .preprocessor,
        words: Table(
            keywords: cKeywords + " alignas alignof and asm catch class constexpr consteval constinit const_cast "
                + "co_await co_return co_yield decltype delete dynamic_cast explicit export friend mutable namespace "
                + "new noexcept not operator or private protected public reinterpret_cast static_assert static_cast "
                + "template this thread_local throw try typeid typename using virtual override final concept requires",
            types: cTypes + " char8_t char16_t char32_t",
            literals: "nullptr NULL true false"))

    static let java = Self(
        singleQuote: .character, at: .meta, capitalizedTypes: true,
        words: Table(
            keywords: "abstract assert break case catch class const continue default do else enum extends final "
                + "finally for goto if implements import instanceof interface native new package private protected "
                + "public return static strictfp super switch synchronized this throw throws transient try volatile "
                + "while var record yield sealed permits non-sealed",
            types: "boolean byte char double float int long short void",
            literals: "true false null"))

    static let ruby = Self(
        lineComments: [Array("#".utf8)], blockComment: nil, multilineStrings: true, at: .variable,
        dollarVariables: true, capitalizedTypes: true, symbols: true,
        words: Table(
            keywords: "BEGIN END alias and begin break case class def defined do else elsif end ensure for if in "
                + "module next not or redo rescue retry return super then undef unless until when while yield "
                + "require require_relative include extend attr_accessor attr_reader attr_writer private protected "
                + "public lambda proc raise",
            literals: "true false nil self __FILE__ __LINE__ __method__"))
}
