import SessionTrace
import TraceStore

#if canImport(Glibc)
import Glibc
#endif

/// What a subcommand's run ends with; the process exits with `rawValue`.
public enum ExitCode: Int32, Sendable {
    /// Done, nothing to flag (or the subcommand does not gate).
    case success = 0
    /// A gating subcommand found something (`--fail-on-findings`).
    case findings = 1
    /// The command line or the input was wrong; one sentence on standard error says how.
    case usageOrInput = 2
}

/// Why a subcommand stopped early; `trace-report` prints the sentence and exits 2.
public enum CommandFailure: Error, Sendable {
    /// The command line is wrong.
    case usage(UsageError)
    /// The store or LTTng trace could not be read.
    case input(TraceInputError)
    /// Something else about the input, as one sentence.
    case message(String)

    /// The store could not be read.
    public static func input(_ error: StoreError) -> CommandFailure { .input(.store(error)) }
}

/// Where a subcommand writes and what it knows of its surroundings; tests pass their own.
public struct CommandContext: Sendable {
    /// The process environment (`COLUMNS`, `NO_COLOR`).
    public var environment: [String: String]
    /// True when standard output is a terminal, so colour is on unless asked off.
    public var outputIsTerminal: Bool
    /// Writes text to standard output.
    public var write: @Sendable (String) -> Void
    /// Writes a note for the person running the command, such as a redaction report, to
    /// standard error, so that it stays out of output that is piped on.
    public var writeNote: @Sendable (String) -> Void

    public init(
        environment: [String: String], outputIsTerminal: Bool,
        writeNote: @escaping @Sendable (String) -> Void = CommandContext.writeStandardError,
        write: @escaping @Sendable (String) -> Void
    ) {
        self.environment = environment
        self.outputIsTerminal = outputIsTerminal
        self.writeNote = writeNote
        self.write = write
    }

    /// The process's own environment and standard output.
    public static func standard() -> CommandContext {
        var environment: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        return CommandContext(environment: environment, outputIsTerminal: isatty(STDOUT_FILENO) == 1) { text in
            writeAll(STDOUT_FILENO, text)
        }
    }

    /// Writes `text` to standard error, for the one-line messages of a failed command.
    public static func writeStandardError(_ text: String) {
        writeAll(STDERR_FILENO, text)
    }

    /// Writes every byte of `text` to `descriptor`, retrying short writes; gives up quietly on a
    /// closed pipe, as `head` closes it when it has read enough.
    private static func writeAll(_ descriptor: Int32, _ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}

/// One `trace-report` subcommand. A subcommand is one file with one type conforming to this
/// protocol, registered by one line in ``TraceReport/commands``.
///
/// ```swift
/// struct ExportCommand: ReportCommand {
///     static let name = "export"
///     static let abstract = "Write a store as Chrome trace JSON."
///     static let usage = "trace-report export [--out FILE] STORE"
///     static let discussion = "..."
///     static let options: [OptionSpec] = [.value("--out", "FILE", "where to write; standard output if absent")]
///     static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure) -> ExitCode {
///         let trace = try loadTrace(arguments)      // the store, or a clear failure
///         context.write(...)
///         return .success
///     }
/// }
/// ```
public protocol ReportCommand {
    /// The word after `trace-report`.
    static var name: String { get }
    /// One line for `trace-report --help`.
    static var abstract: String { get }
    /// The usage line(s), `trace-report NAME [options] STORE`.
    static var usage: String { get }
    /// What the command reports and how to read it, for `--help`; may be empty.
    static var discussion: String { get }
    /// The options it accepts, besides `--help`.
    static var options: [OptionSpec] { get }
    /// Hidden commands (developer tools) work but are not listed in `trace-report --help`.
    static var isHidden: Bool { get }
    /// Runs with parsed arguments; `--help` never reaches here.
    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure) -> ExitCode
}

extension ReportCommand {
    public static var isHidden: Bool { false }
    public static var discussion: String { "" }

    /// The command's `--help` text.
    public static var helpText: String {
        var out = "\(abstract)\n\nUsage: \(usage)\n"
        if !discussion.isEmpty { out += "\n\(discussion)\n" }
        let all = options + [.flag("--help", "show this help")]
        let labels = all.map { option in option.valueName.map { "\(option.name) \($0)" } ?? option.name }
        let width = labels.map(\.count).max() ?? 0
        out += "\nOptions:\n"
        for (label, option) in zip(labels, all) {
            out += "  " + TerminalText.padded(label, width) + "  " + option.help + "\n"
        }
        return out
    }

