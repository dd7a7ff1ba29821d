import Foundation
import LatencyGate
import TraceAnalysis
import TraceModel

/// `trace-report gate --baseline FILE RUN...`: fails CI on a latency or behaviour regression
/// that is beyond both its budget and the noise.
struct GateCommand: ReportCommand {
    static let name = "gate"
    static let abstract = "Fail on latency or behaviour regressions against a baseline, beyond noise."
    static let operands = "RUN..."
    static var discussion: String {
        """
        Compares the runs (stores, or baseline .json files) with the baseline, scenario by scenario
        (run label or interval name, profile and model, as the baseline was made). The baseline is a
        file of 'trace-report baseline' or a store: for the A/B flow, record the base commit's runs and
        the change's on the same runner and gate one store against the other, with --same-machine.
        Each scenario's workload is compared first: when the model wrote answers of another length with
        the same settings (cap, temperature), as on another machine, latency is judged at the baseline's
        answer length, and input tokens, cache hit rate, tool calls and cost beyond budget are 'not
        comparable', a warning and not a regression: how much of a prompt is the model's text cannot be
        told from counts. With --same-machine the model's other text is the change's doing, and every
        check is judged as it stands (docs/trace-report.md#workload).
        A budget is 'metric.statistic: limit [and limit]'; a limit is a ratio (+15%) or an absolute
        floor (+50ms, +32 tokens, -3pt, -2tok/s); with both, a regression must exceed BOTH. 'off' drops
        a budget. Several budgets go in one --budget separated by ';'; --config FILE holds one a line
        (and 'min-samples: N', '#' comments); --budget applies after --config, over the defaults.
        Metrics: ttft, latency, tokens_per_second (pNN or mean); tool_calls, input_tokens (pNN or mean);
        cache_hit_rate (overall, mean or pNN); repeated_tool_calls.new (new ToolFindings findings);
        cost (pNN or mean, dollars per request: with --prices, which prices the baseline's and the runs'
        tokens with the same table; no default budget, so give one: 'cost.mean: +10%').
        Timing is first scaled to the baseline's machine speed: each run's times by the ratio of the
        baseline's median server generation time per token to the run's (--speed raw to compare raw).
        Timing metrics must also be beyond noise: the 95% interval of the change, from a seeded
        two-level bootstrap (runs, then requests; 2000 resamples), must lie wholly on the worse side.
        Defaults:
        \(GateBudget.defaults.map { "  " + $0.description }.joined(separator: "\n"))
        Exit status: 0 pass, 1 regression, 2 bad input or a scenario with fewer than --min-samples
        requests (default \(GateConfiguration.defaultMinSamples)).
        """
    }
    /// The options of this command alone, each declared once and read through its declaration.
    enum Option {
        static let baseline = OptionSpec.required(
            "--baseline", "FILE", "the baseline JSON of 'trace-report baseline', or a store of base runs")
        static let budget = OptionSpec.value(
            "--budget", "LIST", "budgets over the defaults, ';'-separated: 'ttft.p95: +15% and +50ms'")
        static let config = OptionSpec.value(
            "--config", "FILE", "a file of budgets, one a line, and 'min-samples: N'")
        static let minSamples = OptionSpec.value(
            "--min-samples", "N", "least requests a scenario needs on each side (default 3)")
        static let resamples = OptionSpec.value("--resamples", "N", "bootstrap resamples (default 2000)")
        static let speed = OptionSpec.value(
            "--speed", "raw|normalized", "scale timing to the baseline's server speed first (default normalized)")
        static let sameMachine = OptionSpec.flag(
            "--same-machine", "the baseline ran on this machine and model server (the A/B flow): judge all as it stands")
        static let markdown = OptionSpec.flag(
            "--markdown", "print Markdown (for a PR comment or $GITHUB_STEP_SUMMARY) instead of the table")
        static let junit = OptionSpec.value(
            "--junit", "FILE", "also write JUnit XML: a test case per scenario and metric")
        static let github = OptionSpec.flag(
            "--github", "also print GitHub Actions ::error/::warning annotations")
    }

