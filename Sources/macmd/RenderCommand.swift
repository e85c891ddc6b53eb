// `macmd render`: Markdown in (a file or stdin), HTML out (stdout, one write).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CommandLineIO
import JSONRPC
import Localization
import NotebookWorkspace
import TextCore
import MarkdownSyntax
import MarkdownHTML
import NotebookIDE
import NotebookIndex
import Themes

/// The `render` subcommand.
enum RenderCommand {
    /// `macmd render --help` in the writer's language.
    static var usage: String {
        // l10n-exempt: the synopsis and the option names are typed as shown
        HelpText.usage(["macmd render [FILE|-] [options]"]) + "\n"
            + HelpText.paragraph(LocalizedText("cli.render.help")) + "\n"
            + HelpText.heading(LocalizedText("cli.help.options"))
            + HelpText.rows([
                ("--profile commonmark|gfm|notebook", LocalizedText("cli.render.option.profile")),  // l10n-exempt: option syntax
                ("--extensions a,b,...", LocalizedText("cli.render.option.extensions", .string(extensionNames))),
                ("--unsafe", LocalizedText("cli.render.option.unsafe")),
                ("--heading-ids", LocalizedText("cli.render.option.headingIds")),
                ("--source-lines", LocalizedText("cli.render.option.sourceLines")),
                ("--full-page", LocalizedText("cli.render.option.fullPage")),
                ("--math mathml|tex", LocalizedText("cli.render.option.math")),  // l10n-exempt: option syntax
                ("--title TEXT", LocalizedText("cli.render.option.title")),  // l10n-exempt: option syntax
                ("--theme NAME", LocalizedText("cli.render.option.theme", .string(themeNames))),  // l10n-exempt: option syntax
                ("--notebook DIR", LocalizedText("cli.render.option.notebook")),  // l10n-exempt: option syntax
                ("-h, --help", LocalizedText("cli.render.option.help")),
            ], column: 22)
    }

    /// The names `--extensions` takes, as `--help` lists them (typed as shown, never translated).
    static let extensionNames = """
        table, strikethrough, autolink, tagfilter, tasklist, footnotes,
        alerts, frontmatter, wikilinks, tags, blockids, math
        """

    /// The names `--theme` takes, as `--help` lists them (typed as shown, never translated).
    static let themeNames = """
        light, dark, basic,
        grass, homebrew, man-page, novel, ocean, pro, red-sands,
        silver-aerogel, solid-colors
        """

    /// What the command line asked for.
    struct Settings {
        var path: String?
        var profile: ParseOptions.Profile = .notebook
        var extensions: ParseOptions.Extensions?
        var html = HTMLOptions()
        var headingIDs = false
        /// `--math`; nil: MathML for a full page, TeX otherwise.
        var math: MathMarkup?
        /// `--notebook DIR`: the notebook whose link resolution the wiki-links follow.
        var notebook: String?
    }

    enum ParseOutcome {
        case settings(Settings)
        case help
        case error(LocalizedText)
    }

    static func run(_ arguments: [String]) -> Int32 {
        let settings: Settings
        switch parse(arguments) {
        case .help:
            return StandardStreams.writeOutput(Array(usage.utf8)) ? 0 : 1
        case .error(let message):
            return MacMDCommandLine.usageError("render", message)
        case .settings(let parsed):
            settings = parsed
        }
        let source: [UInt8]
        switch StandardStreams.readInput(path: settings.path) {
        case .failure(let error):
            MacMDCommandLine.writeError("render", error.message)
            return 2
        case .success(let bytes):
            source = bytes
        }
        // Input that is not UTF-8 text (a binary file, another encoding) is rendered with U+FFFD
        // where it is not: say how much, rather than write a page of them without a word.
        let replaced = source.withUnsafeBufferPointer { UTF8Repair.replacedByteCount($0) }
        if replaced > 0 {
            MacMDCommandLine.writeError("render", LocalizedText("cli.render.warning.notUTF8", .integer(replaced)))
        }
        // `--extensions` adds single extensions to the profile (`--profile commonmark
        // --extensions table` is CommonMark plus tables, as a spec runner needs).
        let extensions = settings.profile.extensions.union(settings.extensions ?? [])
        let tree = MarkdownParser.parse(source, options: ParseOptions(extensions: extensions))
        var options = settings.html
        options.collapseNestedStrong = settings.profile != .commonmark
        options.headingIDs = settings.headingIDs || settings.profile == .notebook
        // A full page is read in a browser, which draws MathML; a fragment goes into someone
        // else's page, which may typeset TeX (and the spec and golden output stay as they are).
        options.math = settings.math ?? (options.fullPage ? .mathML : .tex)
        if let folder = settings.notebook {
            options.locale = MacMDCommandLine.locale
            switch destinations(of: tree, source: source, file: settings.path, notebook: folder, page: options) {
            case .success(let destinations):
                options.wikiLinkDestinations = destinations.wiki
                options.linkDestinations = destinations.markdown
            case .failure(let message):
                MacMDCommandLine.writeError("render", message.text)
                return 2
            }
        }
        var written = true
        HTMLRenderer(options: options).render(tree) { chunk in
            if written { written = StandardStreams.writeAll(chunk, to: 1) }
        }
        return written ? 0 : 1
    }

    struct Message: Error {
        var text: LocalizedText
    }

