import LatencyGate
import Redaction
import SessionTrace
import TraceAnalysis
import TraceExport
import TraceModel
import TraceStore

/// What a subcommand's run ends with; the process exits with `rawValue`.
public enum ReportExitStatus: Int32, Sendable {
    /// Done, nothing to flag (or the subcommand does not gate).
    case success = 0
    /// A gating subcommand found something (`--fail-on-findings`).
    case findings = 1
    /// The command line or the input was wrong; one sentence on standard error says how.
    case usageOrInput = 2
}

/// One `trace-report` subcommand. A subcommand is one file with one type conforming to this
/// protocol, registered by one line in ``TraceReport/commands``.
///
/// ```swift
/// struct ExportCommand: ReportCommand {
///     static let name = "export"
///     static let abstract = "Write a store as Chrome trace JSON."
///     static let operands = "STORE"
///     static let discussion = "..."
///     enum Option {  // each option declared once, and read through its declaration
///         static let out = OptionSpec.value("--out", "FILE", "where to write; standard output if absent")
///     }
///     static let options = [Option.out]
///     static func run(
///         _ arguments: ParsedArguments, context: CommandContext
///     ) throws(CommandFailure) -> ReportExitStatus {
///         let out = arguments.value(Option.out)  // never arguments.value("--out")
///         let trace = try loadTrace(arguments, context: context)  // redacted, or a clear failure
///         context.writeRedacted(...)                               // as it is: redacted once, above
///         return .success
///     }
/// }
/// ```
protocol ReportCommand {
    /// The word after `trace-report`.
    static var name: String { get }
    /// One line for `trace-report --help`.
    static var abstract: String { get }
    /// What follows the options on the command line, as the usage line shows it: `STORE`,
    /// `RUN...`, `-- COMMAND [ARGUMENT...]`; a list such as `bash|zsh|fish` is completed by shells.
    static var operands: String { get }
    /// What the command reports and how to read it, for `--help`; may be empty.
    static var discussion: String { get }
    /// The options it accepts, besides `--help` and those every command takes
    /// (``CommonOptions/everyCommand``).
    static var options: [OptionSpec] { get }
    /// Runs with parsed arguments; `--help` never reaches here.
    static func run(
        _ arguments: ParsedArguments, context: CommandContext
    ) throws(CommandFailure) -> ReportExitStatus
}

extension ReportCommand {
    static var discussion: String { "" }

    /// The command's `--help` text; the man page (``ManualPage``) and the shell completions
    /// (``ShellCompletion``) are made from the same parts.
    static var helpText: String {
        var out = "\(abstract)\n\nUsage: \(usage)\n"
        if !discussion.isEmpty { out += "\n\(discussion)\n" }
        let width = helpOptions.map(\.label.count).max() ?? 0
        out += "\nOptions:\n"
        for option in helpOptions {
            out += "  " + TerminalText.padded(option.label, width) + "  " + option.help + "\n"
        }
        return out
    }

    /// The full usage: every option it accepts, then ``operands``, wrapped under its first word
    /// after `Usage: `.
    static var usage: String {
        let prefix = "Usage: "
        let continuation = String(repeating: " ", count: "trace-report \(name) ".count)
        var lines = ["trace-report \(name)"]
        for word in acceptedOptions.map(\.synopsis) + [operands].filter({ !$0.isEmpty }) {
            if prefix.count + lines[lines.count - 1].count + 1 + word.count > 100 {
                lines.append(continuation + word)
            } else {
                lines[lines.count - 1] += " " + word
            }
        }
        return lines.joined(separator: "\n" + String(repeating: " ", count: prefix.count))
    }

    /// ``options`` and the options every command takes (``CommonOptions/everyCommand``) that it
    /// does not declare itself.
    static var acceptedOptions: [OptionSpec] {
        options + CommonOptions.everyCommand.filter { common in !options.contains { $0.name == common.name } }
    }

    /// ``acceptedOptions`` and `--help`, as the help text lists them.
    static var helpOptions: [OptionSpec] { acceptedOptions + [CommonOptions.help] }

