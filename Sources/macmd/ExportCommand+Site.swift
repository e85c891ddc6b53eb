// `macmd export NOTEBOOK --out DIR`: the notebook as a static website (NotebookIDE's `Site`
// makes the pages; this file writes them, copies the files they show and keeps the folder in
// step with the notebook from one export to the next).
//
// Invariants:
// - `--out` is a folder (made when missing) that neither lies inside the notebook nor holds
//   it, and that can be written; otherwise a message and exit status 2, before anything is
//   written.
// - The folder's manifest (`.macmd-export`) lists what the last export wrote: each page with a
//   hash of its bytes, each copied file with its source's size and time. A page is written only
//   when its bytes changed or its file is gone, a file copied only when its source changed; a
//   page or file the notebook no longer has is removed (and its folder, once empty). Nothing
//   the manifest does not list is ever removed.
// - Each file is written beside its place and moved there, so a reader of the site never sees
//   half a page; the manifest is written last, so an interrupted export is finished by the next.
// - Pages are made on every core, a batch at a time, so memory holds one batch, not the site.
// - A progress bar on standard error when it is a terminal (not with `--quiet`); the summary
//   line on standard output.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CommandLineIO
import Dispatch
import Localization
import NotebookIDE
import NotebookIndex
import NotebookWorkspace

extension ExportCommand {
    /// The manifest's name in the site's folder.
    static let manifestName = ".macmd-export"

    /// Exports the notebook at `path` as a site into `out`; the exit status.
    static func exportSite(_ path: String, to out: String, settings: Settings) -> Int32 {
        guard FileReader.isDirectory(path), let root = resolved(path) else {
            MacMDCommandLine.writeError("export", LocalizedText(FileReader.exists(path) ? "cli.export.error.siteNeedsFolder" : "cli.render.error.cannotFind",
                                                                .string(path)))
            return 2
        }
        guard let outFolder = prepareOutput(out, notebook: root) else { return 2 }
        guard let folder = MacMDCommandLine.indexedNotebook(root, named: path, command: "export") else { return 2 }
        var options = SiteOptions()
        options.theme = settings.themeGiven ? settings.theme : nil
        options.locale = MacMDCommandLine.locale
        options.title = settings.title ?? ""
        options.baseURL = settings.baseURL
        guard let site = Site(snapshot: MacMDCommandLine.snapshot(of: folder), folderPath: folder.path, options: options) else { return 2 }

        let old = Manifest(reading: outFolder + "/" + manifestName)
        var new = Manifest()
        var writer = SiteWriter(folder: outFolder, old: old)
        let items = site.items
        let progress = Progress(total: items.count, shown: !settings.quiet && isatty(2) == 1)

        // The pages, a batch at a time, made on every core and written here.
        let batchSize = 64
        var start = 0
        while start < items.count {
            let batch = Array(items[start..<min(start + batchSize, items.count)])
            let made = ResultsBox<SitePage>(count: batch.count)
            DispatchQueue.concurrentPerform(iterations: batch.count) { index in
                made.set(index, site.page(batch[index]))
            }
            for index in batch.indices {
                guard let page = made.value(index) else {
                    if case .note(let note) = batch[index] {
                        MacMDCommandLine.writeError("export", LocalizedText("cli.render.error.cannotFind", .string(folder.absolutePath(note))))
                    }
                    writer.failed = true
                    continue
                }
                writer.write(page, into: &new)
            }
            start += batch.count
            progress.advance(to: start)
        }
        writer.write(site.stylesheet, into: &new)
        if let sitemap = site.sitemap { writer.write(sitemap, into: &new) }
        // The files the pages show and link to; a page of the same path wins.
        for file in site.files where new.pages[file] == nil {
            writer.copy(folder.absolutePath(file), to: file, into: &new)
        }
        progress.finish()
        let removed = writer.removeAll(old, except: new)
        guard new.write(to: outFolder + "/" + manifestName), !writer.failed else {
            if !writer.failed { MacMDCommandLine.writeError("export", LocalizedText("cli.export.error.write", .string(outFolder + "/" + manifestName))) }
            return 1
        }
        if !settings.quiet {
            let parts = [LocalizedText("cli.export.site.pages", .integer(items.count)),
                         LocalizedText("cli.export.site.written", .integer(writer.written)),
                         LocalizedText("cli.export.site.copied", .integer(writer.copied)),
                         LocalizedText("cli.export.site.removed", .integer(removed))]
            let line = out + ": " + parts.map(MacMDCommandLine.text).joined(separator: " · ") + "\n"
            _ = StandardStreams.writeOutput(Array(line.utf8))
        }
        return 0
    }