    /// Where the wiki-links of `tree` (the note `file`, whose text is `source`) point in the
    /// notebook in `folder`, indexed with its `.macmd.json` as `macmd check` and the server do,
    /// with its embeds shown in place (`Transclusion`, rendered with the options `page`), and
    /// the Markdown links the notebook finds elsewhere than their path says (by name, published
    /// pages).
    static func destinations(of tree: SyntaxTree, source: [UInt8], file: String?, notebook folder: String, page: HTMLOptions)
        -> Result<(wiki: WikiLinkDestinations, markdown: [String: String]), Message> {
        guard let file, file != "-" else { return .failure(Message(text: LocalizedText("cli.render.error.notebookNeedsFile"))) }
        let (notebook, _, refusal) = NotebookFolder.indexed(path: folder)
        for problem in notebook.configuration.problems {
            MacMDCommandLine.writeError("render", LocalizedText("cli.error.configuration", .string(problem.string(in: MacMDCommandLine.locale))))
        }
        if let refusal {
            return .failure(Message(text: LocalizedText("cli.render.error.cannotIndex", .string(folder), .text(refusal.text))))
        }
        let root = notebook.resolvedPath
        guard let resolved = realpath(file, nil) else { return .failure(Message(text: LocalizedText("cli.render.error.cannotFind", .string(file)))) }
        let path = String(cString: resolved)
        free(resolved)
        let prefix = root.hasSuffix("/") ? root : root + "/"
        guard path.utf8.starts(with: prefix.utf8) else {
            return .failure(Message(text: LocalizedText("cli.render.error.outsideNotebook", .string(file), .string(folder))))
        }
        let relative = String(decoding: path.utf8.dropFirst(prefix.utf8.count), as: UTF8.self)
        let fileExists = { (path: String) in FileReader.exists(root + "/" + path) }
        let parseOptions = notebook.configuration.parseOptions
        let host = DocumentAnalysis(version: nil, text: source, options: parseOptions)
        let transclusion = Transclusion(notebook: notebook.notebook, hostPath: relative, page: page, parseOptions: parseOptions,
                                        depth: notebook.configuration.previewEmbedDepth, source: { path in
            if path == relative { return host }
            guard case .success(let text) = FileReader.contents(of: root + "/" + path) else { return nil }
            return DocumentAnalysis(version: nil, text: text, options: parseOptions)
        }, fileExists: fileExists)
        let wiki = transclusion.embedding(PreviewLinks.destinations(of: tree, notebook: notebook.notebook, notePath: relative,
                                                                    fileExists: fileExists),
                                          of: tree, notePath: relative)
        let links = NoteSymbols.extract(from: tree, path: relative).links
        return .success((wiki, PreviewLinks.markdownDestinations(of: links, catalog: notebook.notebook.catalog, notePath: relative)))
    }

    /// Parses the arguments after `render`; `--name=value` and `--name value` both work.
    static func parse(_ arguments: [String]) -> ParseOutcome {
        var settings = Settings()
        var index = 0
        var onlyPaths = false
        func value(for name: String, inline: String?) -> String? {
            if let inline { return inline }
            index += 1
            return index < arguments.count ? arguments[index] : nil
        }
        while index < arguments.count {
            let argument = arguments[index]
            if onlyPaths || argument == "-" || !argument.hasPrefix("-") {
                guard settings.path == nil else { return .error(LocalizedText("cli.render.error.moreThanOneFile", .string(argument))) }
                settings.path = argument
                index += 1
                continue
            }
            var name = argument
            var inline: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            switch name {
            case "--":
                onlyPaths = true
            case "-h", "--help":
                return .help
            case "--profile":
                guard let text = value(for: name, inline: inline) else { return .error(LocalizedText("cli.render.error.needsValue", .string(name))) }
                guard let profile = ParseOptions.Profile(rawValue: text) else {
                    return .error(LocalizedText("cli.render.error.unknownProfile", .string(text)))
                }
                settings.profile = profile
            case "--extensions":
                guard let text = value(for: name, inline: inline) else { return .error(LocalizedText("cli.render.error.needsValue", .string(name))) }
                var extensions: ParseOptions.Extensions = []
                for part in text.split(separator: ",") {
                    let word = part.trimmingSpaces().lowercased()
                    if word.isEmpty { continue }
                    guard let match = ParseOptions.Extensions.byName.first(where: { $0.0 == word }) else {
                        return .error(LocalizedText("cli.render.error.unknownExtension", .string(word)))
                    }
                    extensions.insert(match.1)
                }
                settings.extensions = extensions
            case "--theme":
                guard let text = value(for: name, inline: inline) else { return .error(LocalizedText("cli.render.error.needsValue", .string(name))) }
                guard let theme = PreviewTheme(rawValue: text) else {
                    return .error(LocalizedText("cli.render.error.unknownTheme", .string(text), .string(PreviewTheme.namesList)))
                }
                settings.html.theme = theme
            case "--math":
                guard let text = value(for: name, inline: inline) else { return .error(LocalizedText("cli.render.error.mathNeedsValue")) }
                guard let math = MathMarkup(rawValue: text) else {
                    return .error(LocalizedText("cli.render.error.unknownMath", .string(text), .string(MathMarkup.namesList)))
                }
                settings.math = math
            case "--title":
                guard let text = value(for: name, inline: inline) else { return .error(LocalizedText("cli.render.error.needsValue", .string(name))) }
                settings.html.title = text
            case "--notebook":
                guard let text = value(for: name, inline: inline) else { return .error(LocalizedText("cli.render.error.notebookNeedsFolder")) }
                settings.notebook = text
            case "--unsafe", "--full-page", "--source-lines", "--heading-ids":
                if inline != nil { return .error(LocalizedText("cli.render.error.takesNoValue", .string(name))) }
                switch name {
                case "--unsafe": settings.html.safe = false
                case "--full-page": settings.html.fullPage = true
                case "--source-lines": settings.html.sourceLines = true
                default: settings.headingIDs = true
                }
            default:
                return .error(LocalizedText("cli.error.unknownOption", .string(argument)))
            }
            index += 1
        }
        return .settings(settings)
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
