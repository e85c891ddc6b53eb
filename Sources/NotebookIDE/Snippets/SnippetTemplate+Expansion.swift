// Expanding a template for an editor: as snippet text (for editors that take snippets) or as
// plain text (for those that do not, and for the preview a writer reads).
//
// Rules, VS Code's where it has one:
// - Snippet text keeps tab stops, placeholders and choices for the editor; resolves the
//   variables the server knows (through the transform, if any) into text escaped so that no
//   value can be read as syntax; leaves the editor's variables (`TM_SELECTED_TEXT`, …) as
//   `${NAME…}` with their defaults expanded; and turns an unknown variable without a default
//   into a placeholder holding its name (one number per name, after every number the body uses,
//   so two uses mirror each other). An unknown variable with a default is its default; with a
//   transform, the transform of the empty text.
// - Plain text replaces each placeholder by its default and a choice by its first option; a
//   tab stop, placeholder or choice whose number an earlier placeholder with a default (or a
//   choice) defines shows that value (mirrors), except `$0`; other tab stops vanish. The
//   editor's variables become their default, or nothing; an unknown variable its default, or
//   its name.
// - Never traps and stays bounded: mirrors are followed at most `SnippetParser.maxDepth` deep
//   (a mirror of itself is empty), and the output stops growing at `maxExpansionBytes`.

extension SnippetTemplate {
    /// The most bytes an expansion writes (mirrors of mirrors can double the text at each
    /// level); the rest is cut.
    public static let maxExpansionBytes = 1 << 20
    /// The lines a preview shows.
    public static let previewLines = 12

    /// The body in LSP snippet syntax, with the server's variables resolved.
    public func snippetText(variables: SnippetVariables) -> String {
        var expander = SnippetExpander(template: self, variables: variables)
        expander.writeSnippet(nodes)
        return expander.output.string
    }

    /// The body as the text it inserts without a snippet engine: placeholders replaced by their
    /// defaults, choices by their first option, tab stops removed.
    public func plainText(variables: SnippetVariables) -> String {
        var expander = SnippetExpander(template: self, variables: variables)
        expander.writePlain(nodes)
        return expander.output.string
    }

    /// What the writer will see: the plain text, at most `maxLines` lines (`…` on a last line
    /// of its own when there are more).
    public func preview(variables: SnippetVariables, maxLines: Int = SnippetTemplate.previewLines) -> String {
        SnippetTemplate.preview(of: plainText(variables: variables), maxLines: maxLines)
    }

    /// `text` cut to `maxLines` lines, a final line break left out.
    static func preview(of text: String, maxLines: Int) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.count > 1, lines.last?.isEmpty == true { lines.removeLast() }
        guard lines.count > maxLines else { return lines.joined(separator: "\n") }
        return (lines.prefix(max(0, maxLines)) + ["…"]).joined(separator: "\n")
    }
}

/// The bytes an expansion writes, capped at `SnippetTemplate.maxExpansionBytes`.
struct SnippetOutput {
    var bytes: [UInt8] = []
    /// Where the `$N` written last starts, while nothing has followed it: a digit written next
    /// would extend its number, so the tab stop is then rewritten `${N}`.
    private var shortTabStop: Int? = nil

    var string: String { String(decoding: bytes, as: UTF8.self) }

    private var isFull: Bool { bytes.count >= SnippetTemplate.maxExpansionBytes }

    private mutating func willAppend(_ first: UInt8?) {
        if let start = shortTabStop, let first, SnippetScanner.isDigit(first) {
            bytes.insert(UInt8(ascii: "{"), at: start + 1)
            bytes.append(UInt8(ascii: "}"))
        }
        shortTabStop = nil
    }

    /// Appends `text` as it is.
    mutating func append(_ text: String) {
        guard !isFull, !text.isEmpty else { return }
        willAppend(text.utf8.first)
        bytes.append(contentsOf: text.utf8)
    }

    /// Appends `text` with a backslash before each byte `isSpecial` names.
    mutating func append(_ text: String, escaping isSpecial: (UInt8) -> Bool) {
        guard !isFull, !text.isEmpty else { return }
        willAppend(text.utf8.first)
        for byte in text.utf8 {
            if isSpecial(byte) { bytes.append(UInt8(ascii: "\\")) }
            bytes.append(byte)
        }
    }

    /// Appends the tab stop `$number`.
    mutating func appendTabStop(_ number: Int) {
        guard !isFull else { return }
        willAppend(UInt8(ascii: "$"))
        let start = bytes.count
        bytes.append(UInt8(ascii: "$"))
        bytes.append(contentsOf: String(number).utf8)
        shortTabStop = start
    }

    /// Text in snippet syntax: `$`, `}` and `\` are escaped.
    static func isTextSpecial(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "$") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "\\")
    }

    /// A choice's option: `,`, `|` and `\` are escaped.
    static func isOptionSpecial(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "|") || byte == UInt8(ascii: "\\")
    }
}

