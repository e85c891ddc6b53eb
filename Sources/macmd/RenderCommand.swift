// `macmd render`: Markdown in (a file or stdin), HTML out (stdout, one write).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import JSONRPC
import NotebookWorkspace
import MarkdownSyntax
import MarkdownHTML
import NotebookIDE
import NotebookIndex

/// The `render` subcommand.
enum RenderCommand {
    static let usage = """
        usage: macmd render [FILE|-] [options]

        Renders Markdown to HTML on stdout. Reads stdin when FILE is `-` or absent.

        Options:
          --profile commonmark|gfm|notebook
                              Syntax to recognise (default: notebook). `gfm` and `notebook`
                              also collapse <strong> nested directly in <strong>, as GitHub does;
                              `notebook` also gives headings GitHub-style ids.
          --extensions a,b,...
                              Add these extensions to the profile's:
                              table, strikethrough, autolink, tagfilter, tasklist, footnotes,
                              alerts, frontmatter, wikilinks, tags, blockids, math
                              (`--profile commonmark --extensions table` is CommonMark + tables)
          --unsafe            Pass raw HTML and every URL through. Without it (the default) raw
                              HTML is replaced by <!-- raw HTML omitted --> and javascript:,
                              vbscript:, file: and non-image data: URLs become empty.
          --heading-ids       Give headings GitHub-style ids in any profile
          --source-lines      Add data-source-line="N" (1-based) to block elements
          --full-page         Write a complete HTML page with inline CSS
          --math mathml|tex   How maths is written: MathML, which browsers draw without a
                              script (the default with --full-page), or the TeX between \\(…\\)
                              and \\[…\\] for KaTeX or MathJax (the default otherwise). In
                              MathML, a formula that is not understood shows as its TeX in
                              <code class="math-error" title="why">.
          --title TEXT        Page title for --full-page (default: the first heading)
          --theme NAME        Colour theme for --full-page (default: light): light, dark, basic,
                              grass, homebrew, man-page, novel, ocean, pro, red-sands,
                              silver-aerogel, solid-colors
          --notebook DIR      Resolve wiki-links and embeds in the notebook in DIR (with its
                              .macmd.json) as the editor preview does: hrefs relative to FILE,
                              which must be inside DIR; a link that reaches nothing gets
                              class="wikilink broken" and no href. Without it, [[note]] links to
                              note.md as written.
          -h, --help          Show this help

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
        case error(String)
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
            StandardStreams.writeError("macmd render: \(error.message)\n")
            return 2
        case .success(let bytes):
            source = bytes
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
            switch destinations(of: tree, file: settings.path, notebook: folder) {
            case .success(let destinations):
                options.wikiLinkDestinations = destinations.wiki
                options.linkDestinations = destinations.markdown
            case .failure(let message):
                StandardStreams.writeError("macmd render: \(message.text)\n")
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
        var text: String
    }

    /// Where the wiki-links of `tree` (the note `file`) point in the notebook in `folder`, indexed
    /// with its `.macmd.json` as `macmd check` and the server do, and the Markdown links the
    /// notebook finds elsewhere than their path says (by name, published pages).
    static func destinations(of tree: SyntaxTree, file: String?, notebook folder: String)
        -> Result<(wiki: WikiLinkDestinations, markdown: [String: String]), Message> {
        guard let file, file != "-" else { return .failure(Message(text: "--notebook needs the note as FILE, inside DIR")) }
        let (notebook, _, refusal) = NotebookFolder.indexed(path: folder)
        for problem in notebook.configuration.problems { StandardStreams.writeError("macmd render: configuration: \(problem.string(in: MacMDCommandLine.locale))\n") }
        if let refusal { return .failure(Message(text: "cannot index \(folder): \(MacMDCommandLine.text(refusal.text))")) }
        let root = notebook.resolvedPath
        guard let resolved = realpath(file, nil) else { return .failure(Message(text: "cannot find \(file)")) }
        let path = String(cString: resolved)
        free(resolved)
        let prefix = root.hasSuffix("/") ? root : root + "/"
        guard path.utf8.starts(with: prefix.utf8) else {
            return .failure(Message(text: "\(file) is not inside the notebook \(folder)"))
        }
        let relative = String(decoding: path.utf8.dropFirst(prefix.utf8.count), as: UTF8.self)
        let wiki = PreviewLinks.destinations(of: tree, notebook: notebook.notebook, notePath: relative) {
            FileReader.exists(root + "/" + $0)
        }
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
                guard settings.path == nil else { return .error("more than one input file ('\(argument)')") }
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
                guard let text = value(for: name, inline: inline) else { return .error("--profile needs a value") }
                guard let profile = ParseOptions.Profile(rawValue: text) else {
                    return .error("unknown profile '\(text)' (commonmark, gfm or notebook)")
                }
                settings.profile = profile
            case "--extensions":
                guard let text = value(for: name, inline: inline) else { return .error("--extensions needs a value") }
                var extensions: ParseOptions.Extensions = []
                for part in text.split(separator: ",") {
                    let word = part.trimmingSpaces().lowercased()
                    if word.isEmpty { continue }
                    guard let match = ParseOptions.Extensions.byName.first(where: { $0.0 == word }) else {
                        return .error("unknown extension '\(word)'")
                    }
                    extensions.insert(match.1)
                }
                settings.extensions = extensions
            case "--theme":
                guard let text = value(for: name, inline: inline) else { return .error("--theme needs a value") }
                guard let theme = PreviewTheme(rawValue: text) else {
                    return .error("unknown theme '\(text)' (\(PreviewTheme.namesList))")
                }
                settings.html.theme = theme
            case "--math":
                guard let text = value(for: name, inline: inline) else { return .error("--math needs a value (mathml or tex)") }
                guard let math = MathMarkup(rawValue: text) else {
                    return .error("unknown maths output '\(text)' (\(MathMarkup.namesList))")
                }
                settings.math = math
            case "--title":
                guard let text = value(for: name, inline: inline) else { return .error("--title needs a value") }
                settings.html.title = text
            case "--notebook":
                guard let text = value(for: name, inline: inline) else { return .error("--notebook needs a folder") }
                settings.notebook = text
            case "--unsafe", "--full-page", "--source-lines", "--heading-ids":
                if inline != nil { return .error("\(name) takes no value") }
                switch name {
                case "--unsafe": settings.html.safe = false
                case "--full-page": settings.html.fullPage = true
                case "--source-lines": settings.html.sourceLines = true
                default: settings.headingIDs = true
                }
            default:
                return .error("unknown option '\(argument)'")
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
