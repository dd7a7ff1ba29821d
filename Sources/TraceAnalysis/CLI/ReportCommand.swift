import Redaction
import SessionTrace
import TraceStore

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
///         let trace = try loadTrace(arguments, context: context)  // redacted, or a clear failure
///         context.write(...)                                       // redacted again on the way out
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
    /// The options it accepts, besides `--help` and the redaction options every command takes.
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
        let all = acceptedOptions + [.flag("--help", "show this help")]
        let labels = all.map { option in option.valueName.map { "\(option.name) \($0)" } ?? option.name }
        let width = labels.map(\.count).max() ?? 0
        out += "\nOptions:\n"
        for (label, option) in zip(labels, all) {
            out += "  " + TerminalText.padded(label, width) + "  " + option.help + "\n"
        }
        return out
    }

    /// ``options`` and the redaction options (``CommonOptions/redaction``) it does not declare.
    static var acceptedOptions: [OptionSpec] {
        options + CommonOptions.redaction.filter { common in !options.contains { $0.name == common.name } }
    }

    /// Opens the store named by the one positional argument and loads it, every string redacted
    /// by the context's redactor.
    public static func loadTrace(
        _ arguments: ParsedArguments, context: CommandContext, chunks: Bool = false
    ) throws(CommandFailure) -> RecordedTrace {
        let path: String
        do { path = try arguments.storePath() } catch { throw .usage(error) }
        let trace: RecordedTrace
        do { trace = try TraceLoader.load(path: path, chunks: chunks) } catch { throw .input(error) }
        return RedactedTrace.redact(trace, with: context.redactor).trace
    }

    /// The latency baseline of stores and baseline files, its names redacted by the context's
    /// redactor (``LatencyBaseline/redacted(by:)``), as `trace-report baseline` writes it.
    public static func loadBaseline(
        paths: [String], grouping: ScenarioGrouping?, context: CommandContext
    ) throws(CommandFailure) -> LatencyBaseline {
        do {
            return try LatencyBaseline.make(paths: paths, grouping: grouping).redacted(by: context.redactor)
        } catch {
            throw .message(error.description)
        }
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
    public static let prices = OptionSpec.value(
        "--prices", "FILE", "dollars per million tokens per model (docs/trace-report.md), for costs")

    /// The price table `--prices` names; nil without the option.
    static func priceTable(_ arguments: ParsedArguments) throws(CommandFailure) -> PriceTable? {
        guard let path = arguments.value(prices.name) else { return nil }
        do { return try PriceTable.load(path: path) } catch { throw .message(error.description) }
    }
}

/// The `trace-report` program: dispatches to a registered subcommand.
public enum TraceReport {
    /// Every subcommand, in the order `--help` lists them. Add a subcommand here, one line.
    public static var commands: [any ReportCommand.Type] {
        [
            CheckCommand.self,
            SummaryCommand.self,
            TimelineCommand.self,
            ToolsCommand.self,
            CacheCommand.self,
            CappedCommand.self,
            GrowthCommand.self,
            ExportCommand.self,
            ImportCommand.self,
            RecordCommand.self,
            RedactCommand.self,
            BaselineCommand.self,
            GateCommand.self,
            DiffCommand.self,
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
    ///
    /// The command's `--rules` and `--no-redact` set the context's ``CommandContext/redactor``,
    /// which every output and error sentence goes through.
    public static func main(
        _ arguments: [String], context: CommandContext, writeError: @Sendable (String) -> Void
    ) -> ExitCode {
        var context = context
        func fail(_ sentence: String) -> ExitCode {
            writeError(context.redactor.redact(sentence).text)
            return .usageOrInput
        }
        guard let first = arguments.first else {
            return fail("trace-report: no subcommand given; run 'trace-report --help' for the list\n")
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
            return fail("trace-report: unknown subcommand '\(TerminalText.sanitized(first))'; "
                + "run 'trace-report --help' for the list\n")
        }
        let parsed: ParsedArguments
        do {
            parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), options: command.acceptedOptions)
        } catch {
            return fail(
                "trace-report \(command.name): \(error.message); see 'trace-report \(command.name) --help'\n")
        }
        if parsed.wantsHelp {
            context.write(command.helpText)
            return .success
        }
        do {
            context.redactor = try Redactor.policy(parsed)
            if parsed.flag(CommonOptions.noRedact.name) { context.writeNote(Redactor.unredactedNote) }
            return try command.run(parsed, context: context)
        } catch {
            switch error {
            case .usage(let usage):
                return fail("trace-report \(command.name): \(usage.message); "
                    + "see 'trace-report \(command.name) --help'\n")
            case .input(let inputError):
                return fail("trace-report: \(TerminalText.sanitized(inputError.description))\n")
            case .message(let message):
                return fail("trace-report: \(TerminalText.sanitized(message))\n")
            }
        }
    }

    static func command(named name: String) -> (any ReportCommand.Type)? {
        commands.first { $0.name == name }
    }
}
