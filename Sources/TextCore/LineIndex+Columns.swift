// Column conversions within a line, linear however long the line: a UTF-16 or UTF-32 column is
// counted by walking the line's scalars, and on a long line every walk starts from a checkpoint
// near its goal instead of from the line's start. Without them, a note of one long line with
// a hundred thousand links (each a diagnostic, a document link, a range to convert) took the
// square of its length to answer.
//
// Invariants:
// - A walk visits the same scalar starts whatever scalar start it begins at (UTF8ScalarLength is
//   self-synchronising), and a checkpoint is a state of the walk from the line's start (a
//   scalar start and the units before it), so a walk from a checkpoint counts exactly what the
//   walk from the line's start counts: conversions are the same with or without checkpoints.
// - Checkpoints are made for a line the first time a conversion needs them (lines of
//   `checkpointedLineLength` bytes or more), once per line per `LineIndex` value, outside any
//   lock; an ASCII line keeps none (its columns are its byte offsets).
// - A walk reads at most `checkpointSpacing` bytes plus one scalar past its checkpoint, or a
//   short line's bytes.

import Locks

/// The checkpoints of one long line: for each multiple of `checkpointSpacing` bytes from the
/// line's start, the first scalar start at or after it and the units before that start.
struct LineCheckpoints: Sendable {
    /// True when the line is ASCII: every column is its byte offset, and the arrays are empty.
    var isASCII: Bool
    /// Byte offsets from the line's start.
    var offsets: [Int32] = []
    var utf16Units: [Int32] = []
    var utf32Units: [Int32] = []
}

/// The checkpoints made so far for the long lines of one `LineIndex` (shared by its copies,
/// which index the same bytes).
final class LongLineColumns: Sendable {
    private let lines = Locked<[Int: LineCheckpoints]>([:])

    func checkpoints(line: Int, make: () -> LineCheckpoints) -> LineCheckpoints {
        if let known = lines.withLock({ $0[line] }) { return known }
        let made = make()
        lines.withLock { $0[line] = made }
        return made
    }
}

extension LineIndex {
    /// Lines at least this long (in bytes, with their line ending) get checkpoints.
    static let checkpointedLineLength = 512
    /// Bytes between checkpoints.
    static let checkpointSpacing = 256

    /// The units (`unit`, not UTF-8) of the scalars that start in `start..<target` of `line`,
    /// `start` being the line's start and `target` a scalar start on it.
    func units(before target: Int, line: Int, start: Int, unit: ColumnUnit, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let lineEnd = lineEndIncludingLineEnding(line)
        guard lineEnd - start >= LineIndex.checkpointedLineLength else {
            let walked = LineIndex.walk(from: start, to: target, in: bytes)
            return unit == .utf16 ? walked.utf16 : walked.utf32
        }
        let checkpoints = checkpoints(line: line, start: start, end: lineEnd, in: bytes)
        if checkpoints.isASCII { return target - start }
        let index = min((target - start) / LineIndex.checkpointSpacing, checkpoints.offsets.count - 1)
        let walked = LineIndex.walk(from: start + Int(checkpoints.offsets[index]), to: target, in: bytes)
        return unit == .utf16 ? Int(checkpoints.utf16Units[index]) + walked.utf16 : Int(checkpoints.utf32Units[index]) + walked.utf32
    }

    /// Where the walk of `line` (from its start) begins to convert `column` (in `unit`, not
    /// UTF-8): the last checkpoint it would pass, as (offset, units before it); the line's
    /// start for a short line.
    func walkStart(toColumn column: Int, line: Int, start: Int, end: Int, unit: ColumnUnit,
                   in bytes: UnsafeBufferPointer<UInt8>) -> (offset: Int, units: Int) {
        let lineEnd = lineEndIncludingLineEnding(line)
        guard lineEnd - start >= LineIndex.checkpointedLineLength else { return (start, 0) }
        let checkpoints = checkpoints(line: line, start: start, end: lineEnd, in: bytes)
        if checkpoints.isASCII {
            let offset = min(start + column, end)
            return (offset, offset - start)
        }
        let units = unit == .utf16 ? checkpoints.utf16Units : checkpoints.utf32Units
        // The last checkpoint at or before the line's end whose units do not pass `column`: the
        // walk from the line's start reaches it (units grow with every scalar).
        var low = 0
        var high = units.count
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if Int(units[middle]) <= column && start + Int(checkpoints.offsets[middle]) <= end { low = middle } else { high = middle }
        }
        return (start + Int(checkpoints.offsets[low]), Int(units[low]))
    }

    /// The checkpoints of the long line `start..<end` (line ending included), made on first use.
    private func checkpoints(line: Int, start: Int, end: Int, in bytes: UnsafeBufferPointer<UInt8>) -> LineCheckpoints {
        longLines.checkpoints(line: line) {
            if LineIndex.isASCII(bytes, from: start, to: end) { return LineCheckpoints(isASCII: true) }
            var made = LineCheckpoints(isASCII: false)
            let count = (end - start + LineIndex.checkpointSpacing - 1) / LineIndex.checkpointSpacing
            made.offsets.reserveCapacity(count)
            made.utf16Units.reserveCapacity(count)
            made.utf32Units.reserveCapacity(count)
            var position = start
            var utf16 = 0
            var utf32 = 0
            for index in 0..<count {
                let walked = LineIndex.walk(from: position, to: start + index * LineIndex.checkpointSpacing, in: bytes)
                position = walked.position
                utf16 += walked.utf16
                utf32 += walked.utf32
                made.offsets.append(Int32(truncatingIfNeeded: position - start))
                made.utf16Units.append(Int32(truncatingIfNeeded: utf16))
                made.utf32Units.append(Int32(truncatingIfNeeded: utf32))
            }
            return made
        }
    }

    /// Walks the scalars that start in `from..<to` (`from` a scalar start), eight ASCII bytes at
    /// a time where it can: where it stopped (the first scalar start at or after `to`) and the
    /// UTF-16 and UTF-32 units of the scalars it passed.
    @inline(__always)
    static func walk(from: Int, to: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (position: Int, utf16: Int, utf32: Int) {
        var position = from
        var utf16 = 0
        var utf32 = 0
        let end = bytes.count
        while position < to {
            if position + 8 <= to,
               UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped + position).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                position += 8
                utf16 += 8
                utf32 += 8
                continue
            }
            let scalar = UTF8ScalarLength.at(position, in: bytes, end: end)
            position += scalar.utf8Count
            utf16 += scalar.utf16Count
            utf32 += 1
        }
        return (position, utf16, utf32)
    }

    /// True when `bytes[from..<to]` is ASCII.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Bool {
        var index = from
        while index + 8 <= to {
            if UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 != 0 {
                return false
            }
            index += 8
        }
        while index < to {
            if bytes[index] >= 0x80 { return false }
            index += 1
        }
        return true
    }
}
