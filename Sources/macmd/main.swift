// The `macmd` executable, the product: dispatches to one subcommand per file (`RenderCommand`,
// `LSPCommand`, `CheckCommand`). The benchmarks are another executable's, `macmd-bench`.
//
// Invariants: exit status 0 on success, 1 when writing the output failed, 2 for usage errors and
// unreadable input. Diagnostics go to stderr as one line each; stdout carries only the output.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// A closed pipe on stdout must not kill the process with a signal; the write reports it instead.
signal(SIGPIPE, SIG_IGN)

#if canImport(Glibc)
// The language server handles megabyte buffers on every large request (a note's text, its tree,
// its HTML, the answer's frame). glibc's defaults serve each of them with a fresh mmap and give it
// back with munmap when freed, so every request faults in (and zeroes) all of their pages
// again. Keeping such blocks in the heap, and freed memory at
// its top, lets the next request reuse pages that are already mapped. The cost is memory the
// process keeps after a large request (up to the trim threshold), not idle RSS. Other
// subcommands keep glibc's defaults (`macmd render`'s peak RSS is a measured target).
// Glibc's Swift module leaves out <malloc.h>, so `mallopt` is looked up by name; the parameter
// numbers are <malloc.h>'s M_TRIM_THRESHOLD (-1), M_TOP_PAD (-2) and M_MMAP_THRESHOLD (-3).
if CommandLine.arguments.dropFirst().first == "lsp", let symbol = dlsym(nil, "mallopt") {
    typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
    let mallopt = unsafeBitCast(symbol, to: MallOpt.self)
    _ = mallopt(-3, 32 << 20)   // M_MMAP_THRESHOLD: glibc's largest allowed value
    _ = mallopt(-1, 64 << 20)   // M_TRIM_THRESHOLD
    _ = mallopt(-2, 8 << 20)    // M_TOP_PAD
}
#endif

exit(MacMDCommandLine.run(Array(CommandLine.arguments.dropFirst())))
