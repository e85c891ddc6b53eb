// GeneratorNoteWriter: writes the bytes of one planned note.
//
// Invariants:
// - The bytes are a pure function of the plan and the note's own random stream, so notes can be
//   written in any order (or in parallel) with the same result.
// - Every block is separated from the next by a blank line, so no paragraph turns into a setext
//   heading and the note has exactly the headings the plan lists.
// - Links made on purpose resolve (real stems, heading texts, slugs and block ids, correct
//   relative paths); a link is broken only when `brokenLinkPerMille` says so.
// - Bytes only: words and names are appended as `[UInt8]`; no `String` per word.

/// Writes one note of a `NotebookPlan`.
struct GeneratorNoteWriter {
    /// Links broken on purpose, per mille of the links that point at notes.
    static let brokenLinkPerMille = 20

    let plan: NotebookPlan
    let index: Int
    let note: NotebookPlan.Note
    var random: GeneratorRandom
    var out: [UInt8] = []
    /// The note's own script's words and their sampler, held here so a word costs no lookups.
    private let lexicon: [[UInt8]]
    private let wordSampler: ZipfSampler

    init(plan: NotebookPlan, index: Int, seed: UInt64) {
        self.plan = plan
        self.index = index
        self.note = plan.notes[index]
        self.lexicon = plan.lexicons[note.script.rawValue]
        self.wordSampler = plan.wordSampler
        self.random = GeneratorRandom(seed: seed, stream: UInt64(index) &+ 1)
        out.reserveCapacity(note.targetBytes + 1024)
    }

    // MARK: The note

    mutating func write() -> [UInt8] {
        if note.hasFrontMatter { frontMatter() }
        let sections = note.headingTexts.count
        for section in 0..<sections {
            let level = note.headingLevels[section]
            out += Array(repeating: UInt8(ascii: "#"), count: level)
            out.append(0x20)
            out += note.headingTexts[section]
            out += [0x0A, 0x0A]
            let sectionEnd = out.count + max(0, note.targetBytes - out.count) / (sections - section)
            paragraph(limit: sectionEnd, blockID: section < note.blockIDs.count ? note.blockIDs[section] : nil)
            while out.count + 80 < sectionEnd {
                block(limit: sectionEnd)
            }
        }
        while out.count < NotebookGenerator.minimumNoteBytes {
            paragraph(limit: NotebookGenerator.minimumNoteBytes + 40, blockID: nil)
        }
        return out
    }

    private mutating func frontMatter() {
        text("---\ntitle: ")
        out += note.title
        text("\ndate: ")
        number(random.inRange(2018, 2025))
        out.append(UInt8(ascii: "-"))
        twoDigits(random.inRange(1, 12))
        out.append(UInt8(ascii: "-"))
        twoDigits(random.inRange(1, 28))
        out.append(0x0A)
        // Distinct tags: the Zipf head would otherwise repeat itself in one list.
        var tags: [[UInt8]] = []
        for _ in 0..<random.inRange(1, 4) {
            let candidate = tag()
            if !tags.contains(candidate) { tags.append(candidate) }
        }
        if random.chance(500) {
            text("tags: [")
            for (tagIndex, tag) in tags.enumerated() {
                if tagIndex > 0 { out += [UInt8(ascii: ","), 0x20] }
                out += tag
            }
            out += [UInt8(ascii: "]"), 0x0A]
        } else {
            text("tags:\n")
            for tag in tags {
                text("  - ")
                out += tag
                out.append(0x0A)
            }
        }
        if !note.aliases.isEmpty {
            text("aliases: [")
            for (aliasIndex, alias) in note.aliases.enumerated() {
                if aliasIndex > 0 { out += [UInt8(ascii: ","), 0x20] }
                out += alias
            }
            out += [UInt8(ascii: "]"), 0x0A]
        }
        text("---\n\n")
    }

    // MARK: Blocks

