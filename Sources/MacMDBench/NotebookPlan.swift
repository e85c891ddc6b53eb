// NotebookPlan: everything about a generated notebook that one note needs to know about the
// others (paths, stems, titles, headings, block ids, aliases), decided before any note is written,
// so that links can point at real headings and blocks.
//
// Invariants:
// - A pure function of (noteCount, seed): built from one `GeneratorRandom` stream in a fixed
//   order. Sets are used for membership only, never iterated (Swift seeds hashing per process).
// - Stems are unique ignoring case across the notebook, and aliases are unique and match no stem
//   or title, so every wiki-link the writer makes on purpose resolves to exactly one note.
// - Headings of one note differ ignoring case, so each slug is its words joined by `-`, with no
//   `-1` suffix, and a link by text or by slug reaches that heading.
// - Folders are at most `maximumFolderDepth` deep; folder 0 is the root.

/// The planned notebook: folders, notes, vocabularies.
struct NotebookPlan {
    static let maximumFolderDepth = 3
    static let lexiconSize = 2000
    static let tagVocabularySize = 500
    static let attachmentFolder = Array("attachments".utf8)

    struct Folder {
        /// The folder's own name (empty for the root).
        var name: [UInt8]
        /// Folder indices from the top-level folder down to this one (empty for the root).
        var chain: [Int]
        /// The workspace-relative path with a trailing `/` (empty for the root).
        var path: [UInt8]
    }

    struct Note {
        var folder: Int
        var script: GeneratorScript
        var stem: [UInt8]
        /// The workspace-relative path (`folder/stem.md`).
        var path: [UInt8]
        var targetBytes: Int
        var title: [UInt8]
        var headingTexts: [[UInt8]]
        var headingLevels: [Int]
        var headingSlugs: [[UInt8]]
        var blockIDs: [[UInt8]]
        var aliases: [[UInt8]] = []
        var hasFrontMatter: Bool
    }

    var folders: [Folder] = []
    var notes: [Note] = []
    /// Notes by folder index.
    var notesByFolder: [[Int]] = []
    /// Words of each script (indexed by `GeneratorScript.rawValue`), drawn by `wordSampler`.
    var lexicons: [[[UInt8]]] = []
    var wordSampler = ZipfSampler(count: NotebookPlan.lexiconSize, offset: 8)
    var tags: [[UInt8]] = []
    var tagSampler = ZipfSampler(count: NotebookPlan.tagVocabularySize)
    /// Note indices in popularity order, drawn by `popularitySampler` for link targets.
    var popularity: [Int] = []
    var popularitySampler = ZipfSampler(count: 1)
    /// Attachment paths (`attachments/name.png`).
    var attachments: [[UInt8]] = []
    /// Lowercased stems, titles and aliases: what a deliberately broken link must not hit.
    var takenNames: Set<[UInt8]> = []

    init(noteCount: Int, seed: UInt64) {
        var random = GeneratorRandom(seed: seed, stream: 0)
        let count = max(0, noteCount)
        makeLexicons(&random)
        makeTags(&random)
        makeFolders(count: count, &random)
        makeNotes(count: count, seed: seed, &random)
        makeAliases(&random)
        makeAttachments(count: count, &random)
        popularity = Array(0..<count)
        if count > 1 {
            for index in stride(from: count - 1, to: 0, by: -1) {
                popularity.swapAt(index, random.below(index + 1))
            }
        }
        popularitySampler = ZipfSampler(count: count)
    }

    // MARK: Vocabularies

    private mutating func makeLexicons(_ random: inout GeneratorRandom) {
        for script in GeneratorScript.allCases {
            var words: [[UInt8]] = []
            var seen: Set<[UInt8]> = []
            var attempts = 0
            while words.count < NotebookPlan.lexiconSize, attempts < NotebookPlan.lexiconSize * 20 {
                attempts += 1
                let word = script.makeWord(&random)
                if seen.insert(word).inserted { words.append(word) }
            }
            lexicons.append(words)
        }
    }

    /// A word of `script`, common words more often (Zipf).
    func word(_ script: GeneratorScript, _ random: inout GeneratorRandom) -> [UInt8] {
        let lexicon = lexicons[script.rawValue]
        let index = wordSampler.sample(&random)
        return index < lexicon.count ? lexicon[index] : lexicon[random.below(lexicon.count)]
    }

    /// A word of `script` drawn uniformly (names should not all share the commonest words).
    func rareWord(_ script: GeneratorScript, _ random: inout GeneratorRandom) -> [UInt8] {
        random.pick(lexicons[script.rawValue])
    }

