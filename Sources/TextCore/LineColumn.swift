// LineColumn: a 0-based (line, column) pair whose column unit is given by the API that made it.

/// A 0-based line and column. The column's unit (`ColumnUnit`) is the one passed to the
/// `LineIndex` call that produced or consumes it; prefer the unit-named `LineIndex` methods
/// (`utf16Position(ofUTF8Offset:)`, `utf8Offset(line:utf16Column:)`) where the unit is fixed.
public struct LineColumn: Hashable, Sendable, CustomStringConvertible {
    /// 0-based line.
    public var line: Int
    /// 0-based column, in the unit of the call that made it.
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `line:column`, both 0-based.
    public var description: String { "\(line):\(column)" }
}
