// `macmd lsp`: the language server on stdin/stdout.
//
// stdout carries only protocol frames: the protocol gets a duplicate of fd 1, and fd 1 itself is
// pointed at stderr, so a stray `print` anywhere can never corrupt the stream.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CommandLineIO
import JSONRPC
import Localization
import MacMDServer

enum LSPCommand {
    /// `macmd lsp --help` in the writer's language.
    static var usage: String {
        // l10n-exempt: the synopsis is typed as shown
        HelpText.usage(["macmd lsp [--stdio] [--log-file PATH] [--log-level error|warn|info|debug]", "[--max-message-size BYTES]"])
            + "\n" + HelpText.paragraph(LocalizedText("cli.lsp.help"))
    }

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
                guard let path = value() else { return usageError(LocalizedText("cli.lsp.error.logFile")) }
                logFile = path
            case "--log-level":
                guard let name = value(), let parsed = LogLevel(name: name) else {
                    return usageError(LocalizedText("cli.lsp.error.logLevel"))
                }
                level = parsed
            case "--max-message-size":
                guard let text = value(), let n = Int(text), n > 0 else {
                    return usageError(LocalizedText("cli.lsp.error.maxMessageSize"))
                }
                maxContentLength = n
            case "-h", "--help":
                StandardStreams.writeOutput(Array(usage.utf8))
                return 0
            default:
                return usageError(LocalizedText("cli.error.unknownOption", .string(argument)))
            }
            i += 1
        }
        var logDescriptor: Int32 = 2
        if let logFile {
            logDescriptor = open(logFile, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            if logDescriptor < 0 {
                let reason = String(cString: strerror(errno))
                MacMDCommandLine.writeError("lsp", LocalizedText("cli.lsp.error.cannotOpenLog", .string(logFile), .string(reason)))
                return 2
            }
        }
        let protocolOutput = dup(1)
        guard protocolOutput >= 0, dup2(2, 1) >= 0 else {
            MacMDCommandLine.writeError("lsp", LocalizedText("cli.lsp.error.stdout"))
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

    static func usageError(_ message: LocalizedText) -> Int32 {
        MacMDCommandLine.usageError("lsp", message)
    }
}
