// The ignore rules of a workspace: configured globs plus the patterns of every `.gitignore` met on
// the way down, with git's semantics.
//
// Invariants: patterns are kept in precedence order (configured globs first, then `.gitignore`
// files from the root downwards, each in file order) and the last pattern that matches a path
// decides. A path inside an ignored folder is ignored whatever later patterns say, as in git,
// because git never descends into an excluded folder. Pure: no IO here; the scanner reads the
// files and hands their bytes over.

/// An ordered list of gitignore patterns with "last match wins" semantics.
public struct IgnoreRules: Sendable, Equatable {
    /// The patterns in precedence order (later ones win).
    public private(set) var patterns: [IgnorePattern] = []

    /// Rules from configured globs (such as the `ignore` setting), applied from the root.
    public init(globs: [String] = []) {
        for glob in globs {
            if let pattern = IgnorePattern(glob: glob) { patterns.append(pattern) }
        }
    }

    /// Whether there are no patterns at all.
    public var isEmpty: Bool { patterns.isEmpty }

    /// Adds the lines of a `.gitignore` found in `folder` (relative to the scan root, empty for
    /// the root). Its patterns apply to that folder and below and win over earlier ones.
    public mutating func addGitignore(contents: some Collection<UInt8>, folder: [UInt8]) {
        for line in contents.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            if let pattern = IgnorePattern(line: line, base: folder) { patterns.append(pattern) }
        }
    }

    /// Adds the lines of a `.gitignore` given as text; see `addGitignore(contents:folder:)`.
    public mutating func addGitignore(_ text: String, folder: String = "") {
        addGitignore(contents: Array(text.utf8), folder: Array(folder.utf8))
    }

    /// The verdict of the last matching pattern for `path` alone (true: ignored, false:
    /// re-included, nil: no pattern matches). Parent folders are not considered; the scanner
    /// calls this for each entry as it descends, so it never reaches a child of an ignored folder.
    public func decision(path bytes: [UInt8], isDirectory: Bool) -> Bool? {
        for pattern in patterns.reversed() where pattern.matches(path: bytes, isDirectory: isDirectory) {
            return !pattern.isNegated
        }
        return nil
    }

    /// Whether `path` (relative to the root, `/`-separated) is ignored, its parent folders
    /// included: a file inside an ignored folder cannot be re-included.
    public func isIgnored(path bytes: [UInt8], isDirectory: Bool) -> Bool {
        var index = bytes.startIndex
        while let slash = bytes[index...].firstIndex(of: UInt8(ascii: "/")) {
            if slash > 0, decision(path: Array(bytes[0..<slash]), isDirectory: true) == true { return true }
            index = slash + 1
        }
        return decision(path: bytes, isDirectory: isDirectory) == true
    }

    /// Whether the path given as text is ignored; see `isIgnored(path:isDirectory:)`.
    public func isIgnored(_ path: String, isDirectory: Bool = false) -> Bool {
        isIgnored(path: Array(path.utf8), isDirectory: isDirectory)
    }
}
