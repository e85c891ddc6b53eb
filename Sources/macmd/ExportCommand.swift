// `macmd export PATH --pdf --out FILE.pdf`: a note, or a whole notebook, as one PDF, printed by
// a headless Chromium or Chrome from the page the preview renders (theme, highlighted code,
// maths as MathML, embeds shown in place, images from the notebook).
//
// Invariants:
// - The page is the preview's (`AnalysisSnapshot.preview`, absolute `file:` URLs so images load
//   from anywhere), without its statistics footer; a notebook prints its notes one after the
//   other, each from a new page, each with its own id prefix so anchors never collide.
// - Page size and margins are the printed page's CSS (`@page`), added to the page's head.
// - The browser is `MACMD_CHROMIUM`, else the first of chromium, chromium-browser,
//   google-chrome, google-chrome-stable, chrome on PATH; without one, a message that says what
//   to install and exit status 2. The PDF is written to a file beside `--out` and moved into
//   place only when the browser succeeded, so a failed export never leaves half a file.
//
// Exit status: 0, 1 when the browser failed, 2 for usage errors, paths that cannot be read,
// an `--out` that cannot be written, or no browser.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CommandLineIO
import Localization
import MarkdownHTML
import NotebookIDE
import NotebookIndex
import NotebookWorkspace
import Themes

enum ExportCommand {
    /// `macmd export --help` in the writer's language.
    static var usage: String {
        // l10n-exempt: the synopsis is typed as shown
        HelpText.usage(["macmd export NOTEBOOK --out FOLDER [--theme NAME] [--title TEXT] [--base-url URL] [--quiet]",
                        // l10n-exempt: the synopsis is typed as shown
                        "PATH --pdf --out FILE.pdf [--page-size SIZE] [--margin LENGTH] [--theme NAME]"]) + "\n"
            + HelpText.paragraph(LocalizedText("cli.export.help.site")) + "\n"
            + HelpText.paragraph(LocalizedText("cli.export.help"))
    }

    /// What the command line asked for.
    struct Settings {
        var path: String?
        var pdf = false
        var out: String?
        var pageSize = "A4"
        var margin = "20mm"
        var theme = PreviewTheme.light
        var themeGiven = false
        var title: String?
        var baseURL: String?
        var quiet = false
    }

    static func run(_ arguments: [String]) -> Int32 {
        var settings = Settings()
        var i = 0
        func value(_ name: String) -> String? {
            i += 1
            return i < arguments.count ? arguments[i] : nil
        }
        while i < arguments.count {
            switch arguments[i] {
            case "--pdf": settings.pdf = true
            case "-q", "--quiet": settings.quiet = true
            case "--out", "--page-size", "--margin", "--theme", "--title", "--base-url":
                let name = arguments[i]
                guard let given = value(name), !given.isEmpty else {
                    return MacMDCommandLine.usageError("export", LocalizedText("cli.render.error.needsValue", .string(name)))
                }
                switch name {
                case "--out": settings.out = given
                case "--title": settings.title = given
                case "--base-url": settings.baseURL = given
                case "--page-size":
                    guard isSafeCSS(given) else { return MacMDCommandLine.usageError("export", LocalizedText("cli.export.error.pageSize", .string(given))) }
                    settings.pageSize = given
                case "--margin":
                    guard isSafeCSS(given) else { return MacMDCommandLine.usageError("export", LocalizedText("cli.export.error.margin", .string(given))) }
                    settings.margin = given
                default:
                    guard let theme = PreviewTheme(rawValue: given) else {
                        return MacMDCommandLine.usageError("export", LocalizedText("cli.render.error.unknownTheme", .string(given), .string(PreviewTheme.namesList)))
                    }
                    settings.theme = theme
                    settings.themeGiven = true
                }
            case "-h", "--help":
                StandardStreams.writeOutput(Array(usage.utf8))
                return 0
            case let argument where argument.hasPrefix("-"):
                return MacMDCommandLine.usageError("export", LocalizedText("cli.error.unknownOption", .string(argument)))
            default:
                guard settings.path == nil else {
                    return MacMDCommandLine.usageError("export", LocalizedText("cli.render.error.moreThanOneFile", .string(arguments[i])))
                }
                settings.path = arguments[i]
            }
            i += 1
        }
        guard let path = settings.path, let out = settings.out else {
            return MacMDCommandLine.usageError("export", LocalizedText("cli.export.error.needs"))
        }
        if !settings.pdf { return exportSite(path, to: out, settings: settings) }
        // The folder of --out must be there and writable before anything is rendered.
        let outFolder = out.contains("/") ? String(out[..<(out.lastIndex(of: "/") ?? out.endIndex)]) : "."
        guard FileReader.isDirectory(outFolder.isEmpty ? "/" : outFolder), access(outFolder.isEmpty ? "/" : outFolder, W_OK) == 0,
              !FileReader.isDirectory(out) else {
            MacMDCommandLine.writeError("export", LocalizedText("cli.export.error.out", .string(out)))
            return 2
        }
        guard let browser = findBrowser() else {
            MacMDCommandLine.writeError("export", LocalizedText("cli.export.error.noBrowser"))
            return 2
        }
        guard let html = page(of: path, settings: settings) else { return 2 }
        return print(html, with: browser, to: out)
    }