    /// The real path of `path` (symbolic links resolved); nil when it does not exist.
    static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// `out` made ready for the site of the notebook at `notebook` (a real path): made when
    /// missing, refused (with the reason written) when it is a file, inside the notebook or
    /// holding it, or not writable. Its real path.
    static func prepareOutput(_ out: String, notebook: String) -> String? {
        func refuse(_ key: String) -> String? {
            MacMDCommandLine.writeError("export", LocalizedText(key, .string(out)))
            return nil
        }
        if FileReader.exists(out) && !FileReader.isDirectory(out) { return refuse("cli.export.error.outIsFile") }
        // Where it will be: the nearest folder that exists, and the names below it.
        var existing = out.isEmpty ? "." : out
        var missing: [String] = []
        while !FileReader.exists(existing) {
            let name = NotebookPath.lastComponent(of: existing)
            missing.insert(name, at: 0)
            let parent = NotebookPath.folder(of: existing)
            existing = parent.isEmpty ? (existing.hasPrefix("/") ? "/" : ".") : parent
        }
        guard FileReader.isDirectory(existing), let base = resolved(existing) else { return refuse("cli.export.error.outIsFile") }
        let target = missing.reduce(base == "/" ? "" : base) { $0 + "/" + $1 }
        func contains(_ outer: String, _ inner: String) -> Bool { inner == outer || inner.hasPrefix(outer == "/" ? "/" : outer + "/") }
        if contains(notebook, target) { return refuse("cli.export.error.outInside") }
        if contains(target, notebook) { return refuse("cli.export.error.outHolds") }
        var made = base == "/" ? "" : base
        for name in missing {
            made += "/" + name
            if mkdir(made, 0o755) != 0 && errno != EEXIST { return refuse("cli.export.error.outNotWritable") }
        }
        guard access(target, W_OK | X_OK) == 0 else { return refuse("cli.export.error.outNotWritable") }
        return target
    }

    /// What an export wrote: each page's hash, each copied file's source size and time.
    struct Manifest {
        var pages: [String: UInt64] = [:]
        var files: [String: (size: Int64, time: Int64)] = [:]

        init() {}

        /// The manifest at `path`; empty when there is none or it cannot be read (every page is
        /// then written again, and nothing removed).
        init(reading path: String) {
            guard case .success(let bytes) = FileReader.contents(of: path) else { return }
            let lines = bytes.split(separator: 0x0A)
            guard lines.first.map({ String(decoding: $0, as: UTF8.self) }) == Manifest.header else { return }
            for line in lines.dropFirst() {
                let fields = line.split(separator: 0x09, maxSplits: 3, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
                if fields.count == 3, fields[0] == "page", let hash = UInt64(fields[1], radix: 16) {
                    pages[fields[2]] = hash
                } else if fields.count == 4, fields[0] == "file", let size = Int64(fields[1]), let time = Int64(fields[2]) {
                    files[fields[3]] = (size, time)
                }
            }
        }

        // l10n-exempt: a file format
        static let header = "macmd-export 1"

        /// Writes the manifest to `path` (beside it, then moved); false when it cannot.
        func write(to path: String) -> Bool {
            var text = Manifest.header + "\n"
            for (page, hash) in pages.sorted(by: { $0.key < $1.key }) {
                text += "page\t" + String(hash, radix: 16) + "\t" + page + "\n"
            }
            for (file, source) in files.sorted(by: { $0.key < $1.key }) {
                text += "file\t\(source.size)\t\(source.time)\t" + file + "\n"
            }
            return ExportCommand.replace(path, with: Array(text.utf8))
        }
    }

    /// Writes the site's files and counts what it did.
    struct SiteWriter {
        let folder: String
        let old: Manifest
        var written = 0
        var copied = 0
        var failed = false

