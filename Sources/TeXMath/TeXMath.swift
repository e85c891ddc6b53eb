// TeX to MathML Core: the maths of notes as MathML that every current browser engine renders
// without a script (Chromium 109+, Firefox, Safari).
//
// Invariants:
// - Never traps and never hangs on input. What is not understood (an unknown command,
//   unbalanced braces, a missing argument, an `\end` that does not match, nesting deeper than
//   `maximumNestingDepth`) is a `TeXMathError`, never a crash; the caller shows the source.
// - Linear in the formula's length: the lexer reads each byte once with one token of look-ahead
//   and no backtracking, the parser builds an arena (`MathTree`) with no per-node class, the
//   writer visits each node once and appends to one buffer.
// - Nesting is bounded (`maximumNestingDepth`), so the parser's and the writer's recursion is
//   bounded too; deeper input is an error, never a stack overflow.
// - The output uses MathML Core elements and attributes only (`mathvariant` only as `normal` on
//   a single-letter `<mi>`): fonts are Unicode mathematical alphanumerics, alignment and rules
//   of tables are CSS on the cells. It is valid UTF-8, escaped, and carries the TeX source in
//   `<annotation encoding="application/x-tex">` so copying the formula copies its TeX.
// - Depends on TextCore only (the UTF-8 repair the HTML writer uses); no Foundation.

/// Converts TeX maths to MathML Core.
import Localization

public enum TeXMath {
    /// How deep groups, arguments and environments may nest. Each `{…}`, each argument, each
    /// `\left…\right` and each environment is one level; deeper input is an error.
    public static let maximumNestingDepth = 64

    /// The longest formula converted, in UTF-8 bytes; a longer one is an error.
    public static let maximumFormulaLength = 1 << 20

    /// The result of a conversion.
    public enum Output: Sendable, Equatable {
        /// The `<math>` element.
        case mathML(String)
        /// What was not understood.
        case error(TeXMathError)
    }

    /// The MathML of `tex` (inline maths, or display maths when `display`).
    public static func mathML(_ tex: String, display: Bool) -> Output {
        var text = tex
        return text.withUTF8 { mathML(utf8: $0, display: display) }
    }

    /// The MathML of `tex` (inline maths, or display maths when `display`).
    public static func mathML(_ tex: Substring, display: Bool) -> Output {
        mathML(String(tex), display: display)
    }

    /// The MathML of the UTF-8 bytes `tex`.
    public static func mathML(utf8 tex: UnsafeBufferPointer<UInt8>, display: Bool) -> Output {
        var output: [UInt8] = []
        if let error = write(tex, display: display, into: &output) { return .error(error) }
        return .mathML(String(decoding: output, as: UTF8.self))
    }

    /// The MathML of the UTF-8 bytes `tex`.
    public static func mathML(utf8 tex: ArraySlice<UInt8>, display: Bool) -> Output {
        tex.withUnsafeBufferPointer { mathML(utf8: $0, display: display) }
    }

    /// Appends the `<math>` element of `tex` to `output`; on an error appends nothing and
    /// returns it.
    @discardableResult
    public static func write(_ tex: UnsafeBufferPointer<UInt8>, display: Bool, into output: inout [UInt8]) -> TeXMathError? {
        if tex.count > maximumFormulaLength {
            return TeXMathError.formulaTooLong
        }
        let top: NodeList
        var parser = MathParser(tex, display: display)
        do {
            top = try parser.parseFormula()
        } catch {
            return TeXMathError(message: error.message, utf8Offset: error.offset)
        }
        var writer = MathMLWriter(tree: parser.tree, out: ByteOutput(appendingTo: []))
        swap(&writer.out.result, &output)
        writer.writeMath(top, source: tex, display: display)
        output = writer.out.finish()
        return nil
    }

    /// Appends the `<math>` element of `tex` to `output`; on an error appends nothing and
    /// returns it.
    @discardableResult
    public static func write(_ tex: ArraySlice<UInt8>, display: Bool, into output: inout [UInt8]) -> TeXMathError? {
        tex.withUnsafeBufferPointer { write($0, display: display, into: &output) }
    }