    private mutating func block(limit: Int) {
        let roll = random.below(1000)
        switch roll {
        case ..<520: paragraph(limit: limit, blockID: nil)
        case ..<650: list(limit: limit, ordered: false)
        case ..<700: list(limit: limit, ordered: true)
        case ..<740: taskList(limit: limit)
        case ..<810: codeBlock(limit: limit)
        case ..<870: table(limit: limit)
        case ..<910: displayMath()
        case ..<960: quote(limit: limit)
        default: embedLine()
        }
    }

    private mutating func paragraph(limit: Int, blockID: [UInt8]?) {
        let sentences = random.inRange(1, 5)
        for sentenceIndex in 0..<sentences {
            if sentenceIndex > 0 {
                if out.count + 20 >= limit { break }
                if !note.script.joinsWords { out.append(0x20) }
            }
            sentence(words: random.inRange(4, 14), linkPerMille: 330)
        }
        if let blockID {
            out += [0x20, UInt8(ascii: "^")]
            out += blockID
        }
        out += [0x0A, 0x0A]
    }

    private mutating func list(limit: Int, ordered: Bool) {
        let items = random.inRange(2, 6)
        for item in 0..<items {
            if item > 0, out.count + 20 >= limit { break }
            let markerStart = out.count
            if ordered {
                number(item + 1)
                out += [UInt8(ascii: "."), 0x20]
            } else {
                out += [UInt8(ascii: "-"), 0x20]
            }
            let markerWidth = out.count - markerStart
            sentence(words: random.inRange(2, 9), linkPerMille: 450)
            out.append(0x0A)
            if random.chance(120) {
                // Indented to the item's content, so the sub-list nests.
                out += Array(repeating: 0x20, count: markerWidth)
                out += [UInt8(ascii: "-"), 0x20]
                sentence(words: random.inRange(2, 6), linkPerMille: 300)
                out.append(0x0A)
            }
        }
        out.append(0x0A)
    }

    private mutating func taskList(limit: Int) {
        for item in 0..<random.inRange(2, 5) {
            if item > 0, out.count + 20 >= limit { break }
            out += Array((random.chance(400) ? "- [x] " : "- [ ] ").utf8)
            sentence(words: random.inRange(2, 8), linkPerMille: 250)
            out.append(0x0A)
        }
        out.append(0x0A)
    }

    private mutating func quote(limit: Int) {
        out += [UInt8(ascii: ">"), 0x20]
        sentence(words: random.inRange(5, 14), linkPerMille: 200)
        if random.chance(400), out.count + 40 < limit {
            text("\n>\n> ")
            sentence(words: random.inRange(4, 10), linkPerMille: 200)
        }
        out += [0x0A, 0x0A]
    }

    private mutating func embedLine() {
        if random.chance(250), plan.notes.count > 1 {
            // A whole note embedded (transclusion).
            text("![[")
            out += plan.notes[linkTarget()].stem
            text("]]")
        } else {
            imageLink()
        }
        out += [0x0A, 0x0A]
    }

    private static let languages = ["swift", "python", "js", "sh", "json", "rust"].map { Array($0.utf8) }

    private mutating func codeBlock(limit: Int) {
        let language = random.below(GeneratorNoteWriter.languages.count)
        text("```")
        out += GeneratorNoteWriter.languages[language]
        out.append(0x0A)
        let lines = random.inRange(2, 12)
        for line in 0..<lines {
            if line > 1, out.count + 30 >= limit { break }
            codeLine(language)
            out.append(0x0A)
        }
        text("```\n\n")
    }