    private mutating func makeTags(_ random: inout GeneratorRandom) {
        var seen: Set<[UInt8]> = []
        var attempts = 0
        while tags.count < NotebookPlan.tagVocabularySize, attempts < 100_000 {
            attempts += 1
            var tag: [UInt8]
            if tags.count >= 30, random.chance(300) {
                // Nested `#parent/child`, at most three levels.
                let parent = tags[random.below(tags.count)]
                guard parent.filter({ $0 == UInt8(ascii: "/") }).count < 2 else { continue }
                tag = parent + [UInt8(ascii: "/")] + rareWord(.latin, &random)
            } else {
                tag = rareWord(.latin, &random)
                if random.chance(150) { tag += [random.chance(500) ? UInt8(ascii: "-") : UInt8(ascii: "_")] + rareWord(.latin, &random) }
            }
            if seen.insert(tag).inserted { tags.append(tag) }
        }
    }

    // MARK: Folders

    private mutating func makeFolders(count: Int, _ random: inout GeneratorRandom) {
        folders = [Folder(name: [], chain: [], path: [])]
        let folderCount = max(1, count / 40)
        let topLevel = min(folderCount, max(3, folderCount / 8))
        var open: [Int] = []
        var seen: Set<[UInt8]> = [NotebookPlan.attachmentFolder + [UInt8(ascii: "/")]]
        for index in 0..<folderCount {
            var parent = 0
            if index >= topLevel, !open.isEmpty, !random.chance(60) { parent = random.pick(open) }
            var name = folderName(&random)
            var path = folders[parent].path + name + [UInt8(ascii: "/")]
            var suffix = 2
            while !seen.insert(NotebookPlan.lowercased(path)).inserted {
                name = folderName(&random) + Array("-\(suffix)".utf8)
                path = folders[parent].path + name + [UInt8(ascii: "/")]
                suffix += 1
            }
            let chain = folders[parent].chain + [folders.count]
            if chain.count < NotebookPlan.maximumFolderDepth { open.append(folders.count) }
            folders.append(Folder(name: name, chain: chain, path: path))
        }
        notesByFolder = Array(repeating: [], count: folders.count)
    }

    private func folderName(_ random: inout GeneratorRandom) -> [UInt8] {
        let roll = random.below(1000)
        if roll < 80 {
            let script = GeneratorScript.allCases[1 + random.below(GeneratorScript.allCases.count - 1)]
            return rareWord(script, &random)
        }
        if roll < 200 {
            return NotebookPlan.capitalized(rareWord(.latin, &random)) + [0x20] + rareWord(.latin, &random)
        }
        var name = rareWord(.latin, &random)
        if random.chance(400) { name += [UInt8(ascii: "-")] + rareWord(.latin, &random) }
        return name
    }

    // MARK: Notes

    private mutating func makeNotes(count: Int, seed: UInt64, _ random: inout GeneratorRandom) {
        notes.reserveCapacity(count)
        var stems: Set<[UInt8]> = []
        for index in 0..<count {
            let script = pickScript(&random)
            let folder: Int
            if index < folders.count - 1 {
                folder = index + 1
            } else {
                folder = random.chance(80) ? 0 : 1 + random.below(folders.count - 1)
            }
            var stem = makeStem(script, &random)
            var attempt = 0
            while !stems.insert(NotebookPlan.lowercased(stem)).inserted {
                attempt += 1
                stem = attempt < 3 ? makeStem(script, &random) : makeStem(script, &random) + Array("-\(index)".utf8)
            }
            let path = folders[folder].path + stem + Array(".md".utf8)
            let size = NotebookPlan.noteSize(&random)
            let headingCount = min(8, max(1, 1 + size / 1400 + random.below(2)))
            let title = phrase(script, words: random.inRange(2, 4), titleCase: true, &random)
            var texts: [[UInt8]] = [title]
            var levels = [1]
            var seenHeadings: Set<[UInt8]> = [NotebookPlan.lowercased(title)]
            var attempts = 0
            while texts.count < headingCount, attempts < 50 {
                attempts += 1
                let text = phrase(script, words: random.inRange(1, 4), titleCase: false, &random)
                guard seenHeadings.insert(NotebookPlan.lowercased(text)).inserted else { continue }
                let previous = levels[levels.count - 1]
                var level = 2
                if previous > 1 {
                    let roll = random.below(100)
                    level = roll < 30 ? min(previous + 1, 4) : roll < 80 ? previous : 2
                }
                texts.append(text)
                levels.append(level)
            }
            var blockIDs: [[UInt8]] = []
            if random.chance(300) {
                for _ in 0..<min(texts.count, random.inRange(1, 2)) {
                    var id = NotebookPlan.blockID(&random)
                    while blockIDs.contains(id) { id = NotebookPlan.blockID(&random) }
                    blockIDs.append(id)
                }
            }
            notes.append(Note(folder: folder, script: script, stem: stem, path: path, targetBytes: size, title: title,
                              headingTexts: texts, headingLevels: levels,
                              headingSlugs: texts.map(NotebookPlan.slug), blockIDs: blockIDs,
                              hasFrontMatter: random.chance(800)))
            notesByFolder[folder].append(index)
            takenNames.insert(NotebookPlan.lowercased(stem))
            takenNames.insert(NotebookPlan.lowercased(title))
        }
    }

