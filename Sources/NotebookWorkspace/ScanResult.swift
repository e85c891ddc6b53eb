// What a workspace scan asks for and what it finds.
//
// Invariants: paths in a result are relative to the scan root, `/`-separated, and sorted by their
// UTF-8 bytes, so two scans of the same tree give equal results. A scan never fails: what it could
// not read is listed in `skipped` with a reason, and a refused root is stated in `refusal`. A file
// listed without size and time (`inspectsFiles` off) has been checked for nothing but its name.

import MarkdownSyntax
import Localization

/// Options of `WorkspaceScanner.scan`.
public struct ScanOptions: Sendable {
    /// File extensions to collect, without the dot, compared case-insensitively (ASCII).
    public var extensions: [String] = ["md", "markdown"]
    // Every other file (an image, a PDF, a recording, `LICENSE`) that is not hidden (its name
    // does not start with `.`) is listed in `ScanResult.assets` by path only, so links to files
    // of any kind are found by name and path completion and broken-file checks need no disk.
    /// Configured ignore globs (gitignore syntax), applied from the root; `.gitignore` files win
    /// over them where both match.
    public var ignoreGlobs: [String] = []
    /// Whether `.gitignore` files are read.
    public var readsGitignore = true
    /// Files larger than this many bytes are skipped with a reason (default 5 MB).
    public var maxFileSize: Int64 = 5 * 1024 * 1024
    /// Whether every note is inspected (`stat` for its size and time, `access` for readability)
    /// during the walk (default true). Off, a regular file (d_type DT_REG) with a note extension
    /// costs no syscall: it is listed with `size` and `modificationTimeNanoseconds` nil, and is
    /// neither checked against `maxFileSize` nor for readability; `NotebookLoader.load` does both
    /// from the `fstat` of the open it does anyway. Symlinks and entries without d_type are
    /// still inspected (the walk must learn what they are) and listed with their size and time.
    /// Turn it off when the files are read next (a cold index, `macmd check`); keep it on when
    /// the sizes or times themselves are wanted (a rescan comparing times).
    public var inspectsFiles = true
    /// Whether the home folder or `/` may be scanned.
    public var allowHomeOrRoot = false
    /// The home folder to refuse; nil reads `$HOME`.
    public var homeDirectory: String? = nil
    /// Folder names never entered besides hidden ones (names starting with `.`).
    public var excludedFolderNames: [String] = ["node_modules"]
    /// Folders deeper than this below the root are skipped with a reason (a named bound).
    public var maxDepth = 128
    /// `onProgress` is called each time this many more files have been found.
    public var progressInterval = 250
    /// How the notes found are parsed when they are read (`NotebookLoader`, file events).
    public var parseOptions = ParseOptions.notebook

    public init() {}
}

/// A file the scan found.
public struct ScannedFile: Sendable, Equatable {
    /// The path relative to the scan root, `/`-separated.
    public var path: String
    /// The size in bytes (of the target, for a symlink); nil when the scan did not inspect the
    /// file (`ScanOptions.inspectsFiles` off), in which case the limit has not been applied.
    public var size: Int64?
    /// The modification time in nanoseconds since the Unix epoch; nil exactly when `size` is.
    public var modificationTimeNanoseconds: Int64?

    public init(path: String, size: Int64?, modificationTimeNanoseconds: Int64?) {
        self.path = path
        self.size = size
        self.modificationTimeNanoseconds = modificationTimeNanoseconds
    }
}

/// Why the scan left a path out.
public enum ScanSkipReason: Sendable, Equatable, CustomStringConvertible {
    /// The file is larger than `maxFileSize`.
    case tooLarge(size: Int64, limit: Int64)
    /// The folder could not be opened or read (errno).
    case unreadableFolder(errno: Int32)
    /// The file cannot be read (errno).
    case unreadableFile(errno: Int32)
    /// The entry disappeared between listing and inspection.
    case vanished
    /// A symlink to a folder already visited (a loop or a second link to the same folder).
    case alreadyVisited
    /// A symlink whose target does not exist or cannot be inspected (errno).
    case brokenSymlink(errno: Int32)
    /// A symlink whose target lies outside the notebook: not followed, so no note reads or
    /// shows a file outside it.
    case linksOutside
    /// The folder is deeper than `maxDepth`.
    case tooDeep(limit: Int)

