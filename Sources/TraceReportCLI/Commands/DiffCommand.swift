import LatencyGate
import TraceAnalysis
import TraceModel

/// `trace-report diff RUN_A RUN_B`: per scenario and metric, A and B side by side with the
/// interval of the change and whether it is beyond noise.
struct DiffCommand: ReportCommand {
    static let name = "diff"
    static let abstract = "Compare two runs per scenario and metric, with confidence intervals."
    static let operands = "RUN_A RUN_B"
    static let discussion = """
        RUN_A and RUN_B are stores or baseline .json files. For each scenario in both (run label or
        interval name, profile and model): ttft p50/p95, latency p50/p95, generation rate p50, tool calls
        per request, input tokens p50/mean and the overall cache hit rate of A and of B, the change B - A,
        its 95% interval from a seeded two-level bootstrap (runs, then requests; 2000 resamples), and
        'beyond noise' when the interval excludes zero. The same inputs always give the same intervals.
        --speed normalized scales every run's times to A's server speed (generation time per token).
        """
    /// The options of this command alone, each declared once and read through its declaration.
    enum Option {
        static let groupBy = OptionSpec.value(
            "--group-by", "label|interval", "what a scenario is (default label, or the baseline's)")
        static let resamples = OptionSpec.value("--resamples", "N", "bootstrap resamples (default 2000)")
        static let speed = OptionSpec.value(
            "--speed", "raw|normalized", "raw times (default), or B scaled to A's server speed")
    }

    static let options: [OptionSpec] = [
        Option.groupBy,
        Option.resamples,
        Option.speed,
        CommonOptions.json,
    ]

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure)
        -> ReportExitStatus
    {
        guard arguments.positionals.count == 2 else {
            throw .usage(UsageError("diff takes two runs, RUN_A and RUN_B, but \(arguments.positionals.count) were given"))
        }
        let grouping = try BaselineCommand.parseGrouping(arguments)
        let resamples: Int
        do { resamples = try arguments.int(Option.resamples, default: 2000, in: 100...1_000_000) } catch {
            throw .usage(error)
        }
        let a = try loadBaseline(paths: [arguments.positionals[0]], grouping: grouping, context: context)
        let b = try loadBaseline(
            paths: [arguments.positionals[1]], grouping: grouping ?? a.grouping, context: context)
        var left = a
        var right = b
        switch arguments.value(Option.speed) ?? "raw" {
        case "raw": break
        case "normalized":
            guard let reference = a.medianServerNanosPerToken, b.medianServerNanosPerToken != nil else {
                throw .message("--speed normalized needs server timings in both runs")
            }
            left = a.normalized(toServerNanosPerToken: reference)
            right = b.normalized(toServerNanosPerToken: reference)
        case let other:
            throw .usage(UsageError("--speed takes raw or normalized, not '\(TerminalText.sanitized(other))'"))
        }
        let comparison = RunComparison.compare(left, right, bootstrap: Bootstrap(resamples: resamples))
        if arguments.flag(CommonOptions.json) {
            context.writeRedacted(json: comparison.json)
        } else {
            context.writeRedacted(comparison.text)
        }
        return .success
    }
}