    private mutating func codeLine(_ language: Int) {
        switch language {
        case 0:
            switch random.below(3) {
            case 0: text("let "); identifier(); text(" = "); identifier(); text("("); number(random.below(1000)); text(")")
            case 1: text("func "); identifier(); text("(_ x: Int) -> Int { x * "); number(random.inRange(2, 99)); text(" }")
            default: text("// "); words(random.inRange(2, 6), script: .latin)
            }
        case 1:
            switch random.below(3) {
            case 0: text("def "); identifier(); text("(x):  # "); words(2, script: .latin)
            case 1: text("    return x * "); number(random.inRange(2, 99))
            default: identifier(); text(" = ["); number(random.below(100)); text(", "); number(random.below(100)); text("]")
            }
        case 2:
            text("const "); identifier(); text(" = ("); identifier(); text(") => "); identifier(); text(" + ")
            number(random.below(100)); text(";")
        case 3:
            identifier(); text(" --"); identifier(); text(" "); number(random.below(1000)); text(" | grep "); identifier()
        case 4:
            text("{\""); identifier(); text("\": "); number(random.below(10_000)); text(", \""); identifier()
            text("\": \""); words(random.inRange(1, 3), script: .latin); text("\"}")
        default:
            text("fn "); identifier(); text("(x: u32) -> u32 { x + "); number(random.below(100)); text(" }")
        }
    }

    private mutating func table(limit: Int) {
        let columns = random.inRange(2, 4)
        out.append(UInt8(ascii: "|"))
        for _ in 0..<columns {
            out.append(0x20)
            out += NotebookPlan.capitalized(plan.word(note.script, &random))
            out += [0x20, UInt8(ascii: "|")]
        }
        out += [0x0A, UInt8(ascii: "|")]
        for _ in 0..<columns {
            text(random.pick([" --- |", " :-- |", " :-: |", " --: |"] as [StaticString]))
        }
        out.append(0x0A)
        for row in 0..<random.inRange(2, 6) {
            if row > 0, out.count + 30 >= limit { break }
            out.append(UInt8(ascii: "|"))
            for _ in 0..<columns {
                out.append(0x20)
                let roll = random.below(100)
                if roll < 35 {
                    number(random.below(10_000))
                } else if roll < 45, plan.notes.count > 1 {
                    // A plain wiki-link: a `|` label would end the cell.
                    text("[[")
                    out += plan.notes[linkTarget()].stem
                    text("]]")
                } else if roll < 50 {
                    out.append(UInt8(ascii: "#"))
                    out += tag()
                } else {
                    words(random.inRange(1, 3), script: note.script)
                }
                out += [0x20, UInt8(ascii: "|")]
            }
            out.append(0x0A)
        }
        out.append(0x0A)
    }

    private mutating func displayMath() {
        text("$$\n")
        mathExpression()
        if random.chance(300) {
            text(" \\\\\n")
            mathExpression()
        }
        text("\n$$\n\n")
    }

    // MARK: Inline content

    /// One sentence of `words` words with, sometimes, a link, a tag, emphasis, code or math.
    private mutating func sentence(words count: Int, linkPerMille: Int) {
        let script = note.script
        let linkAt = random.chance(linkPerMille) ? random.below(count) : -1
        let tagAt = random.chance(130) ? random.below(count) : -1
        let styleAt = random.chance(250) ? random.below(count) : -1
        for position in 0..<count {
            if position > 0, !script.joinsWords { out.append(0x20) }
            if position == linkAt {
                spaced { $0.link() }
            } else if position == tagAt {
                spaced { writer in
                    writer.out.append(UInt8(ascii: "#"))
                    if script == .cyrillic || script == .greek, writer.random.chance(250) {
                        writer.out += writer.plan.word(script, &writer.random)
                    } else {
                        writer.out += writer.tag()
                    }
                }
            } else if position == styleAt {
                style()
            } else {
                let start = out.count
                appendWord()
                if position == 0, out[start] >= UInt8(ascii: "a"), out[start] <= UInt8(ascii: "z") { out[start] -= 32 }
                if position + 1 < count, position > 1, random.chance(60) { out += script.comma }
            }
        }
        out += script.fullStop
    }

    /// Runs `body` with spaces around it in scripts that do not space words, so a tag or link does
    /// not run into the next letter.
    private mutating func spaced(_ body: (inout GeneratorNoteWriter) -> Void) {
        let joins = note.script.joinsWords
        if joins { out.append(0x20) }
        body(&self)
        if joins { out.append(0x20) }
    }