    static let options: [OptionSpec] = [
        Option.baseline,
        Option.budget,
        Option.config,
        Option.minSamples,
        Option.resamples,
        Option.speed,
        Option.sameMachine,
        CommonOptions.prices,
        Option.markdown,
        Option.junit,
        Option.github,
        CommonOptions.json,
    ]

    /// With `--json`, a gate that cannot judge still writes one JSON document, `{"error": {...}}`,
    /// so that a CI step reading standard output gets JSON either way; the sentence goes to
    /// standard error and the exit status is 2, as without it.
    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure)
        -> ReportExitStatus
    {
        do {
            return try judge(arguments, context: context)
        } catch {
            if arguments.flag(CommonOptions.json) {
                let (kind, message): (String, String) = switch error {
                case .usage(let usage): ("usage", usage.message)
                case .input(let input): ("input", input.description)
                case .message(let sentence): ("input", sentence)
                }
                // Bounded as the sentence on standard error is (``ReportCommand``).
                let bounded = TerminalText.fitted(context.redactor.redact(message).text, width: 4000)
                context.write(json: .object([
                    ("error", .object([("kind", .string(kind)), ("message", .string(bounded))])),
                    ("exit_status", .int(2)),
                ]))
            }
            throw error
        }
    }

    private static func judge(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure)
        -> ReportExitStatus
    {
        let baselinePath: String
        do { baselinePath = try arguments.required(Option.baseline) } catch { throw .usage(error) }
        guard !arguments.positionals.isEmpty else { throw .usage(UsageError("no run given; name one or more .sqlite stores")) }
        let json = arguments.flag(CommonOptions.json)
        if json, let other = [Option.markdown, Option.github].first(where: arguments.flag) {
            throw .usage(UsageError("--json writes one JSON document; give \(other.name) in a run of its own"))
        }
        var configuration = GateConfiguration()
        let resamples: Int
        do {
            if let path = arguments.value(Option.config) {
                guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
                else {
                    throw CommandFailure.message("the config file \(path) could not be read")
                }
                try configuration.apply(configText: text, path: path)
            }
            if let list = arguments.value(Option.budget) { try configuration.apply(budgetList: list) }
            configuration.minSamples = try arguments.int(Option.minSamples, default: configuration.minSamples)
            if let speed = arguments.value(Option.speed) {
                guard speed == "raw" || speed == "normalized" else {
                    throw UsageError("--speed takes raw or normalized, not '\(TerminalText.sanitized(speed))'")
                }
                configuration.normalizesSpeed = speed == "normalized"
            }
            configuration.sameMachine = arguments.flag(Option.sameMachine)
            resamples = try arguments.int(Option.resamples, default: 2000, in: 100...1_000_000)
        } catch let failure as CommandFailure {
            throw failure
        } catch let usage as UsageError {
            throw .usage(usage)
        } catch let budget as BudgetError {
            throw .usage(UsageError(budget.message))
        } catch {
            throw .message("\(error)")
        }
        // A baseline file, or a store of base runs recorded on this runner (the A/B flow).
        var baseline = try loadBaseline(paths: [baselinePath], grouping: nil, context: context)
        var current = try loadBaseline(
            paths: arguments.positionals, grouping: baseline.grouping, context: context)
        // Both sides priced with the one table given, so a cost budget sees token changes only.
        if let prices = try CommonOptions.priceTable(arguments) {
            baseline = baseline.priced(by: prices)
            current = current.priced(by: prices)
        }
        let result: GateEvaluation
        do {
            result = try GateEvaluation.evaluate(
                baseline: baseline, current: current, configuration: configuration,
                bootstrap: Bootstrap(resamples: resamples))
        } catch {
            throw .message(error.description)
        }
        if let path = arguments.value(Option.junit) {
            try context.writeRedactedFile(result.junit, to: path)
        }
        if json {
            context.writeRedacted(json: result.json)
        } else {
            context.writeRedacted(arguments.flag(Option.markdown) ? result.markdown : result.text)
        }
        if arguments.flag(Option.github) { context.writeRedacted(result.githubAnnotations) }
        return result.passed ? .success : .findings
    }
}
