// LineIndex: where each line of a document starts, and conversions between UTF-8 byte offsets
// and (line, column) positions in UTF-8, UTF-16 or UTF-32 units.
//
// Invariants:
// - `lineStarts` is strictly increasing, begins with 0, and has one entry per line: a document
//   with k line endings has k + 1 lines (so a trailing newline gives an empty last line, as LSP
//   expects). Lines are 0-based.
// - `\r\n` is one line ending; a lone `\r` and a lone `\n` are each one line ending.
// - Every query clamps: a negative offset reads as 0, an offset past the end as the end, a line
//   past the last as the end of the document, a column past a line's end as that end (before its
//   line ending), and a column inside a character as the start of that character.
// - Building is one pass over the bytes, eight at a time; lookups are binary searches (O(log n)),
//   column conversions walk only the one line they concern, and on a long line only from the
//   checkpoint before their column (`LineIndex+Columns.swift`), so converting every position of
//   a line is linear in its length.

/// The line structure of one document's UTF-8 bytes.
///
/// Build it once per document version; it holds the bytes (copy-on-write, so no copy is made)
/// because column conversions other than UTF-8 need to see the characters of a line.
///
/// Lines and columns are 0-based. Column units are named: `utf8Column` counts bytes,
/// `utf16Column` UTF-16 code units, `utf32Column` Unicode code points.
public struct LineIndex: Sendable {
    /// The document's bytes.
    public let utf8: [UInt8]
    /// The UTF-8 offset at which each line starts; `lineStarts[0] == 0`.
    public let lineStarts: [Int]
    /// The column checkpoints of long lines, made as conversions need them
    /// (`LineIndex+Columns.swift`).
    let longLines = LongLineColumns()

    /// Indexes the lines of `utf8`, which need not be valid UTF-8.
    public init(utf8: [UInt8]) {
        self.utf8 = utf8
        self.lineStarts = LineIndex.computeLineStarts(utf8)
    }

    /// Indexes the lines of `text`'s UTF-8 form.
    public init(_ text: String) {
        self.init(utf8: Array(text.utf8))
    }

    /// The number of lines, at least 1 (an empty document has one empty line).
    @inlinable public var lineCount: Int { lineStarts.count }

    /// The number of bytes in the document.
    @inlinable public var utf8Count: Int { utf8.count }

    // MARK: Lines

