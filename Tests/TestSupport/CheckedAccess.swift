/// Reads that fail an assertion instead of trapping the whole test run when a result is shorter
/// or a range wider than the test expects.
extension RandomAccessCollection where Index == Int {
    /// The element at `index`, nil when there is none (arrays, and lists that read like them:
    /// a note's `LinkList`).
    public subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}

extension Array where Element == UInt8 {
    /// The UTF-8 text of `range`, or `<range a..<b outside 0..<n>` when it does not fit.
    public func text(_ range: Range<Int>) -> String {
        guard range.lowerBound >= 0, range.upperBound <= count else { return "<range \(range) outside 0..<\(count)>" }
        return String(decoding: self[range], as: UTF8.self)
    }
}