/// One expansion of a template.
struct SnippetExpander {
    let variables: SnippetVariables
    var output = SnippetOutput()
    /// The placeholder numbers given to unknown variables, by name.
    private var unknownNumbers: [String: Int] = [:]
    private var nextNumber: Int
    /// For plain text: the placeholder or choice that defines each tab stop number's value.
    private var defining: [Int: SnippetNode] = [:]
    private var mirrorValues: [Int: String] = [:]
    private var mirrorsInProgress: Set<Int> = []

    init(template: SnippetTemplate, variables: SnippetVariables) {
        self.variables = variables
        var highest = 0
        var defining: [Int: SnippetNode] = [:]
        SnippetNode.walk(template.nodes) { node in
            switch node {
            case .tabStop(let number):
                highest = max(highest, number)
            case .placeholder(let number, let children):
                highest = max(highest, number)
                if number != 0, !children.isEmpty, defining[number] == nil { defining[number] = node }
            case .choice(let number, _):
                highest = max(highest, number)
                if number != 0, defining[number] == nil { defining[number] = node }
            case .text, .variable:
                break
            }
        }
        nextNumber = highest + 1
        self.defining = defining
    }

    // MARK: Snippet text

    mutating func writeSnippet(_ nodes: [SnippetNode]) {
        for node in nodes {
            switch node {
            case .text(let text):
                output.append(text, escaping: SnippetOutput.isTextSpecial)
            case .tabStop(let number):
                output.appendTabStop(number)
            case .placeholder(let number, let children):
                output.append("${" + String(number) + ":")
                writeSnippet(children)
                output.append("}")
            case .choice(let number, let options):
                output.append("${" + String(number) + "|")
                for (index, option) in options.enumerated() {
                    if index > 0 { output.append(",") }
                    output.append(option, escaping: SnippetOutput.isOptionSpecial)
                }
                output.append("|}")
            case .variable(let name, let defaultNodes, let transform):
                switch variables.resolve(name) {
                case .value(let value):
                    output.append(transform?.apply(to: value) ?? value, escaping: SnippetOutput.isTextSpecial)
                case .editor:
                    if let transform {
                        output.append("${" + name + transform.source + "}")
                    } else if let defaultNodes {
                        output.append("${" + name + ":")
                        writeSnippet(defaultNodes)
                        output.append("}")
                    } else {
                        output.append("${" + name + "}")
                    }
                case .unknown:
                    if let transform {
                        output.append(transform.apply(to: ""), escaping: SnippetOutput.isTextSpecial)
                    } else if let defaultNodes {
                        writeSnippet(defaultNodes)
                    } else {
                        output.append("${" + String(unknownNumber(name)) + ":" + name + "}")
                    }
                }
            }
        }
    }

    private mutating func unknownNumber(_ name: String) -> Int {
        if let number = unknownNumbers[name] { return number }
        let number = nextNumber
        nextNumber += 1
        unknownNumbers[name] = number
        return number
    }

    // MARK: Plain text

    mutating func writePlain(_ nodes: [SnippetNode]) {
        for node in nodes {
            switch node {
            case .text(let text):
                output.append(text)
            case .tabStop(let number):
                output.append(mirror(number) ?? "")
            case .placeholder(let number, let children):
                if let value = mirror(number) { output.append(value) } else { writePlain(children) }
            case .choice(let number, let options):
                output.append(mirror(number) ?? options.first ?? "")
            case .variable(let name, let defaultNodes, let transform):
                let resolution = variables.resolve(name)
                switch resolution {
                case .value(let value):
                    output.append(transform?.apply(to: value) ?? value)
                case .editor, .unknown:
                    if let transform {
                        output.append(transform.apply(to: ""))
                    } else if let defaultNodes {
                        writePlain(defaultNodes)
                    } else if resolution == .unknown {
                        output.append(name)
                    }
                }
            }
        }
    }

    /// The plain value of tab stop `number` as its defining placeholder or choice gives it;
    /// nil when nothing defines it (or for `$0`).
    private mutating func mirror(_ number: Int) -> String? {
        guard let node = defining[number] else { return nil }
        if let value = mirrorValues[number] { return value }
        // A mirror inside its own default, or a chain deeper than the bound, is empty.
        guard !mirrorsInProgress.contains(number), mirrorsInProgress.count < SnippetParser.maxDepth else { return "" }
        mirrorsInProgress.insert(number)
        let saved = output
        output = SnippetOutput()
        switch node {
        case .placeholder(_, let children): writePlain(children)
        case .choice(_, let options): output.append(options.first ?? "")
        default: break
        }
        let value = output.string
        output = saved
        mirrorsInProgress.remove(number)
        mirrorValues[number] = value
        return value
    }
}
