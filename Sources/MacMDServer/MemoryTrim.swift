// Handing freed memory back to the system after a burst of work.
//
// glibc's malloc keeps memory a program frees for its next allocations, in per-thread arenas;
// after a storm of edits (each a new text, line index and tree, most superseded at once) the
// server's RSS stays at the storm's high-water mark although little of it is live.
// `malloc_trim(0)` returns the free pages of every arena. It is looked up at run time: the Glibc
// module does not declare it, and other C libraries (macOS, musl) have no such call — there it is
// a no-op.

#if canImport(Glibc)
import Glibc
#endif

enum MemoryTrim {
    #if canImport(Glibc)
    private typealias Trim = @convention(c) (Int) -> Int32
    private typealias Option = @convention(c) (Int32, Int32) -> Int32
    private static let trim: Trim? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim").map { unsafeBitCast($0, to: Trim.self) }
    private static let option: Option? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt").map { unsafeBitCast($0, to: Option.self) }
    #endif

    /// Keeps every block of 128 KiB or more (a long note's text, its line index) in its own
    /// mapping, given back the moment it is freed. glibc otherwise raises that threshold to the
    /// largest block freed so far, after which each keystroke's copy of a 400 KB note comes from
    /// the heap and leaves it fragmented (RSS 20% over its start after 100,000 edits, and still
    /// after a trim). Once, before the server starts.
    static func keepLargeBlocksMapped() {
        #if canImport(Glibc)
        let mmapThreshold: Int32 = -3 // M_MMAP_THRESHOLD
        _ = option?(mmapThreshold, 128 * 1024)
        #endif
    }

    /// Returns the allocator's free memory to the system, where the C library can.
    static func release() {
        #if canImport(Glibc)
        _ = trim?(0)
        #endif
    }
}
