// Whether a scan of a notebook would list a path, answered one path at a time: what keeps the
// index true after watched-file events and file operations, which name single paths, while the
// walk (`WorkspaceScanner`) decides for a whole tree.
//
// Invariants:
// - The verdict for a path is the walk's: hidden folders and excluded folder names are never
//   entered, nor folders deeper than `maxDepth`; the configured globs and the `.gitignore` of
//   every folder from the root down to the path's own folder are applied as the walk applies
//   them (the rules known at a folder decide whether it is entered; an ignored folder hides
//   everything in it); a note needs a note extension, a readable file and a size within
//   `maxFileSize`; any other file is an asset unless its name starts with `.` (assets have no
//   size limit). A test checks the verdicts against a scan of the same tree.
// - IO: only `.gitignore` files (each read once per value, at most 1 MB) and a `stat` and
//   `access` of the note itself. A value is meant for one batch of events: a `.gitignore` that
//   changes afterwards is read again by the next value.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Localization

/// Answers "would a scan of `root` with `options` list this path?" for single paths.
public struct ScanMembership {
    /// What a scan would make of a path.
    public enum Verdict: Sendable, Equatable {
        /// A note the scan lists.
        case note
        /// A file that is not a note but is listed as an asset (an image, a PDF, any file not
        /// hidden).
        case asset
        /// A folder the scan enters.
        case folder
        /// Left out, and why (for the log).
        case excluded(LocalizedText)
    }

    /// The notebook's folder, symlinks resolved (paths are relative to it).
    public let root: String
    public let options: ScanOptions
    /// The rules in force inside each folder already looked at (relative path, "" for the root).
    private var rulesByFolder: [String: IgnoreRules] = [:]

    public init(root: String, options: ScanOptions) {
        self.root = root
        self.options = options
    }

    /// The verdict for `relative` (`/`-separated, relative to the root); `isDirectory` says
    /// whether it names a folder.
    public mutating func verdict(of relative: String, isDirectory: Bool = false) -> Verdict {
        let components = relative.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard let name = components.last else { return .excluded(LocalizedText("scan.exclude.notInNotebook")) }
        let folders = isDirectory ? components : Array(components.dropLast())
        if folders.count > options.maxDepth {
            return .excluded(ScanSkipReason.tooDeep(limit: options.maxDepth).text)
        }
        var rules = rules(inFolder: "", parent: IgnoreRules(globs: options.ignoreGlobs))
        var folderPath = ""
        for folder in folders {
            // The walk skips hidden folders (`.git` among them) and excluded names by name alone.
            if folder.utf8.first == UInt8(ascii: ".") { return .excluded(LocalizedText("scan.exclude.hiddenFolder", .string(folder))) }
            if options.excludedFolderNames.contains(folder) { return .excluded(LocalizedText("scan.exclude.excludedFolder", .string(folder))) }
            folderPath = folderPath.isEmpty ? folder : folderPath + "/" + folder
            // The rules known in the parent decide whether the walk enters the folder.
            if rules.decision(path: Array(folderPath.utf8), isDirectory: true) == true {
                return .excluded(LocalizedText("scan.exclude.ignoredFolder", .string(folderPath)))
            }
            rules = self.rules(inFolder: folderPath, parent: rules)
        }
        if isDirectory { return .folder }
        let isNote = ScanMembership.hasExtension(name, in: options.extensions)
        guard isNote || name.utf8.first != UInt8(ascii: ".") else {
            return .excluded(LocalizedText("scan.exclude.hiddenFile"))
        }
        if rules.decision(path: Array(relative.utf8), isDirectory: false) == true {
            return .excluded(LocalizedText("scan.exclude.ignored"))
        }
        let absolute = root + "/" + relative
        // A symlink out of the notebook is not followed, whatever it names (as the walk does).
        if WorkspaceScanner.realPath(absolute) != nil, !WorkspaceScanner.isInside(root: Array(root.utf8), path: Array(absolute.utf8)) {
            return .excluded(ScanSkipReason.linksOutside.text)
        }
        guard isNote else { return .asset }
        var info = stat()
        guard stat(absolute, &info) == 0 else { return .excluded(LocalizedText("scan.exclude.notInspectable", .string(WorkspaceScanner.errorText(errno)))) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return .excluded(LocalizedText("scan.exclude.notRegularFile")) }
        if Int64(info.st_size) > options.maxFileSize {
            return .excluded(ScanSkipReason.tooLargeText(size: Int64(info.st_size), limit: options.maxFileSize))
        }
        guard access(absolute, R_OK) == 0 else { return .excluded(ScanSkipReason.unreadableFile(errno: errno).text) }
        return .note
    }

    /// The rules inside `folder`: its parent's plus its own `.gitignore`, as the walk adds them
    /// on entering it.
    private mutating func rules(inFolder folder: String, parent: IgnoreRules) -> IgnoreRules {
        if let known = rulesByFolder[folder] { return known }
        var rules = parent
        if options.readsGitignore {
            let file = folder.isEmpty ? root + "/.gitignore" : root + "/" + folder + "/.gitignore"
            if case .success(let contents) = FileReader.contents(of: file, limit: 1 << 20) {
                rules.addGitignore(contents: contents, folder: Array(folder.utf8))
            }
        }
        rulesByFolder[folder] = rules
        return rules
    }

    /// Whether `name` ends in `.` plus one of `extensions` (ASCII case-insensitive), with
    /// something before the dot, as the walk decides.
    public static func hasExtension(_ name: String, in extensions: [String]) -> Bool {
        let wanted = extensions.map { $0.utf8.map(asciiLowercased) }
        return Array(name.utf8).withUnsafeBufferPointer { WorkspaceScanner.hasExtension($0, in: wanted) }
    }

    static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// True for a `.gitignore` path: a change to it changes which files belong.
    public static func isIgnoreFile(_ relative: String) -> Bool {
        relative == ".gitignore" || relative.hasSuffix("/.gitignore")
    }
}