    private func pickScript(_ random: inout GeneratorRandom) -> GeneratorScript {
        var roll = random.below(1000)
        for (script, share) in GeneratorScript.shares {
            if roll < share { return script }
            roll -= share
        }
        return .latin
    }

    private func makeStem(_ script: GeneratorScript, _ random: inout GeneratorRandom) -> [UInt8] {
        if script != .latin, random.chance(700) {
            if script.joinsWords { return rareWord(script, &random) + rareWord(script, &random) }
            return rareWord(script, &random) + [UInt8(ascii: "-")] + rareWord(script, &random)
        }
        var stem = rareWord(.latin, &random)
        let separator: UInt8 = random.chance(120) ? 0x20 : UInt8(ascii: "-")
        for _ in 0..<random.below(3) { stem += [separator] + rareWord(.latin, &random) }
        return stem
    }

    /// Words of `script` as a heading or title: Latin gets a capital (every word for a title).
    func phrase(_ script: GeneratorScript, words: Int, titleCase: Bool, _ random: inout GeneratorRandom) -> [UInt8] {
        var text: [UInt8] = []
        for index in 0..<max(1, words) {
            var next = word(script, &random)
            if index > 0, !script.joinsWords { text.append(0x20) }
            if index == 0 || titleCase { next = NotebookPlan.capitalized(next) }
            text += next
        }
        return text
    }

    /// A log-normal size with median 1,500 bytes, clamped to the generator's bounds.
    private static func noteSize(_ random: inout GeneratorRandom) -> Int {
        let size = Double(NotebookGenerator.medianNoteBytes) * GeneratorRandom.exp(0.85 * random.normal())
        let clamped = min(max(size, Double(NotebookGenerator.minimumNoteBytes)), Double(NotebookGenerator.maximumNoteBytes - 2_000))
        return Int(clamped)
    }

    private static let idAlphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)

    static func blockID(_ random: inout GeneratorRandom) -> [UInt8] {
        var id: [UInt8] = []
        for _ in 0..<6 { id.append(random.pick(idAlphabet)) }
        return id
    }

    // MARK: Aliases and attachments

    private mutating func makeAliases(_ random: inout GeneratorRandom) {
        for index in notes.indices where notes[index].hasFrontMatter && random.chance(200) {
            let script = notes[index].script
            for _ in 0..<random.inRange(1, 2) {
                for _ in 0..<5 {
                    let alias = phrase(script, words: random.inRange(1, 3), titleCase: true, &random)
                    if takenNames.insert(NotebookPlan.lowercased(alias)).inserted {
                        notes[index].aliases.append(alias)
                        break
                    }
                }
            }
        }
    }

    private mutating func makeAttachments(count: Int, _ random: inout GeneratorRandom) {
        guard count > 0 else { return }
        var seen: Set<[UInt8]> = []
        for index in 0..<max(1, count / 100) {
            var name = rareWord(.latin, &random) + [UInt8(ascii: "-")] + Array(String(index + 1).utf8)
            if !seen.insert(name).inserted { name += [UInt8(ascii: "x")] }
            attachments.append(NotebookPlan.attachmentFolder + [UInt8(ascii: "/")] + name + Array(".png".utf8))
        }
    }

    // MARK: Text helpers

    static func lowercased(_ bytes: [UInt8]) -> [UInt8] {
        bytes.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 + 32 : $0 }
    }

    static func capitalized(_ word: [UInt8]) -> [UInt8] {
        guard let first = word.first, first >= UInt8(ascii: "a"), first <= UInt8(ascii: "z") else { return word }
        var result = word
        result[0] = first - 32
        return result
    }

    /// The GitHub slug of a heading made of words: lowercased, spaces turned into `-`.
    static func slug(_ text: [UInt8]) -> [UInt8] {
        lowercased(text).map { $0 == 0x20 ? UInt8(ascii: "-") : $0 }
    }
}
