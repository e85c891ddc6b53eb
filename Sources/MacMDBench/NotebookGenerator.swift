// NotebookGenerator: a synthetic Markdown notebook for the index benchmarks
// (`macmd-bench generate`).
//
// Invariants:
// - Pure: no IO. Files come out through a closure as (workspace-relative path, bytes), in a fixed
//   order: the attachments, then the notes by index. The caller writes them (or keeps them in
//   memory, as the tests do).
// - Deterministic: the same `noteCount` and `seed` give byte-identical files on every machine.
//   The generator has its own PRNG (`GeneratorRandom`), uses only integer arithmetic and IEEE
//   basic operations, and never depends on Set or Dictionary order (Swift seeds hashing per
//   process).
// - Every note is `minimumNoteBytes...maximumNoteBytes` long, lives at most three folders deep
//   and has one to eight headings. Links point at real notes, headings and block ids, except for
//   about `GeneratorNoteWriter.brokenLinkPerMille` per mille broken on purpose.
//
// What the notebook holds: note sizes log-normal around a median of 1.5 KB; YAML front matter on
// ~80 % of notes (title, date, tags as a list, sometimes aliases); wiki-links (`[[stem]]`,
// `[[stem#Heading]]`, `[[stem|label]]`, `[[stem#^id]]`, `[[folder/stem]]`, `![[image.png]]`) and
// Markdown links with relative paths (`[t](../folder/note.md#heading-slug)`), some percent-encoded;
// tags from a Zipf-distributed vocabulary of 500 (with nested `#a/b`); lists, task lists, code
// blocks, tables, inline and display math, block quotes; block ids (`^id`); a fifth of the notes in
// Cyrillic, Greek, Han, Japanese, Arabic or Devanagari words made from syllable tables. A few tiny
// PNG files in `attachments/` are there for the image links to find.

/// Generates a deterministic notebook of Markdown notes.
///
/// ```swift
/// let generator = NotebookGenerator(notes: 1000, seed: 42)
/// generator.generate { file in write(file.path, file.bytes) }
/// ```
public struct NotebookGenerator: Sendable {
    /// One generated file.
    public struct File: Sendable, Equatable {
        /// Workspace-relative, `/`-separated (`garden/soil-tests.md`).
        public var path: String
        public var bytes: [UInt8]
        /// False for the PNG attachments.
        public var isNote: Bool
    }

    /// The smallest note, in bytes.
    public static let minimumNoteBytes = 320
    /// The largest note, in bytes.
    public static let maximumNoteBytes = 50_000
    /// The median the note sizes are drawn around, in bytes.
    public static let medianNoteBytes = 1_500
    /// The deepest a note's folder is (`a/b/c/note.md` is 3).
    public static let maximumFolderDepth = NotebookPlan.maximumFolderDepth

    public let noteCount: Int
    public let seed: UInt64

    /// A generator of `notes` notes (negative counts as 0) from `seed`.
    public init(notes: Int, seed: UInt64) {
        self.noteCount = max(0, notes)
        self.seed = seed
    }

    /// Produces every file, attachments first, then the notes in order.
    public func generate(_ emit: (File) -> Void) {
        let plan = NotebookPlan(noteCount: noteCount, seed: seed)
        var random = GeneratorRandom(seed: seed, stream: UInt64.max)
        for attachment in plan.attachments {
            emit(File(path: String(decoding: attachment, as: UTF8.self), bytes: NotebookGenerator.png(&random), isNote: false))
        }
        for index in plan.notes.indices {
            var writer = GeneratorNoteWriter(plan: plan, index: index, seed: seed)
            let bytes = writer.write()
            emit(File(path: String(decoding: plan.notes[index].path, as: UTF8.self), bytes: bytes, isNote: true))
        }
    }

    /// Every file in memory (for tests and small notebooks).
    public func files() -> [File] {
        var result: [File] = []
        generate { result.append($0) }
        return result
    }

    // MARK: Attachments

    /// A valid 4×4 RGB PNG of random colours: stored (uncompressed) deflate, so no zlib is needed.
    static func png(_ random: inout GeneratorRandom) -> [UInt8] {
        let side = 4
        var raw: [UInt8] = []
        for _ in 0..<side {
            raw.append(0)  // filter: none
            for _ in 0..<(side * 3) { raw.append(UInt8(truncatingIfNeeded: random.next())) }
        }
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header += bigEndian(UInt32(side))
        header += bigEndian(UInt32(side))
        header += [8, 2, 0, 0, 0]
        chunk("IHDR", header, into: &bytes)
        var zlib: [UInt8] = [0x78, 0x01, 0x01]
        let length = UInt16(raw.count)
        zlib += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
        zlib += raw
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in raw {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        zlib += bigEndian(b << 16 | a)
        chunk("IDAT", zlib, into: &bytes)
        chunk("IEND", [], into: &bytes)
        return bytes
    }

    private static func chunk(_ type: String, _ data: [UInt8], into bytes: inout [UInt8]) {
        bytes += bigEndian(UInt32(data.count))
        let typed = Array(type.utf8) + data
        bytes += typed
        bytes += bigEndian(crc32(typed))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
