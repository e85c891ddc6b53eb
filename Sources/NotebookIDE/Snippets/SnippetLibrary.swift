// Every snippet a note can use: the built-in ones, the user's own (their snippet folder), and
// each notebook's (`.macmd/snippets/*.json` and the notes of its snippets folder), with the
// problems of the files that could not be read whole.
//
// Invariants: a plain value, replaced source by source as files are read again (the caller reads
// them); a broken file never hides the other files' snippets, nor the good snippets in it; the
// order of the snippets offered is the notebook's, then the user's, then the built-in ones.

import NotebookWorkspace

public struct SnippetLibrary: Sendable {
    /// What one source gave: its snippets and the problems of its files.
    public struct Source: Sendable, Equatable {
        public var snippets: [Snippet] = []
        public var problems: [SnippetFileProblem] = []

        public init(snippets: [Snippet] = [], problems: [SnippetFileProblem] = []) {
            self.snippets = snippets
            self.problems = problems
        }

        /// The snippets and problems of `files`.
        public init(files: [SnippetSource]) {
            for file in files {
                let parsed = UserSnippets.parse(file)
                snippets += parsed.snippets
                problems += parsed.problems
            }
        }
    }

    public let builtIn: [Snippet]
    /// The user's own snippets (their snippet folder).
    public var user = Source()
    /// Each notebook's snippets, by its folder's path.
    public var notebooks: [String: Source] = [:]

    public init(builtIn: [Snippet] = BuiltInSnippets.all) {
        self.builtIn = builtIn
    }

    /// The snippets offered in a note of the notebook at `folder` (nil: in no notebook).
    public func snippets(forFolder folder: String?) -> [Snippet] {
        (folder.flatMap { notebooks[$0]?.snippets } ?? []) + user.snippets + builtIn
    }

    /// The problems of the snippet file at the absolute `path`.
    public func problems(ofFile path: String) -> [SnippetFileProblem] {
        (user.problems + notebooks.values.flatMap(\.problems)).filter { $0.path == path }
    }
}
