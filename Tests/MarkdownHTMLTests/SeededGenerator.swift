/// A small linear congruential generator, so randomized tests reproduce their failures.
struct SeededGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return state >> 33
    }
}
