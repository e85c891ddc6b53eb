// `macmd lsp`: the language server on stdin/stdout.
//
// stdout carries only protocol frames: the protocol gets a duplicate of fd 1, and fd 1 itself is
// pointed at stderr, so a stray `print` anywhere can never corrupt the stream.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import JSONRPC
import MacMDServer

enum LSPCommand {
    static let usage = """
        usage: macmd lsp [--stdio] [--log-file PATH] [--log-level error|warn|info|debug]
                         [--max-message-size BYTES]

        Serves the Language Server Protocol 3.17 on stdin/stdout. Logs go to stderr (or PATH).
        The log level also comes from MACMD_LOG (default: warn). Messages larger than
        --max-message-size (default 67108864, 64 MB) are answered with an error and skipped.

        """

    static func run(_ arguments: [String]) -> Int32 {
        var logFile: String?
        var level = getenv("MACMD_LOG").flatMap { LogLevel(name: String(cString: $0)) } ?? .warn
        var maxContentLength = 64 << 20
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            func value() -> String? {
                i += 1
                return i < arguments.count ? arguments[i] : nil
            }
            switch argument {
            case "--stdio":
                break
            case "--log-file":
                guard let path = value() else { return usageError("--log-file needs a path") }
                logFile = path
            case "--log-level":
                guard let name = value(), let parsed = LogLevel(name: name) else {
                    return usageError("--log-level takes error, warn, info or debug")
                }
                level = parsed
            case "--max-message-size":
                guard let text = value(), let n = Int(text), n > 0 else {
                    return usageError("--max-message-size takes a positive number of bytes")
                }
                maxContentLength = n
            case "-h", "--help":
                StandardStreams.writeOutput(Array(usage.utf8))
                return 0
            default:
                return usageError("unknown option '\(argument)'")
            }
            i += 1
        }
        var logDescriptor: Int32 = 2
        if let logFile {
            logDescriptor = open(logFile, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            if logDescriptor < 0 {
                StandardStreams.writeError("macmd lsp: cannot open log file \(logFile): \(String(cString: strerror(errno)))\n")
                return 2
            }
        }
        let protocolOutput = dup(1)
        guard protocolOutput >= 0, dup2(2, 1) >= 0 else {
            StandardStreams.writeError("macmd lsp: cannot set up stdout\n")
            return 2
        }
        let logger = Logger(level: level, descriptor: logDescriptor)
        let connection = Connection(input: 0, output: protocolOutput, maxContentLength: maxContentLength)
        let server = Server(connection: connection,
                            configuration: ServerConfiguration(version: MacMDCommandLine.version, maxContentLength: maxContentLength,
                                                               environment: MacMDCommandLine.environment()),
                            logger: logger)
        return server.run()
    }

    static func usageError(_ message: String) -> Int32 {
        MacMDCommandLine.usageError("lsp", message)
    }
}