    /// Appends what a page shows for `tex`: its `<math>` element, or when it has an error,
    /// `<code class="math-error" title="what was not understood">TeX source</code>` (and
    /// returns the error, for `macmd check`).
    @discardableResult
    public static func writeHTML(_ tex: UnsafeBufferPointer<UInt8>, display: Bool, locale: SupportedLocale = .en,
                                 into output: inout [UInt8]) -> TeXMathError? {
        guard let error = write(tex, display: display, into: &output) else { return nil }
        writeError(error, source: tex, locale: locale, into: &output)
        return error
    }

    /// `writeHTML` for bytes in an array.
    @discardableResult
    public static func writeHTML(_ tex: ArraySlice<UInt8>, display: Bool, locale: SupportedLocale = .en,
                                 into output: inout [UInt8]) -> TeXMathError? {
        tex.withUnsafeBufferPointer { writeHTML($0, display: display, locale: locale, into: &output) }
    }

    /// Appends `<code class="math-error" title="message">source</code>`, both escaped, the
    /// message in `locale`.
    public static func writeError(_ error: TeXMathError, source: UnsafeBufferPointer<UInt8>, locale: SupportedLocale = .en,
                                  into output: inout [UInt8]) {
        var out = ByteOutput(appendingTo: [])
        swap(&out.result, &output)
        out.append("<code class=\"math-error\" title=\"")  // l10n-exempt: HTML markup
        var message = error.message.string(in: locale)
        message.withUTF8 { MathMLWriter.escape($0, into: &out) }
        out.append("\">")
        MathMLWriter.escape(source, into: &out)
        out.append("</code>")
        output = out.finish()
    }

    /// The error in `tex`, if it has one (what `macmd check` reports), without writing MathML.
    public static func check(_ tex: UnsafeBufferPointer<UInt8>) -> TeXMathError? {
        if tex.count > maximumFormulaLength {
            return TeXMathError.formulaTooLong
        }
        var parser = MathParser(tex, display: true)
        do {
            _ = try parser.parseFormula()
            return nil
        } catch {
            return TeXMathError(message: error.message, utf8Offset: error.offset)
        }
    }

    /// The work a conversion does, counted (for the linearity tests: no clocks).
    struct Work: Equatable {
        var tokens = 0, nodes = 0, poolBytes = 0, outputBytes = 0
        var total: Int { tokens + nodes + poolBytes + outputBytes }
    }

    /// Converts `tex` and counts the work; nil when it has an error.
    static func work(_ tex: [UInt8], display: Bool) -> Work? {
        tex.withUnsafeBufferPointer { buffer -> Work? in
            var parser = MathParser(buffer, display: display)
            guard let top = try? parser.parseFormula() else { return nil }
            var writer = MathMLWriter(tree: parser.tree, out: ByteOutput(appendingTo: []))
            writer.writeMath(top, source: buffer, display: display)
            return Work(tokens: parser.lexer.tokenCount, nodes: parser.tree.nodes.count,
                        poolBytes: parser.tree.bytes.count, outputBytes: writer.out.finish().count)
        }
    }

    /// `check` for a string.
    public static func check(_ tex: String) -> TeXMathError? {
        var text = tex
        return text.withUTF8 { check($0) }
    }
}

/// What a formula has that the converter did not understand.
public struct TeXMathError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A short sentence for the page's tooltip and for `macmd check` (`unknown command \foo`), in
    /// the writer's language when it is shown (`math.error.*` keys).
    public var message: LocalizedText
    /// Where in the formula, in UTF-8 bytes from its start.
    public var utf8Offset: Int

    public init(message: LocalizedText, utf8Offset: Int) {
        self.message = message
        self.utf8Offset = utf8Offset
    }

    /// A formula over `TeXMath.maximumFormulaLength` bytes (the number written as it is, without
    /// grouping, in every language).
    static var formulaTooLong: TeXMathError {
        TeXMathError(message: LocalizedText("math.error.formulaTooLong", .string(String(TeXMath.maximumFormulaLength))), utf8Offset: 0)
    }

    /// The message in English.
    public var description: String { message.english }
}