    /// Opens the store named by the one positional argument and loads it.
    public static func loadTrace(_ arguments: ParsedArguments, chunks: Bool = false) throws(CommandFailure)
        -> RecordedTrace
    {
        let path: String
        do { path = try arguments.storePath() } catch { throw .usage(error) }
        do { return try TraceLoader.load(path: path, chunks: chunks) } catch { throw .input(error) }
    }

    /// Opens the store named by the one positional argument, without loading it.
    public static func openStore(_ arguments: ParsedArguments) throws(CommandFailure) -> StoreReader {
        let path: String
        do { path = try arguments.storePath() } catch { throw .usage(error) }
        do { return try StoreReader(path: path) } catch { throw .input(error) }
    }
}

/// The options every analysis subcommand shares.
public enum CommonOptions {
    public static let json = OptionSpec.flag("--json", "machine-readable output; keys are documented in docs/trace-report.md")
    public static let failOnFindings = OptionSpec.flag(
        "--fail-on-findings", "exit 1 when there is a finding, for CI gates")
}

/// The `trace-report` program: dispatches to a registered subcommand.
public enum TraceReport {
    /// Every subcommand, in the order `--help` lists them. Add a subcommand here, one line.
    public static var commands: [any ReportCommand.Type] {
        [
            SummaryCommand.self,
            TimelineCommand.self,
            ToolsCommand.self,
            CacheCommand.self,
            GrowthCommand.self,
            ExportCommand.self,
            ImportCommand.self,
            RecordCommand.self,
            RedactCommand.self,
            BaselineCommand.self,
            GateCommand.self,
            DiffCommand.self,
            MakeScenariosCommand.self,
        ]
    }

    /// The program's own help, listing the visible subcommands.
    public static var helpText: String {
        let visible = commands.filter { !$0.isHidden }
        let width = visible.map { $0.name.count }.max() ?? 0
        var out = """
            trace-report: read SessionTrace stores recorded from language-model sessions.

            Usage: trace-report SUBCOMMAND [options] STORE
                   trace-report SUBCOMMAND --help

            Subcommands:

            """
        for command in visible {
            out += "  " + TerminalText.padded(command.name, width) + "  " + command.abstract + "\n"
        }
        out += """

            Exit status: 0 ok, 1 findings (with --fail-on-findings), 2 bad usage or unreadable input.

            """
        return out
    }

    /// Runs `trace-report` with `arguments` (without the program name); writes errors through
    /// `writeError` as one line each. Returns the exit status.
    public static func main(
        _ arguments: [String], context: CommandContext, writeError: @Sendable (String) -> Void
    ) -> ExitCode {
        guard let first = arguments.first else {
            writeError("trace-report: no subcommand given; run 'trace-report --help' for the list\n")
            return .usageOrInput
        }
        if first == "--help" || first == "-h" || first == "help" {
            if first == "help", arguments.count > 1, let command = command(named: arguments[1]) {
                context.write(command.helpText)
            } else {
                context.write(helpText)
            }
            return .success
        }
        if first == "--version" {
            context.write("trace-report \(sessionTraceVersion)\n")
            return .success
        }
        guard let command = command(named: first) else {
            writeError("trace-report: unknown subcommand '\(TerminalText.sanitized(first))'; "
                + "run 'trace-report --help' for the list\n")
            return .usageOrInput
        }
        let parsed: ParsedArguments
        do {
            parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), options: command.options)
        } catch {
            writeError("trace-report \(command.name): \(error.message); see 'trace-report \(command.name) --help'\n")
            return .usageOrInput
        }
        if parsed.wantsHelp {
            context.write(command.helpText)
            return .success
        }
        do {
            return try command.run(parsed, context: context)
        } catch {
            switch error {
            case .usage(let usage):
                writeError("trace-report \(command.name): \(usage.message); "
                    + "see 'trace-report \(command.name) --help'\n")
            case .input(let inputError):
                writeError("trace-report: \(TerminalText.sanitized(inputError.description))\n")
            case .message(let message):
                writeError("trace-report: \(TerminalText.sanitized(message))\n")
            }
            return .usageOrInput
        }
    }

    static func command(named name: String) -> (any ReportCommand.Type)? {
        commands.first { $0.name == name }
    }
}
