// Handing freed memory back to the system after a burst of work.
//
// `macmd lsp` tells glibc to keep freed memory (main.swift: megabyte blocks stay in the heap, up
// to 64 MB of free memory at its top), so the next request reuses mapped pages instead of
// faulting them in again. After a storm of edits (each a new text, line index and tree, most
// superseded at once) the server's RSS then stays at the storm's high-water mark although
// little of it is live. Once the server pauses, `malloc_trim(0)` returns the free pages of every
// arena: fast while working, small while idle. It is looked up at run time: the Glibc
// module does not declare it, and other C libraries (macOS, musl) have no such call — there it is
// a no-op.

#if canImport(Glibc)
import Glibc
#endif

enum MemoryTrim {
    #if canImport(Glibc)
    private typealias Trim = @convention(c) (Int) -> Int32
    private static let trim: Trim? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim").map { unsafeBitCast($0, to: Trim.self) }
    #endif

    /// Returns the allocator's free memory to the system, where the C library can.
    static func release() {
        #if canImport(Glibc)
        _ = trim?(0)
        #endif
    }
}