    private mutating func style() {
        let script = note.script
        switch random.below(5) {
        case 0:
            text("**")
            words(random.inRange(1, 3), script: script)
            text("**")
        case 1:
            out.append(UInt8(ascii: "*"))
            out += plan.word(script, &random)
            out.append(UInt8(ascii: "*"))
        case 2:
            spaced { writer in
                writer.out.append(UInt8(ascii: "`"))
                writer.identifier()
                writer.out.append(UInt8(ascii: "`"))
            }
        case 3:
            spaced { writer in
                writer.out.append(UInt8(ascii: "$"))
                writer.mathExpression()
                writer.out.append(UInt8(ascii: "$"))
            }
        default:
            text("~~")
            out += plan.word(script, &random)
            text("~~")
        }
    }

    private static let mathVariables = Array("abcnxyzkt".utf8)
    private static let greekLetters = ["\\alpha", "\\beta", "\\gamma", "\\lambda", "\\mu", "\\sigma", "\\theta", "\\pi"]
        .map { Array($0.utf8) }

    private mutating func mathExpression() {
        let v = random.pick(GeneratorNoteWriter.mathVariables)
        switch random.below(6) {
        case 0:
            out += [v, UInt8(ascii: "^")]
            number(random.inRange(2, 9))
            text(" + ")
            out += random.pick(GeneratorNoteWriter.greekLetters)
        case 1:
            text("\\frac{")
            number(random.inRange(1, 9))
            text("}{")
            out.append(v)
            text("}")
        case 2:
            text("\\sum_{i=1}^{n} ")
            out += [v, UInt8(ascii: "_"), UInt8(ascii: "i")]
            text(" = ")
            number(random.below(1000))
        case 3:
            out += random.pick(GeneratorNoteWriter.greekLetters)
            text(" = 0.")
            number(random.inRange(1, 99))
        case 4:
            text("\\int_0^1 ")
            out.append(v)
            text("(t)\\,dt")
        default:
            out += [v, UInt8(ascii: "_"), UInt8(ascii: "1")]
            text(" \\le ")
            out += [v, UInt8(ascii: "_"), UInt8(ascii: "2")]
        }
    }

    private mutating func words(_ count: Int, script: GeneratorScript) {
        for position in 0..<max(1, count) {
            if position > 0, !script.joinsWords { out.append(0x20) }
            if script == note.script { appendWord() } else { out += plan.word(script, &random) }
        }
    }

    /// A word of the note's script, common words more often.
    private mutating func appendWord() {
        guard !lexicon.isEmpty else { return }
        let index = wordSampler.sample(&random)
        out += lexicon[index < lexicon.count ? index : index % lexicon.count]
    }

    private mutating func identifier() {
        out += plan.word(.latin, &random)
        if random.chance(500) {
            out += NotebookPlan.capitalized(plan.word(.latin, &random))
        }
    }

    private mutating func tag() -> [UInt8] {
        plan.tags[plan.tagSampler.sample(&random)]
    }

