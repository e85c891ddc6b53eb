// The pages of a site: a note's page (the preview's HTML of the note, its backlinks and counts),
// the index, the page of all tags and a tag's page, each in the site's frame (`SiteHTML`).

import Localization
import MarkdownHTML
import NotebookIndex
import NotebookWorkspace

extension Site {
    /// The page of `item`; nil for a note that cannot be read (or is not published).
    public func page(_ item: Item) -> SitePage? {
        switch item {
        case .note(let path): return notePage(path)
        case .index: return indexPage()
        case .tags: return tagsPage()
        case .tag(let name): return tagPage(name)
        }
    }

    /// The climb from the folder of the page at `path` to the site's root: `""` at the root,
    /// else `../` once a folder.
    static func climb(from path: String) -> String {
        String(repeating: "../", count: path.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "/") ? 1 : 0) })
    }

    /// The URL of the page at `target` from the page at `from`, relative and percent-encoded:
    /// the climb to the site's root, then the target's path (a list of thousands of notes makes
    /// no shortest path for each).
    static func url(of target: String, from page: String) -> String {
        climb(from: page) + PreviewLinks.encoded(target)
    }

    func frame(path: String, title: String) -> SiteHTML {
        SiteHTML(climb: Site.climb(from: path), siteTitle: self.title, pageTitle: title, notesPage: pages.notesPage,
                 theme: theme, locale: options.locale)
    }

    /// A note's page: its HTML as the preview renders it (links to pages, left-out notes as
    /// text), then the notes that link to it, then its counts.
    func notePage(_ path: String) -> SitePage? {
        guard let pagePath = pages.page(of: path) else { return nil }
        let note = NoteRef(folder: folder.path, path: path)
        guard let analysis = snapshot.source(of: note) else { return nil }
        let climb = Site.climb(from: pagePath)
        var options = PreviewOptions()
        options.fullPage = false
        options.sourceLines = false
        options.resources = .base(climb.isEmpty ? "./" : climb)
        options.theme = theme
        options.math = .mathML
        options.locale = self.options.locale
        options.tagPages = climb + SitePages.tagFolder + "/"
        let (preview, pieces) = snapshot.preview(analysis, note: note, file: folder.absolutePath(path),
                                                 fileName: NotebookPath.lastComponent(of: path), options: options, pages: pages)
        var html = frame(path: pagePath, title: preview.title)
        html.open()
        // The note's text runs in its own direction, whatever the language of the site's frame
        // (an English note in a site made in Arabic reads left to right).
        html.write(self.options.locale.isRightToLeft ? "<article class=\"markdown-body\" dir=\"auto\">\n" : "<article class=\"markdown-body\">\n")
        for piece in pieces { html.out += piece }
        html.write("</article>\n")
        // The notes that link here, by title, each once (the note itself and left-out notes not).
        if let linkers = backlinks[path], !linkers.isEmpty {
            html.write("<nav class=\"backlinks\">\n<h2>")
            html.text(LocalizedText("site.backlinks", .integer(linkers.count)))
            html.write("</h2>\n<ul>\n")
            for source in linkers {
                html.listItem(href: Site.url(of: pages.page(of: source) ?? source, from: pagePath), text: noteTitle(source))
            }
            html.write("</ul>\n</nav>\n")
        }
        let counts = HTMLOptions.PageStatistics(words: preview.wordCount, characters: preview.characterCount,
                                                readingMinutes: preview.readingTimeMinutes)
        html.write("<footer class=\"page-statistics\">")
        html.escape(counts.text(in: self.options.locale))
        html.write("</footer>\n")
        return SitePage(path: pagePath, bytes: html.close())
    }

    /// The list of every note (the index of a notebook without a home note): by title, the
    /// root's first, then each folder's under its name.
    func indexPage() -> SitePage {
        let path = pages.notesPage
        var html = frame(path: path, title: title)
        html.open()
        html.write("<article class=\"markdown-body site-index\">\n<h1>")
        html.escape(title)
        html.write("</h1>\n<p class=\"site-count\">")
        html.text(LocalizedText("site.index.count", .integer(pages.pageByNote.count)))
        html.write("</p>\n")
        var byFolder: [String: [String]] = [:]
        for note in pages.pageByNote.keys { byFolder[NotebookPath.folder(of: note), default: []].append(note) }
        for folderName in byFolder.keys.sorted() {
            if !folderName.isEmpty {
                html.write("<h2>")
                html.escape(folderName)
                html.write("</h2>\n")
            }
            html.write("<ul>\n")
            for note in sortedByTitle(byFolder[folderName] ?? []) {
                html.listItem(href: Site.url(of: pages.page(of: note) ?? note, from: path), text: noteTitle(note))
            }
            html.write("</ul>\n")
        }
        html.write("</article>\n")
        return SitePage(path: path, bytes: html.close())
    }

    /// The page of all tags: a tree, nested tags under the tag they are nested in, each with its
    /// count of notes.
    func tagsPage() -> SitePage {
        let path = SitePages.tagsIndex
        let heading = LocalizedText("site.tags").string(in: options.locale)
        var html = frame(path: path, title: heading)
        html.open()
        html.write("<article class=\"markdown-body site-tags\">\n<h1>")
        html.escape(heading)
        html.write("</h1>\n")
        let names = tagNames
        if names.isEmpty {
            html.write("<p>")
            html.text(LocalizedText("site.tags.none"))
            html.write("</p>\n")
        }
        // A depth-first walk of the sorted names: `a` < `a/b` < `a/b/c` < `b`.
        var depth = 0
        for name in names {
            let level = name.utf8.reduce(1) { $0 + ($1 == UInt8(ascii: "/") ? 1 : 0) }
            if level > depth {
                while depth < level {
                    html.write(depth == 0 ? "<ul class=\"tag-tree\">\n" : "\n<ul>\n")
                    depth += 1
                }
            } else {
                html.write("</li>\n")
                while depth > level {
                    html.write("</ul>\n</li>\n")
                    depth -= 1
                }
            }
            html.write("<li><a class=\"tag\" href=\"")
            html.escape(Site.url(of: SitePages.tagPage(name), from: path))
            html.write("\">#")
            html.escape(name)
            html.write("</a> <span class=\"site-count\">")
            html.escape(String(notesByTag[name]?.count ?? 0))
            html.write("</span>")
        }
        while depth > 0 {
            html.write("</li>\n</ul>\n")
            depth -= 1
        }
        html.write("</article>\n")
        return SitePage(path: path, bytes: html.close())
    }

    /// A tag's page: the notes that carry the tag itself, then, for each tag nested under it,
    /// a link to its page and its notes.
    func tagPage(_ name: String) -> SitePage? {
        guard notesByTag[name] != nil else { return nil }
        let path = SitePages.tagPage(name)
        var html = frame(path: path, title: "#" + name)
        html.open()
        html.write("<article class=\"markdown-body site-tag\">\n<h1><span class=\"tag\">#")
        html.escape(name)
        html.write("</span></h1>\n<p class=\"site-count\"><a href=\"")
        html.escape(Site.url(of: SitePages.tagsIndex, from: path))
        html.write("\">")
        html.text(LocalizedText("site.tags"))
        html.write("</a></p>\n")
        let notebook = folder.notebook
        var own = Set<String>()
        for note in notesByTag[name] ?? [] where notebook.notes[note]?.tags.contains(where: { $0.name == name }) == true {
            own.insert(note)
        }
        if !own.isEmpty {
            html.write("<ul>\n")
            for note in sortedByTitle(own) {
                html.listItem(href: Site.url(of: pages.page(of: note) ?? note, from: path), text: noteTitle(note))
            }
            html.write("</ul>\n")
        }
        // The tags nested under it are one run of the sorted names (those starting `name/`),
        // found by a binary search rather than a scan of every name.
        let prefix = name + "/"
        var low = 0
        var high = tagNames.count
        while low < high {
            let middle = (low + high) / 2
            if tagNames[middle] < prefix { low = middle + 1 } else { high = middle }
        }
        for nested in tagNames[low...].prefix(while: { $0.hasPrefix(prefix) }) {
            let notes = (notesByTag[nested] ?? []).filter { notebook.notes[$0]?.tags.contains(where: { $0.name == nested }) == true }
            if notes.isEmpty { continue }
            html.write("<h2><a class=\"tag\" href=\"")
            html.escape(Site.url(of: SitePages.tagPage(nested), from: path))
            html.write("\">#")
            html.escape(nested)
            html.write("</a></h2>\n<ul>\n")
            for note in sortedByTitle(notes) {
                html.listItem(href: Site.url(of: pages.page(of: note) ?? note, from: path), text: noteTitle(note))
            }
            html.write("</ul>\n")
        }
        html.write("</article>\n")
        return SitePage(path: path, bytes: html.close())
    }

    /// The title a list shows for a note: the index's (front matter, first heading, file name).
    func noteTitle(_ path: String) -> String { Site.title(of: path, in: folder.notebook) }

    static func title(of path: String, in notebook: Notebook) -> String {
        let title = notebook.notes[path]?.title ?? ""
        return title.isEmpty ? NotebookPath.fileStem(of: path) : title
    }

    /// Notes by title as a reader sorts them (case and accents folded), then by path.
    func sortedByTitle<Notes: Collection<String>>(_ notes: Notes) -> [String] {
        // Each note's rank looked up once, not once per comparison.
        notes.map { (titleRank[$0, default: .max], $0) }.sorted { $0 < $1 }.map(\.1)
    }
}