        init(folder: String, old: Manifest) {
            self.folder = folder
            self.old = old
        }

        /// Writes `page` unless the last export wrote the same bytes and they are still there.
        mutating func write(_ page: SitePage, into manifest: inout Manifest) {
            let hash = ExportCommand.fnv1a(page.bytes)
            manifest.pages[page.path] = hash
            let target = folder + "/" + page.path
            if old.pages[page.path] == hash, FileReader.exists(target) { return }
            guard ExportCommand.makeFolders(of: page.path, in: folder), ExportCommand.replace(target, with: page.bytes) else {
                fail(target)
                return
            }
            written += 1
        }

        /// Copies the notebook's file `source` to `path` in the site unless the last export
        /// copied it at this size and time and the copy is still there.
        mutating func copy(_ source: String, to path: String, into manifest: inout Manifest) {
            var info = stat()
            guard stat(source, &info) == 0 else { return }
            let stamp = (size: Int64(info.st_size), time: FileReader.modificationTime(info))
            manifest.files[path] = stamp
            let target = folder + "/" + path
            if let last = old.files[path], last == stamp, FileReader.exists(target) { return }
            guard case .success(let bytes) = FileReader.contents(of: source) else {
                manifest.files[path] = nil
                MacMDCommandLine.writeError("export", LocalizedText("cli.render.error.cannotFind", .string(source)))
                return
            }
            guard ExportCommand.makeFolders(of: path, in: folder), ExportCommand.replace(target, with: bytes) else {
                fail(target)
                return
            }
            copied += 1
        }

        mutating func fail(_ target: String) {
            MacMDCommandLine.writeError("export", LocalizedText("cli.export.error.write", .string(target)))
            failed = true
        }

        /// Removes what `old` lists and `new` does not, then each folder that leaves empty; how
        /// many files it removed.
        func removeAll(_ old: Manifest, except new: Manifest) -> Int {
            var removed = 0
            var folders = Set<String>()
            for path in Array(old.pages.keys) + Array(old.files.keys) where new.pages[path] == nil && new.files[path] == nil {
                if unlink(folder + "/" + path) == 0 { removed += 1 }
                var parent = NotebookPath.folder(of: path)
                while !parent.isEmpty {
                    folders.insert(parent)
                    parent = NotebookPath.folder(of: parent)
                }
            }
            // Deepest first, so a folder's emptied subfolders go before it; one that is not
            // empty stays.
            for parent in folders.sorted(by: { $0.count > $1.count }) { rmdir(folder + "/" + parent) }
            return removed
        }
    }

    /// Makes the folders of `path` (a path in the site) under `root`.
    static func makeFolders(of path: String, in root: String) -> Bool {
        var made = root
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).dropLast()
        for part in parts {
            made += "/" + part
            if mkdir(made, 0o755) != 0 && errno != EEXIST { return false }
        }
        return true
    }

    /// Writes `bytes` beside `path` and moves them there: a reader sees the old file or the new.
    static func replace(_ path: String, with bytes: [UInt8]) -> Bool {
        let partial = path + ".part"
        let fd = open(partial, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { return false }
        let wrote = StandardStreams.writeAll(bytes, to: fd)
        guard close(fd) == 0, wrote, rename(partial, path) == 0 else {
            unlink(partial)
            return false
        }
        return true
    }

    /// FNV-1a, 64 bits: the same bytes give the same hash in every process (unlike `Hasher`).
    static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }

    /// A progress bar on standard error: `Exporting [#######-------] 512/1000`.
    final class Progress {
        let total: Int
        let shown: Bool
        var drawn = -1

        init(total: Int, shown: Bool) {
            self.total = max(total, 1)
            self.shown = shown
        }

        func advance(to done: Int) {
            guard shown else { return }
            let width = 30
            let filled = min(width, done * width / total)
            guard filled != drawn || done >= total else { return }
            drawn = filled
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            StandardStreams.writeError("\r\u{1B}[K" + MacMDCommandLine.text(LocalizedText("cli.export.site.progress")) + " [" + bar + "] \(min(done, total))/\(total)")
        }

        func finish() {
            if shown { StandardStreams.writeError("\r\u{1B}[K") }
        }
    }
}