    /// Opens the store named by the one positional argument and loads it, every string redacted
    /// by the context's redactor.
    static func loadTrace(
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
    static func loadBaseline(
        paths: [String], grouping: ScenarioGrouping?, context: CommandContext
    ) throws(CommandFailure) -> LatencyBaseline {
        do {
            return try LatencyBaseline.make(paths: paths, grouping: grouping).redacted(by: context.redactor)
        } catch {
            throw .message(error.description)
        }
    }

    /// Opens the store named by the one positional argument, without loading it.
    static func openStore(_ arguments: ParsedArguments) throws(CommandFailure) -> StoreReader {
        let path: String
        do { path = try arguments.storePath() } catch { throw .usage(error) }
        do { return try StoreReader(path: path) } catch { throw .input(error) }
    }
}

/// The options every analysis subcommand shares.
enum CommonOptions {
    static let json = OptionSpec.flag("--json", "machine-readable output; keys are documented in docs/trace-report.md")
    /// `--no-color`: every subcommand takes it; those that colour nothing accept it and ignore it.
    static let noColor = OptionSpec.flag("--no-color", "no ANSI colour (also when NO_COLOR is set)")
    /// `--help`, which the parser handles before any command runs.
    static let help = OptionSpec.flag("--help", "show this help")
    /// The options every subcommand takes, besides `--help`, in the order usage lines list them.
    static let everyCommand = [noColor] + redaction
    static let failOnFindings = OptionSpec.flag(
        "--fail-on-findings", "exit 1 when there is a finding, for CI gates")
    static let prices = OptionSpec.value(
        "--prices", "FILE", "dollars per million tokens per model (docs/trace-report.md), for costs")

    /// The price table `--prices` names; nil without the option.
    static func priceTable(_ arguments: ParsedArguments) throws(CommandFailure) -> PriceTable? {
        guard let path = arguments.value(prices) else { return nil }
        do { return try PriceTable.load(path: path) } catch { throw .message(error.description) }
    }
}

/// The `trace-report` program: dispatches to a registered subcommand.
public enum TraceReport {
    /// Every subcommand, in the order `--help` lists them. Add a subcommand here, one line.
    static var commands: [any ReportCommand.Type] {
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
            CompletionsCommand.self,
            ManualCommand.self,
        ]
    }

    /// The program's own help, listing the subcommands.
    static var helpText: String {
        let width = commands.map { $0.name.count }.max() ?? 0
        var out = """
            trace-report: read SessionTrace stores recorded from language-model sessions.

            Usage: trace-report SUBCOMMAND [options] STORE
                   trace-report SUBCOMMAND --help

            Subcommands:

            """
        for command in commands {
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
    ) -> ReportExitStatus {
        var context = context
        /// Every error sentence leaves through here: redacted, with no control character that a
        /// terminal would act on, and at most a few thousand characters however long what it echoes.
        func fail(_ sentence: String) -> ReportExitStatus {
            let line = sentence.hasSuffix("\n") ? String(sentence.dropLast()) : sentence
            writeError(TerminalText.fitted(context.redactor.redact(line).text, width: 4000) + "\n")
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
            return fail("trace-report: unknown subcommand '\(first)'"
                + Suggestion.clause(for: first, among: commands.map { $0.name })
                + "; run 'trace-report --help' for the list\n")
        }
        let parsed: ParsedArguments
        do {
            parsed = try CommandLineParser.parse(Array(arguments.dropFirst()), options: command.acceptedOptions)
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
            if parsed.flag(CommonOptions.noRedact) { context.writeNote(Redactor.unredactedNote) }
            return try command.run(parsed, context: context)
        } catch {
            switch error {
            case .usage(let usage):
                return fail("trace-report \(command.name): \(usage.message); "
                    + "see 'trace-report \(command.name) --help'\n")
            case .input(let inputError):
                return fail("trace-report: \(inputError.description)\n")
            case .message(let message):
                return fail("trace-report: \(message)\n")
            }
        }
    }

    static func command(named name: String) -> (any ReportCommand.Type)? {
        commands.first { $0.name == name }
    }
}
