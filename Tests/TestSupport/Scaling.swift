#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Scaling checks without a clock in the assertion's units: how many times longer the same work
/// takes on a larger input than on a smaller one. Linear work on an input 10 times larger takes
/// about 10 times as long, quadratic work 100 times; a test asserts a bound between the two
/// (the pathological suite's is 20).
public enum Scaling {
    /// `large`'s time over `small`'s, where `large` works on `factor` times the input of
    /// `small`. Times are the CPU time of the calling thread, so that other processes on a busy
    /// machine do not count; a sample of `small` runs it `factor` times, so that both samples
    /// last about as long (and suffer alike from what still disturbs them, such as caches other
    /// work evicts). Each time is the shortest of `runs` samples, taken in turns.
    public static func ratio(factor: Int, runs: Int = 3, small: () -> Void, large: () -> Void) -> Double {
        let repeats = max(1, factor)
        var bestSmall = Double.infinity
        var bestLarge = Double.infinity
        for _ in 0..<max(1, runs) {
            bestSmall = min(bestSmall, cpuSeconds { for _ in 0..<repeats { small() } } / Double(repeats))
            bestLarge = min(bestLarge, cpuSeconds(large))
        }
        return bestLarge / max(bestSmall, 1e-9)
    }

    /// The CPU time the calling thread spends in `work`.
    static func cpuSeconds(_ work: () -> Void) -> Double {
        func now() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
        }
        let start = now()
        work()
        return now() - start
    }
}
