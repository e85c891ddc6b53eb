// The `macmd` executable: dispatches to one subcommand per file (`RenderCommand`, and later
// `lsp`, `check`, `bench`).
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
exit(MacMDCommandLine.run(Array(CommandLine.arguments.dropFirst())))
