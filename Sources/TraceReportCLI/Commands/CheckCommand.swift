import TraceAnalysis
import TraceExport
import TraceModel
import TraceStore

/// `trace-report check STORE…`: every analysis, the findings ranked by what they cost.
struct CheckCommand: ReportCommand {
    static let name = "check"
    static let abstract =
        "What is wrong with a run: every finding of every analysis, most costly first."
    static let operands = "STORE..."
    static let discussion = """
        Runs tools, cache, capped and growth with their default options on each store and lists the
        findings in groups (one kind, session and subject: the same tools, the same causes of a cache
        break), a line each with its count and total cost, ranked by cost: time first (tool and model
        time spent, time to first token gained), then tokens (spent or lost); with --prices, those tokens
        in dollars too. Each line ends with the command that shows it in detail. Groups within noise (a
        cache break under 256 cached tokens, or after which the first token came no later) are counted
        apart, below. --json lists every finding, and every group with its instances.
        Kinds: loop, polling, identical_arguments, near_identical_arguments, cache_break,
        chronic_cache_break, capped_answer, oversized_tool_output, prompt_growth, unexplained_ttft
        (docs/trace-report.md defines each).
        """
    /// The options of this command alone, each declared once and read through its declaration.
    enum Option {
        static let limit = OptionSpec.value("--limit", "N", "groups listed at most (default 20); --json lists all")
        static let expand = OptionSpec.flag("--expand", "list every finding of each group under it")
        static let all = OptionSpec.flag("--all", "list the groups within noise too, apart, below the others")
    }

    static let options: [OptionSpec] = [
        Option.limit, Option.expand, Option.all, CommonOptions.failOnFindings, CommonOptions.json,
        CommonOptions.prices,
    ]

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure)
        -> ReportExitStatus
    {
        guard !arguments.positionals.isEmpty else {
            throw .usage(UsageError("no store given; name a .sqlite file"))
        }
        let prices = try CommonOptions.priceTable(arguments)
        var listing = Diagnosis.Listing(expand: arguments.flag(Option.expand), all: arguments.flag(Option.all))
        do { listing.limit = try arguments.int(Option.limit, default: 20) } catch { throw .usage(error) }
        var traces: [RecordedTrace] = []
        for path in arguments.positionals {
            do {
                let trace = try TraceLoader.load(path: path, chunks: false)
                traces.append(RedactedTrace.redact(trace, with: context.redactor).trace)
            } catch {
                throw .input(error)
            }
        }
        let diagnosis = Diagnosis.analyze(traces, prices: prices)
        context.writeReport(
            json: arguments.flag(CommonOptions.json), anomalies: traces.flatMap(\.anomalies),
            unclosed: traces.flatMap(\.unclosedRuns), text: { diagnosis.text(listing) }, object: { diagnosis.json })
        return arguments.flag(CommonOptions.failOnFindings) && !diagnosis.findings.isEmpty ? .findings : .success
    }
}