    /// The 0-based line that contains `utf8Offset`. A line ending belongs to the line it ends.
    /// Offsets below 0 give line 0; offsets at or past the end give the last line.
    public func line(containingUTF8Offset utf8Offset: Int) -> Int {
        let offset = clampOffset(utf8Offset)
        // Binary search for the last line start <= offset.
        var low = 0
        var high = lineStarts.count  // exclusive
        while high - low > 1 {
            let mid = low + (high - low) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid }
        }
        return low
    }

    /// The UTF-8 offset where `line` starts. A negative line gives 0; a line at or past
    /// `lineCount` gives `utf8Count`.
    public func lineStart(_ line: Int) -> Int {
        if line < 0 { return 0 }
        if line >= lineStarts.count { return utf8.count }
        return lineStarts[line]
    }

    /// The UTF-8 offset just past the last character of `line`, before its line ending.
    /// Clamped like `lineStart(_:)`.
    public func lineEnd(_ line: Int) -> Int {
        if line < 0 { return lineEnd(0) }
        if line >= lineStarts.count { return utf8.count }
        let next = lineEndIncludingLineEnding(line)
        let start = lineStarts[line]
        guard next > start, line < lineStarts.count - 1 else { return next }
        // The line ends in "\n", "\r" or "\r\n".
        if utf8[next - 1] == 0x0A, next - 2 >= start, utf8[next - 2] == 0x0D { return next - 2 }
        return next - 1
    }

    /// The UTF-8 offset where the next line starts (or `utf8Count` for the last line).
    public func lineEndIncludingLineEnding(_ line: Int) -> Int {
        if line < 0 { return lineEndIncludingLineEnding(0) }
        if line >= lineStarts.count - 1 { return utf8.count }
        return lineStarts[line + 1]
    }

    /// The bytes of `line` without its line ending, as a range of UTF-8 offsets.
    public func lineRange(_ line: Int) -> Range<Int> {
        let start = lineStart(line)
        return start..<max(start, lineEnd(line))
    }

    // MARK: Positions

    /// The 0-based line and UTF-8 column of `utf8Offset` (clamped to the document).
    public func position(ofUTF8Offset utf8Offset: Int) -> (line: Int, utf8Column: Int) {
        let position = lineColumn(ofUTF8Offset: utf8Offset, unit: .utf8)
        return (position.line, position.column)
    }

    /// The 0-based line and UTF-16 column of `utf8Offset`. An offset inside a character
    /// counts as the start of that character.
    public func utf16Position(ofUTF8Offset utf8Offset: Int) -> (line: Int, utf16Column: Int) {
        let position = lineColumn(ofUTF8Offset: utf8Offset, unit: .utf16)
        return (position.line, position.column)
    }

    /// The 0-based line and code-point column of `utf8Offset`. An offset inside a character
    /// counts as the start of that character.
    public func utf32Position(ofUTF8Offset utf8Offset: Int) -> (line: Int, utf32Column: Int) {
        let position = lineColumn(ofUTF8Offset: utf8Offset, unit: .utf32)
        return (position.line, position.column)
    }

    /// The UTF-8 offset of a (line, UTF-8 column) position, clamped to the line and moved back to
    /// the start of the character the column falls in.
    public func utf8Offset(line: Int, utf8Column: Int) -> Int {
        utf8Offset(of: LineColumn(line: line, column: utf8Column), unit: .utf8)
    }

    /// The UTF-8 offset of a (line, UTF-16 column) position. A column past the line's end gives
    /// the line's end; a column between the two halves of a surrogate pair gives the start of
    /// that character.
    public func utf8Offset(line: Int, utf16Column: Int) -> Int {
        utf8Offset(of: LineColumn(line: line, column: utf16Column), unit: .utf16)
    }

    /// The UTF-8 offset of a (line, code-point column) position, clamped to the line's end.
    public func utf8Offset(line: Int, utf32Column: Int) -> Int {
        utf8Offset(of: LineColumn(line: line, column: utf32Column), unit: .utf32)
    }

    /// The line and column, in `unit`, of `utf8Offset` (clamped to `0...utf8Count`).
    public func lineColumn(ofUTF8Offset utf8Offset: Int, unit: ColumnUnit) -> LineColumn {
        let offset = clampOffset(utf8Offset)
        let line = line(containingUTF8Offset: offset)
        let start = lineStarts[line]
        if unit == .utf8 { return LineColumn(line: line, column: offset - start) }
        let column = utf8.withUnsafeBufferPointer { bytes -> Int in
            let target = UTF8ScalarLength.start(containing: offset, floor: start, in: bytes, end: bytes.count)
            return units(before: target, line: line, start: start, unit: unit, in: bytes)
        }
        return LineColumn(line: line, column: column)
    }

    /// The UTF-8 offset of `position`, whose column is counted in `unit`.
    ///
    /// A negative line gives 0 and a line past the last gives `utf8Count`; a negative column gives
    /// the line's start, a column past the line's end gives the end (before the line ending), and
    /// a column inside a character gives that character's start.
    public func utf8Offset(of position: LineColumn, unit: ColumnUnit) -> Int {
        if position.line < 0 { return 0 }
        if position.line >= lineStarts.count { return utf8.count }
        let start = lineStarts[position.line]
        let end = lineEnd(position.line)
        let column = position.column
        if column <= 0 { return start }
        return utf8.withUnsafeBufferPointer { bytes -> Int in
            if unit == .utf8 {
                let target = column >= end - start ? end : start + column
                return UTF8ScalarLength.start(containing: target, floor: start, in: bytes, end: bytes.count)
            }
            // The walk from the line's start, from its last checkpoint before `column`.
            var (offset, units) = walkStart(toColumn: column, line: position.line, start: start, end: end, unit: unit, in: bytes)
            while offset < end, units < column {
                if bytes[offset] < 0x80 {
                    offset += 1
                    units += 1
                    continue
                }
                let scalar = UTF8ScalarLength.at(offset, in: bytes, end: bytes.count)
                let width = unit == .utf16 ? scalar.utf16Count : 1
                // The column falls between the two UTF-16 units of one character.
                if units + width > column { break }
                units += width
                offset += scalar.utf8Count
            }
            return min(offset, end)
        }
    }

    /// The columns, in `unit`, from `from` to `to` on one line (`from` ≤ `to`; both clamped to
    /// the document and read as the start of the character they fall in): what the column of
    /// `to` less the column of `from` is, counted between them alone, so positions converted in
    /// order along a line (a note's semantic tokens) cost the distance between them, not a walk
    /// from the line's start each.
    public func columns(from: Int, to: Int, unit: ColumnUnit) -> Int {
        let lower = clampOffset(from)
        let upper = max(lower, clampOffset(to))
        if unit == .utf8 { return upper - lower }
        return utf8.withUnsafeBufferPointer { bytes -> Int in
            let start = UTF8ScalarLength.start(containing: lower, floor: 0, in: bytes, end: bytes.count)
            let end = UTF8ScalarLength.start(containing: upper, floor: 0, in: bytes, end: bytes.count)
            let walked = LineIndex.walk(from: start, to: end, in: bytes)
            return unit == .utf16 ? walked.utf16 : walked.utf32
        }
    }

    /// The start and end positions, in `unit`, of a range of UTF-8 offsets.
    public func lineColumnRange(ofUTF8Range range: Range<Int>, unit: ColumnUnit) -> (start: LineColumn, end: LineColumn) {
        (lineColumn(ofUTF8Offset: range.lowerBound, unit: unit), lineColumn(ofUTF8Offset: range.upperBound, unit: unit))
    }

    /// The range of UTF-8 offsets between two positions whose columns are counted in `unit`,
    /// each clamped as `utf8Offset(of:unit:)` does. A range whose end comes before its start
    /// (which a client may send) is read as the empty range at its start.
    public func utf8Range(from start: LineColumn, to end: LineColumn, unit: ColumnUnit) -> Range<Int> {
        let lower = utf8Offset(of: start, unit: unit)
        let upper = utf8Offset(of: end, unit: unit)
        return lower..<max(lower, upper)
    }

    // MARK: Building

    @inlinable func clampOffset(_ offset: Int) -> Int {
        offset < 0 ? 0 : (offset > utf8.count ? utf8.count : offset)
    }

    /// The index of this text with the bytes `range` replaced by `replacement`, made without
    /// reading the whole text again: the lines before the edit are kept, the lines after it are
    /// shifted, and only the lines the edit touches are scanned (a keystroke in a 1 MB note
    /// costs the copy of its bytes and a shift of its line starts, not a scan of every byte).
    /// `range` is clamped to the text.
    public func replacing(_ range: Range<Int>, with replacement: some Collection<UInt8>) -> LineIndex {
        let start = clampOffset(range.lowerBound)
        let end = max(start, clampOffset(range.upperBound))
        var text = utf8
        text.replaceSubrange(start..<end, with: replacement)
        let delta = text.count - utf8.count
        // Rescan from the start of the line holding the byte before the edit (a `\r` there may
        // pair with a `\n` the edit brings) to the first line start more than one byte past the
        // edit's end (a line ending that begins there is made of bytes the edit left alone).
        let first = line(containingUTF8Offset: max(start - 1, 0))
        let after = line(containingUTF8Offset: end + 1) + 1
        let scanEnd = after < lineStarts.count ? lineStarts[after] + delta : text.count
        var starts = Array(lineStarts[...first])
        starts.reserveCapacity(lineStarts.count + 8)
        text.withUnsafeBufferPointer { buffer in
            LineIndex.appendLineStarts(buffer, from: lineStarts[first], to: scanEnd, into: &starts)
        }
        // The scan ends with the line start at `scanEnd`, which the kept lines would repeat.
        if after < lineStarts.count {
            starts.append(contentsOf: lineStarts[(after + 1)...].lazy.map { $0 + delta })
        }
        return LineIndex(utf8: text, lineStarts: starts)
    }

    init(utf8: [UInt8], lineStarts: [Int]) {
        self.utf8 = utf8
        self.lineStarts = lineStarts
    }

    /// One pass over the bytes (see `appendLineStarts`).
    static func computeLineStarts(_ bytes: [UInt8]) -> [Int] {
        var starts: [Int] = [0]
        bytes.withUnsafeBufferPointer { buffer in
            appendLineStarts(buffer, from: 0, to: buffer.count, into: &starts)
        }
        return starts
    }

    /// Appends the start of each line that follows a line ending beginning in `from..<to` of
    /// `buffer` (`from` being a line start). Eight bytes are tested at a time for `\n` or `\r`
    /// with the "has a zero byte" word trick; only words that contain one are looked at byte by
    /// byte.
    static func appendLineStarts(_ buffer: UnsafeBufferPointer<UInt8>, from: Int, to: Int, into starts: inout [Int]) {
        guard let base = buffer.baseAddress else { return }
        do {
            let count = buffer.count
            let to = min(to, count)
            let raw = UnsafeRawPointer(base)
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            let newlines: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
            let returns: UInt64 = 0x0D0D_0D0D_0D0D_0D0D
            var index = from
            while index + 8 <= to {
                // Little-endian load: byte k of the word is bits 8k..<8k+8, so the lowest flagged
                // bit names the first line-ending byte. (Only the lowest flag is exact.)
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let a = word ^ newlines
                let b = word ^ returns
                let found = (((a &- ones) & ~a) | ((b &- ones) & ~b)) & highs
                if found == 0 {
                    index &+= 8
                    continue
                }
                index &+= found.trailingZeroBitCount >> 3
                index = consumeLineEnding(at: index)
            }
            while index < to {
                let byte = base[index]
                if byte == 0x0A || byte == 0x0D {
                    index = consumeLineEnding(at: index)
                } else {
                    index &+= 1
                }
            }
            /// Records the line that starts after the `\n`, `\r` or `\r\n` at `offset`.
            @inline(__always) func consumeLineEnding(at offset: Int) -> Int {
                var next = offset &+ 1
                if base[offset] == 0x0D, next < count, base[next] == 0x0A { next &+= 1 }
                starts.append(next)
                return next
            }
        }
    }
}