    /// A page size or margin as CSS takes it, with nothing that could end the rule: letters,
    /// digits, spaces, dots, hyphens and percent signs.
    static func isSafeCSS(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 40
            && text.utf8.allSatisfy { ($0 | 0x20) &- 0x61 < 26 || $0 &- 0x30 < 10 || $0 == 0x20 || $0 == 0x2E || $0 == 0x2D || $0 == 0x25 }
    }

    /// The browser that prints: `MACMD_CHROMIUM`, else the first known name on PATH.
    static func findBrowser() -> String? {
        let environment = MacMDCommandLine.environment()
        if let named = environment["MACMD_CHROMIUM"], !named.isEmpty {
            return named.contains("/") ? (access(named, X_OK) == 0 ? named : nil) : search(named, in: environment["PATH"] ?? "")
        }
        for name in ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"] {
            if let found = search(name, in: environment["PATH"] ?? "") { return found }
        }
        return nil
    }

    static func search(_ name: String, in path: String) -> String? {
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = folder + "/" + name
            if access(candidate, X_OK) == 0, !FileReader.isDirectory(candidate) { return candidate }
        }
        return nil
    }

    /// The page to print: the note's, or each note of the notebook one after the other; nil,
    /// with the reason written, when it cannot be made.
    static func page(of path: String, settings: Settings) -> [UInt8]? {
        let isFolder = FileReader.isDirectory(path)
        guard isFolder || FileReader.exists(path) else {
            MacMDCommandLine.writeError("export", LocalizedText("cli.render.error.cannotFind", .string(path)))
            return nil
        }
        let root = isFolder ? path : notebookRoot(of: path)
        guard let folder = MacMDCommandLine.indexedNotebook(root, command: "export") else { return nil }
        let snapshot = MacMDCommandLine.snapshot(of: folder)
        let files: [String]
        if isFolder {
            files = SitePages.readingOrder(Array(folder.notebook.notes.keys)).map(folder.absolutePath)
        } else {
            guard let resolved = realpath(path, nil) else { return nil }
            files = [String(cString: resolved)]
            free(resolved)
        }
        guard !files.isEmpty else {
            MacMDCommandLine.writeError("export", LocalizedText("cli.check.noNotes", .string(path)))
            return nil
        }
        var options = PreviewOptions()
        options.fullPage = true
        options.sourceLines = false
        options.resources = .absolute
        options.theme = settings.theme
        options.math = .mathML
        options.locale = MacMDCommandLine.locale
        options.statisticsFooter = false
        var head: [UInt8] = []
        var articles: [[UInt8]] = []
        for (index, file) in files.enumerated() {
            guard let view = snapshot.view(ofFile: file) else {
                MacMDCommandLine.writeError("export", LocalizedText("cli.render.error.cannotFind", .string(file)))
                return nil
            }
            options.idPrefix = files.count > 1 ? "n\(index + 1)-" : ""
            let note = view.isStandalone ? nil : view.note
            let (_, pieces) = snapshot.preview(view.analysis, note: note, file: file, fileName: NotebookPath.lastComponent(of: file),
                                               options: options)
            let html = Array(pieces.joined())
            guard let start = find(articleStart, in: html), let end = find(articleEnd, in: html, last: true), start.upperBound <= end.lowerBound else {
                return nil
            }
            if head.isEmpty { head = Array(html[..<start.upperBound]) }
            articles.append(Array(html[start.upperBound..<end.lowerBound]))
        }
        let printStyle = "<style>@page { size: \(settings.pageSize); margin: \(settings.margin); }\n"
            + ".markdown-body { max-width: none; padding: 0; }\n"
            + "section.note + section.note { break-before: page; }\n"
            + "pre, blockquote, table, figure, .math-display { break-inside: avoid; }\n"
            + "h1, h2, h3, h4, h5, h6 { break-after: avoid; }</style>\n"
        if let headEnd = find(Array("</head>".utf8), in: head) { head.insert(contentsOf: Array(printStyle.utf8), at: headEnd.lowerBound) }
        var page = head
        for article in articles {
            // l10n-exempt: HTML markup
            page += Array("<section class=\"note\">\n".utf8) + article + Array("</section>\n".utf8)
        }
        return page + articleEnd + Array("\n</body>\n</html>\n".utf8)
    }

    /// The notebook a note belongs to: the nearest folder above it with a root marker
    /// (`.macmd.json`, `.obsidian`, `.git`, …), else the note's own folder; so its links reach
    /// the notes outside its folder.
    static func notebookRoot(of file: String) -> String {
        let start = NotebookPath.folder(of: file).isEmpty ? "." : NotebookPath.folder(of: file)
        guard let resolved = realpath(start, nil) else { return start }
        var folder = String(cString: resolved)
        free(resolved)
        while true {
            if NotebookFolder.rootMarkers.contains(where: { FileReader.exists(folder + "/" + $0) }) { return folder }
            guard let slash = folder.lastIndex(of: "/"), folder != "/" else { return start }
            folder = slash == folder.startIndex ? "/" : String(folder[..<slash])
        }
    }

    /// Where `needle` is in `haystack`: its first place, or with `last` its last.
    static func find(_ needle: [UInt8], in haystack: [UInt8], last: Bool = false) -> Range<Int>? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        let starts = 0...(haystack.count - needle.count)
        let match = { (start: Int) in haystack[start..<(start + needle.count)].elementsEqual(needle) }
        guard let start = last ? starts.reversed().first(where: match) : starts.first(where: match) else { return nil }
        return start..<(start + needle.count)
    }

    // l10n-exempt: HTML markup the renderer writes
    static let articleStart = Array("<article class=\"markdown-body\">\n".utf8)
    static let articleEnd = Array("</article>".utf8)

    /// Prints `html` to the PDF `out` with `browser`; the exit status.
    static func print(_ html: [UInt8], with browser: String, to out: String) -> Int32 {
        var template = Array("/tmp/macmd-export-XXXXXX".utf8CString)
        guard let folder = mkdtemp(&template).map({ String(cString: $0) }) else {
            MacMDCommandLine.writeError("export", LocalizedText("cli.export.error.out", .string(out)))
            return 2
        }
        defer {
            unlink(folder + "/page.html")
            unlink(folder + "/browser.log")
            rmdir(folder)
        }
        let pagePath = folder + "/page.html"
        guard replace(pagePath, with: html) else {
            MacMDCommandLine.writeError("export", LocalizedText("cli.export.error.out", .string(pagePath)))
            return 2
        }
        let partial = out + ".part"
        var arguments = [browser, "--headless", "--disable-gpu", "--no-pdf-header-footer", "--run-all-compositor-stages-before-draw",
                         "--user-data-dir=" + folder + "/profile", "--print-to-pdf=" + partial, "file://" + pagePath]
        // Chromium refuses to run as root without its sandbox switched off.
        if geteuid() == 0 { arguments.insert("--no-sandbox", at: 1) }
        let status = run(arguments, log: folder + "/browser.log")
        removeTree(folder + "/profile")
        guard status == 0, FileReader.exists(partial), rename(partial, out) == 0 else {
            unlink(partial)
            let log = (try? FileReader.contents(of: folder + "/browser.log").get()).map { String(decoding: $0, as: UTF8.self) } ?? ""
            // The browser's last word, in English, without its D-Bus complaints.
            if let reason = log.split(separator: "\n").last(where: { !$0.contains("dbus") }) {
                MacMDCommandLine.writeError("export", LocalizedText("cli.export.error.browser", .string(browser), .string(String(reason))))
            } else {
                MacMDCommandLine.writeError("export", LocalizedText("cli.export.error.browserStatus", .string(browser), .integer(Int(status))))
            }
            return 1
        }
        return 0
    }

    /// Runs `arguments`, its output and errors to the file `log`; its exit status (-1 when it
    /// could not start).
    static func run(_ arguments: [String], log: String) -> Int32 {
        let started = Subprocess.spawn(arguments) { actions in
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        guard let pid = started else { return -1 }
        return Subprocess.wait(for: pid)
    }

    /// Removes the browser's profile folder (files and folders under `path`).
    static func removeTree(_ path: String) {
        guard let directory = opendir(path) else {
            unlink(path)
            return
        }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            if name == "." || name == ".." { continue }
            let child = path + "/" + name
            if FileReader.isDirectory(child) { removeTree(child) } else { unlink(child) }
        }
        closedir(directory)
        rmdir(path)
    }
}