    /// Why, for people (`scan.skip.*` keys); the operating system's error text as it gives it.
    public var text: LocalizedText {
        switch self {
        case let .tooLarge(size, limit): ScanSkipReason.tooLargeText(size: size, limit: limit)
        case let .unreadableFolder(code): LocalizedText("scan.skip.unreadableFolder", .string(WorkspaceScanner.errorText(code)))
        case let .unreadableFile(code): LocalizedText("scan.skip.unreadableFile", .string(WorkspaceScanner.errorText(code)))
        case .vanished: LocalizedText("scan.skip.vanished")
        case .alreadyVisited: LocalizedText("scan.skip.alreadyVisited")
        case let .brokenSymlink(code): LocalizedText("scan.skip.brokenSymlink", .string(WorkspaceScanner.errorText(code)))
        case .linksOutside: LocalizedText("scan.skip.linksOutside")
        case let .tooDeep(limit): LocalizedText("scan.skip.tooDeep", .integer(limit))
        }
    }

    /// A note of `size` bytes over the `limit`: the byte counts written as they are, ungrouped.
    static func tooLargeText(size: Int64, limit: Int64) -> LocalizedText {
        LocalizedText("scan.skip.tooLarge", .string(String(size)), .string(String(limit)))
    }

    /// Why, in English (the log).
    public var description: String { text.english }
}

/// A path the scan left out, and why.
public struct ScanSkip: Sendable, Equatable {
    /// The path relative to the scan root.
    public var path: String
    public var reason: ScanSkipReason

    public init(path: String, reason: ScanSkipReason) {
        self.path = path
        self.reason = reason
    }

    /// `skipped PATH: reason`, for the log and `macmd check`.
    public var logText: LocalizedText { LocalizedText("scan.log.skipped", .string(path), .text(reason.text)) }
}

/// Why a whole scan was refused.
public enum ScanRefusal: Sendable, Equatable, CustomStringConvertible {
    /// The root is the home folder and `allowHomeOrRoot` is off.
    case homeDirectory(String)
    /// The root is `/` and `allowHomeOrRoot` is off.
    case fileSystemRoot
    /// The root does not exist or is not a folder (errno, or ENOTDIR).
    case notAFolder(errno: Int32)

    /// Why, for people (`scan.refusal.*` keys).
    public var text: LocalizedText {
        switch self {
        case let .homeDirectory(path): LocalizedText("scan.refusal.homeFolder", .string(path))
        case .fileSystemRoot: LocalizedText("scan.refusal.fileSystemRoot")
        case let .notAFolder(code): LocalizedText("scan.refusal.notAFolder", .string(WorkspaceScanner.errorText(code)))
        }
    }

    /// Why, in English (the log).
    public var description: String { text.english }
}

/// The outcome of a scan.
public struct ScanResult: Sendable {
    /// The root as given.
    public var root: String
    /// The root with symlinks resolved (empty when it could not be resolved).
    public var resolvedRoot: String
    /// The files found, sorted by path bytes.
    public var files: [ScannedFile] = []
    /// The files that are not notes (images, PDFs, any other file not hidden), sorted by path
    /// bytes.
    public var assets: [String] = []
    /// What was left out and why, sorted by path bytes.
    public var skipped: [ScanSkip] = []
    /// `.macmd.json` files in folders below the root, sorted: a notebook reads its settings
    /// from its root only, so these are reported as not read.
    public var nestedSettings: [String] = []
    /// The size limit the scan was asked to apply (`ScanOptions.maxFileSize`): a file listed
    /// without a size has not been checked against it yet, so the reader applies it.
    public var maxFileSize: Int64 = ScanOptions().maxFileSize
    /// How the notes are parsed when read (`ScanOptions.parseOptions`).
    public var parseOptions = ParseOptions.notebook
    /// Set when the scan did not run at all.
    public var refusal: ScanRefusal? = nil
}

extension ScanResult {
    /// One line per refusal or skipped path (`skipped PATH: reason`), for `macmd check`.
    public var logTexts: [LocalizedText] {
        if let refusal { return [LocalizedText("scan.log.refused", .string(root), .text(refusal.text))] }
        return skipped.map(\.logText)
    }

    /// `logTexts` in English, for the server's log.
    public var logLines: [String] { logTexts.map(\.english) }
}
