// Starting another program: `macmd export` starts the browser that prints a PDF, `macmd-bench`
// the servers, peers and workers it measures. One place turns arguments into a `posix_spawn`.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starting a program and waiting for it.
public enum Subprocess {
    /// Starts `arguments[0]` (a path) with `arguments` and this process's environment, its
    /// descriptors arranged by `arrange` (the file actions of `posix_spawn`); the child's pid,
    /// or nil when it could not start.
    public static func spawn(_ arguments: [String], arrange: (inout posix_spawn_file_actions_t) -> Void) -> pid_t? {
        guard let executable = arguments.first else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        arrange(&actions)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0 else { return nil }
        return pid
    }

    /// Waits for the child `pid`; its exit status, or -1 when it was killed by a signal or could
    /// not be waited for.
    public static func wait(for pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return -1 }
        }
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : -1
    }
}
