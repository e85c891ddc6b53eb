/// A small linear congruential generator, so that randomized tests reproduce their failures.
public struct SeededGenerator: Sendable {
    public var state: UInt64

    public init(state: UInt64) {
        self.state = state
    }

    /// The next 31-bit number.
    public mutating func next() -> UInt64 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return state >> 33
    }

    /// A number in `0..<bound` (`bound` at least 1).
    public mutating func next(_ bound: Int) -> Int {
        Int(next() % UInt64(max(1, bound)))
    }
}
