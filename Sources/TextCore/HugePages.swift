// Transparent huge pages for the large buffers of a parse and a rendering.
//
// Why: a rendering of 10 MB of Markdown touches about 60 MB of fresh memory (the source, the
// content, the node arena). In 4 KB pages that is 15,000 page faults, and on a virtual machine a
// fault costs microseconds: a large share of a rendering's time. Linux backs a region the
// program advises (`MADV_HUGEPAGE`) with 2 MB pages where it can, one fault for 512 small ones,
// when transparent huge pages are `always` or `madvise` (the default of most distributions).
//
// Invariant: advice only. It never changes what memory holds, may be ignored by the kernel, and
// does nothing on other systems or for buffers smaller than a huge page.

#if canImport(Glibc)
import Glibc
#endif

/// Advice to the kernel about how to back large buffers.
public enum HugePages {
    /// The size of a huge page on x86-64 and arm64 Linux.
    public static let size = 2 << 20

    /// Asks for huge pages behind the `byteCount` bytes at `start`, before they are first
    /// written: a no-op below `size` bytes and outside Linux.
    @inlinable
    public static func advise(_ start: UnsafeMutableRawPointer?, byteCount: Int) {
        #if os(Linux)
        guard let start, byteCount >= size else { return }
        adviseLarge(start, byteCount: byteCount)
        #endif
    }

    /// Room for `capacity` elements (`UnsafeMutablePointer.allocate`), advised as above: how
    /// the parsers' and the node arena's buffers are allocated and grown.
    @inlinable
    public static func allocate<Element>(_ type: Element.Type, capacity: Int) -> UnsafeMutablePointer<Element> {
        let base = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
        advise(UnsafeMutableRawPointer(base), byteCount: capacity * MemoryLayout<Element>.stride)
        return base
    }

    @usableFromInline
    static func adviseLarge(_ start: UnsafeMutableRawPointer, byteCount: Int) {
        #if os(Linux)
        // madvise takes whole small pages: the ones entirely inside the buffer.
        let pageSize = 4096
        let first = (Int(bitPattern: start) + pageSize - 1) & ~(pageSize - 1)
        let end = (Int(bitPattern: start) + byteCount) & ~(pageSize - 1)
        guard end > first, let aligned = UnsafeMutableRawPointer(bitPattern: first) else { return }
        _ = madvise(aligned, end - first, MADV_HUGEPAGE)
        #endif
    }
}
