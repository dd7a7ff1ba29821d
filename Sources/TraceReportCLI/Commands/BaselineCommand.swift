import LatencyGate
import TraceAnalysis
import TraceModel

/// `trace-report baseline RUN...`: the per-scenario distributions a latency gate compares against.
struct BaselineCommand: ReportCommand {
    static let name = "baseline"
    static let abstract = "Write a latency baseline (JSON, to check in) from recorded runs."
    static let operands = "RUN..."
    static let discussion = """
        Groups the requests of every RUN (a store, or a baseline .json to merge) by scenario, profile and
        model. The scenario is the run's label (--group-by label, the default) or the name of the innermost
        app interval around the request (--group-by interval). Per group it keeps the raw per-request
        samples, per run: time to first token, latency, generation rate, tool calls, input and cached input
        tokens; plus p50/p95 for people and the repeated-tool-call findings. Keys are in a fixed order and
        "version" says the format (1), so a re-recorded baseline diffs cleanly. More than 5000 requests in
        a group are thinned evenly.
        """
    /// The options of this command alone, each declared once and read through its declaration.
    enum Option {
        static let out = OptionSpec.value(
            "--out", "FILE", "where to write the JSON; standard output if absent")
        static let groupBy = OptionSpec.value(
            "--group-by", "label|interval", "what a scenario is (default label)")
    }

    static let options: [OptionSpec] = [
        Option.out,
        Option.groupBy,
    ]

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure)
        -> ReportExitStatus
    {
        guard !arguments.positionals.isEmpty else { throw .usage(UsageError("no run given; name one or more .sqlite stores")) }
        let grouping = try parseGrouping(arguments) ?? .label
        let baseline = try loadBaseline(paths: arguments.positionals, grouping: grouping, context: context)
        guard !baseline.groups.isEmpty else { throw .message("the runs hold no requests; nothing to baseline") }
        if let out = arguments.value(Option.out) {
            try context.writeRedactedFile(json: baseline.json, to: out)
            let requests = baseline.groups.reduce(0) { $0 + $1.requestCount }
            context.write("baseline: \(TerminalText.sanitized(out)): \(baseline.groups.count) scenarios, "
                + "\(requests) requests from \(arguments.positionals.count) store"
                + (arguments.positionals.count == 1 ? "" : "s") + "\n")
        } else {
            context.writeRedacted(json: baseline.json)
        }
        return .success
    }

    /// `--group-by`, or nil when absent.
    static func parseGrouping(_ arguments: ParsedArguments) throws(CommandFailure) -> ScenarioGrouping? {
        guard let text = arguments.value(Option.groupBy) else { return nil }
        guard let grouping = ScenarioGrouping(rawValue: text) else {
            throw .usage(UsageError("--group-by takes label or interval, not '\(TerminalText.sanitized(text))'"))
        }
        return grouping
    }
}
