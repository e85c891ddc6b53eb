// `macmd-bench`: the benchmarks, the benchmark notebooks' generator, the fuzzers and the peer
// drivers, a second executable of the package beside the product binary `macmd`, which it
// measures (`BenchCommand.macmdPath`: the `macmd` built beside it, or `$MACMD`). A writer never
// needs it; `swift build -c release` builds both.
//
// Invariants: exit status 0 on success, 1 when a benchmark failed or found a fault, 2 for usage
// errors. No Foundation (see BenchCommand.swift).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// A closed pipe on stdout must not kill the process with a signal; the write reports it instead.
signal(SIGPIPE, SIG_IGN)

exit(BenchCommand.run(Array(CommandLine.arguments.dropFirst())))