    private mutating func text(_ literal: StaticString) {
        literal.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    private mutating func number(_ value: Int) {
        var digits: [UInt8] = []
        var rest = max(0, value)
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        out += digits.reversed()
    }

    private mutating func twoDigits(_ value: Int) {
        if value < 10 { out.append(UInt8(ascii: "0")) }
        number(value)
    }

    // MARK: Links

    /// A note to link to: popular notes often, any note sometimes, a neighbour in the same folder
    /// sometimes; never this note unless it is the only one.
    private mutating func linkTarget() -> Int {
        let count = plan.notes.count
        guard count > 1 else { return index }
        var target: Int
        let roll = random.below(100)
        if roll < 45 {
            target = plan.popularity[plan.popularitySampler.sample(&random)]
        } else if roll < 80 {
            target = random.below(count)
        } else {
            target = random.pick(plan.notesByFolder[note.folder])
        }
        if target == index { target = (index + 1) % count }
        return target
    }

    private mutating func link() {
        let roll = random.below(1000)
        if roll >= 975 {
            imageLink()
            return
        }
        if roll >= 900 {
            sameNoteLink()
            return
        }
        let targetIndex = linkTarget()
        let target = plan.notes[targetIndex]
        let broken = random.chance(GeneratorNoteWriter.brokenLinkPerMille)
        // What breaks: 0 the note, 1 the heading, 2 the block id.
        var breakWhat = -1
        if broken {
            let what = random.below(100)
            breakWhat = what < 50 ? 0 : what < 85 ? 1 : 2
        }
        let stem = breakWhat == 0 ? missingStem() : target.stem
        let heading = random.below(target.headingTexts.count)
        switch roll {
        case ..<230:
            wiki(stem: stem, heading: breakWhat == 1 ? missingHeading(target) : nil,
                 block: breakWhat == 2 ? missingBlock(target) : nil, label: false)
        case ..<340:
            wiki(stem: stem, heading: breakWhat == 1 ? missingHeading(target) : target.headingTexts[heading], block: nil, label: false)
        case ..<430:
            wiki(stem: stem, heading: breakWhat == 1 ? missingHeading(target) : nil, block: nil, label: true)
        case ..<460:
            wiki(stem: stem, heading: breakWhat == 1 ? missingHeading(target) : target.headingTexts[heading], block: nil, label: true)
        case ..<500:
            let block = breakWhat == 2 || target.blockIDs.isEmpty ? missingBlockOrNil(target, broken: breakWhat == 2)
                : random.pick(target.blockIDs)
            wiki(stem: stem, heading: breakWhat == 1 ? missingHeading(target) : nil, block: block, label: false)
        case ..<530:
            // Folder-qualified: `[[folder/sub/stem]]`.
            text("[[")
            out += plan.folders[target.folder].path
            out += stem
            text("]]")
        case ..<545:
            if let alias = target.aliases.first, breakWhat < 0 {
                text("[[")
                out += alias
                text("]]")
            } else {
                wiki(stem: stem, heading: breakWhat == 1 ? missingHeading(target) : nil, block: nil, label: false)
            }
        case ..<760:
            markdown(to: target, stem: stem, anchor: breakWhat == 1 ? NotebookPlan.slug(missingHeading(target))
                     : breakWhat == 2 ? [UInt8(ascii: "^")] + missingBlock(target) : nil)
        case ..<880:
            markdown(to: target, stem: stem, anchor: breakWhat == 1 ? NotebookPlan.slug(missingHeading(target))
                     : target.headingSlugs[heading])
        default:
            let block = breakWhat == 2 || target.blockIDs.isEmpty ? missingBlockOrNil(target, broken: breakWhat == 2)
                : random.pick(target.blockIDs)
            markdown(to: target, stem: stem, anchor: breakWhat == 1 ? NotebookPlan.slug(missingHeading(target))
                     : block.map { [UInt8(ascii: "^")] + $0 })
        }
    }

    private mutating func wiki(stem: [UInt8], heading: [UInt8]?, block: [UInt8]?, label: Bool) {
        text("[[")
        out += stem
        if let heading {
            out.append(UInt8(ascii: "#"))
            out += heading
        }
        if let block {
            text("#^")
            out += block
        }
        if label {
            out.append(UInt8(ascii: "|"))
            words(random.inRange(1, 3), script: note.script)
        }
        text("]]")
    }

    /// `[text](relative/path.md#anchor)` from this note's folder.
    private mutating func markdown(to target: NotebookPlan.Note, stem: [UInt8], anchor: [UInt8]?) {
        out.append(UInt8(ascii: "["))
        if random.chance(400) {
            out += target.title
        } else {
            words(random.inRange(1, 3), script: note.script)
        }
        out += [UInt8(ascii: "]"), UInt8(ascii: "(")]
        let encodeUnicode = random.chance(500)
        let angle = random.chance(200) && !encodeUnicode
        var destination = relativeFolder(to: target.folder)
        destination += stem
        destination += Array(".md".utf8)
        if angle, destination.contains(0x20) {
            out.append(UInt8(ascii: "<"))
            out += destination
        } else {
            percentEncode(destination, unicode: encodeUnicode)
        }
        if let anchor {
            out.append(UInt8(ascii: "#"))
            percentEncode(anchor, unicode: encodeUnicode)
        }
        if angle, destination.contains(0x20) { out.append(UInt8(ascii: ">")) }
        out.append(UInt8(ascii: ")"))
    }

    /// `[[#Heading]]` or `[text](#slug)` into this note.
    private mutating func sameNoteLink() {
        let heading = random.below(note.headingTexts.count)
        if random.chance(500) {
            text("[[#")
            out += note.headingTexts[heading]
            text("]]")
        } else {
            out.append(UInt8(ascii: "["))
            words(random.inRange(1, 2), script: note.script)
            text("](#")
            out += note.headingSlugs[heading]
            out.append(UInt8(ascii: ")"))
        }
    }

    /// `![[attachments/x.png]]` or `![alt](../attachments/x.png)`.
    private mutating func imageLink() {
        guard !plan.attachments.isEmpty else { return }
        let attachment = random.pick(plan.attachments)
        if random.chance(500) {
            text("![[")
            out += attachment
            text("]]")
        } else {
            text("![")
            words(random.inRange(1, 3), script: note.script)
            out += [UInt8(ascii: "]"), UInt8(ascii: "(")]
            out += relativeFolder(to: 0)
            out += attachment
            out.append(UInt8(ascii: ")"))
        }
    }

    /// The path from this note's folder to `folder` (`../b/`), with a trailing `/` unless empty.
    private func relativeFolder(to folder: Int) -> [UInt8] {
        let from = plan.folders[note.folder].chain
        let to = plan.folders[folder].chain
        var common = 0
        while common < from.count, common < to.count, from[common] == to[common] { common += 1 }
        var path: [UInt8] = []
        for _ in common..<from.count { path += Array("../".utf8) }
        for folderIndex in to[common...] {
            path += plan.folders[folderIndex].name
            path.append(UInt8(ascii: "/"))
        }
        return path
    }

    private static let hex = Array("0123456789ABCDEF".utf8)

    /// Spaces (and, when `unicode`, every non-ASCII byte) as `%XX`.
    private mutating func percentEncode(_ bytes: [UInt8], unicode: Bool) {
        for byte in bytes {
            if byte == 0x20 || (unicode && byte >= 0x80) {
                out += [UInt8(ascii: "%"), GeneratorNoteWriter.hex[Int(byte >> 4)], GeneratorNoteWriter.hex[Int(byte & 15)]]
            } else {
                out.append(byte)
            }
        }
    }

    // MARK: Broken on purpose

    /// A stem no note has (and no title or alias matches).
    private mutating func missingStem() -> [UInt8] {
        while true {
            let stem = plan.rareWord(.latin, &random) + [UInt8(ascii: "-")] + plan.rareWord(.latin, &random)
                + [UInt8(ascii: "-")] + plan.rareWord(.latin, &random)
            if !plan.takenNames.contains(stem) { return stem }
        }
    }

    private mutating func missingHeading(_ target: NotebookPlan.Note) -> [UInt8] {
        while true {
            let text = plan.phrase(target.script, words: random.inRange(2, 4), titleCase: false, &random)
            let slug = NotebookPlan.slug(text)
            if !target.headingSlugs.contains(slug) { return text }
        }
    }

    private mutating func missingBlock(_ target: NotebookPlan.Note) -> [UInt8] {
        while true {
            let id = NotebookPlan.blockID(&random)
            if !target.blockIDs.contains(id) { return id }
        }
    }

    private mutating func missingBlockOrNil(_ target: NotebookPlan.Note, broken: Bool) -> [UInt8]? {
        broken ? missingBlock(target) : nil
    }
}
