// Top-level command dispatch and the global `--help` / `--version`.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CommandLineIO
import Localization

/// The `macmd` command line: picks the subcommand and runs it.
enum MacMDCommandLine {
    static let version = "0.1.0"

    /// The language of everything `macmd` writes for people: `LC_ALL`, `LC_MESSAGES`, then
    /// `LANG` (`LocaleChoice.forCommandLine`).
    static let locale: SupportedLocale = LocaleChoice.forCommandLine(environment: environment()).locale

    /// `text` in the writer's language.
    static func text(_ text: LocalizedText) -> String { text.string(in: locale) }

    /// The process's environment variables.
    static func environment() -> [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let pair = String(cString: pointer)
            if let equals = pair.firstIndex(of: "=") {
                result[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }

    /// `macmd 0.1.0 (commit 1a2b3c4)`; `commit unknown` for a build outside a git checkout.
    static var versionLine: String { "macmd \(version) (commit \(BuildInfo.commit ?? "unknown"))" }

    /// A subcommand: its name, a one-line summary, and how to run it with the remaining arguments.
    struct Command: Sendable {
        var name: String
        var summary: LocalizedText
        var run: @Sendable ([String]) -> Int32
    }

    /// Every subcommand; a new one is added here. (The benchmarks, the generator and the fuzzers
    /// are `macmd-bench`'s, a second executable of the package.)
    static let commands: [Command] = [
        Command(name: "render", summary: LocalizedText("cli.command.render"), run: RenderCommand.run),
        Command(name: "lsp", summary: LocalizedText("cli.command.lsp"), run: LSPCommand.run),
        Command(name: "check", summary: LocalizedText("cli.command.check"), run: CheckCommand.run),
        Command(name: "stats", summary: LocalizedText("cli.command.stats"), run: StatsCommand.run),
        Command(name: "search", summary: LocalizedText("cli.command.search"), run: SearchCommand.run),
        Command(name: "export", summary: LocalizedText("cli.command.export"), run: ExportCommand.run),
    ]

    /// `macmd --help` in the writer's language.
    static var usage: String {
        HelpText.usage(["macmd <command> [options]"]) + "\n"
            + HelpText.heading(LocalizedText("cli.help.commands"))
            + HelpText.rows(commands.map { ($0.name, $0.summary) }, column: 14) + "\n"
            + HelpText.heading(LocalizedText("cli.help.options"))
            + HelpText.rows([("-h, --help", LocalizedText("cli.help.option.help")),
                             ("--version", LocalizedText("cli.help.option.version"))], column: 16)
    }

    /// Writes `macmd COMMAND: message` (`macmd: message` without a command) to stderr.
    static func writeError(_ command: String?, _ message: LocalizedText) {
        let name = command.map { "macmd " + $0 } ?? "macmd"
        StandardStreams.writeError(name + ": " + text(message) + "\n")
    }

    /// Says what was wrong with a command's arguments, in one line and a pointer to its help,
    /// and gives the usage-error status (2).
    static func usageError(_ command: String, _ message: LocalizedText) -> Int32 {
        writeError(command, message)
        StandardStreams.writeError(text(LocalizedText("cli.error.seeHelp", .string(command))) + "\n")
        return 2
    }

    /// Runs the command line and returns the exit status.
    static func run(_ arguments: [String]) -> Int32 {
        guard let first = arguments.first else {
            StandardStreams.writeError(usage)
            return 2
        }
        switch first {
        case "-h", "--help", "help":
            return StandardStreams.writeOutput(Array(usage.utf8)) ? 0 : 1
        case "--version", "-V":
            return StandardStreams.writeOutput(Array((versionLine + "\n").utf8)) ? 0 : 1
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            writeError(nil, LocalizedText("cli.error.unknownCommand", .string(first)))
            StandardStreams.writeError(usage)
            return 2
        }
        return command.run(Array(arguments.dropFirst()))
    }
}
