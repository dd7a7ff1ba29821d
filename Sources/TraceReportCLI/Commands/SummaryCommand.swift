import LTTngReader
import TraceAnalysis
import TraceStore

/// `trace-report summary STORE...`: latency, generation rate, cache and errors per run, session and
/// profile/model.
struct SummaryCommand: ReportCommand {
    static let name = "summary"
    static let abstract = "Latency, generation rate, cache hits and errors per run, session and model."
    static let operands = "STORE..."
    static let discussion = """
        For each run, session and profile/model pair: requests; time to first token p50, p95 and max;
        generation rate p50 in tokens/s, (output_tokens - 1) / ((dur - ttft) / 1e9); latency p50, p95
        and sum (model time); tool time; cache hit rate, server-reported cached input tokens over input
        tokens, summed ("not reported" where the server gave none); failed requests; per run the events
        the sinks dropped; and with --prices, the cost of each group's requests in dollars.
        Percentiles are nearest-rank: the value at rank ceil(p/100 × n) of the n sorted values.
        Rows are streamed from SQLite, so a store of a million requests needs no more than its figures.
        Several stores are summarized together, their runs side by side, as 'check' reads them; an
        LTTng trace is summarized alone.
        """
    /// The options of this command alone, each declared once and read through its declaration.
    enum Option {
        static let limit = OptionSpec.value(
            "--limit", "N", "session rows shown at most (default 20); --json lists all")
    }

    static let options: [OptionSpec] = [
        CommonOptions.json,
        Option.limit,
        Follow.option,
        CommonOptions.prices,
    ]

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure)
        -> ReportExitStatus
    {
        let limit: Int
        do { limit = try arguments.int(Option.limit, default: 20) } catch { throw .usage(error) }
        let json = arguments.flag(CommonOptions.json)
        let prices = try CommonOptions.priceTable(arguments)
        if arguments.flag(Follow.option) {
            return try Follow.run(
                arguments, context: context,
                text: { SummaryReport.compute(trace: $0, prices: prices).text(sessionLimit: limit) },
                object: { SummaryReport.compute(trace: $0, prices: prices).json })
        }
        let report: SummaryReport
        let anomalies: [StoreAnomaly]
        if LTTngTrace.isTraceInput(arguments.positionals.first ?? "") {
            // Aggregated as it is read, and the report redacted, as a store's is below.
            let path: String
            do { path = try arguments.storePath() } catch { throw .usage(error) }
            do {
                let read = try SummaryReport.compute(lttngTrace: path, prices: prices)
                report = read.report.redacted(by: context.redactor)
                anomalies = read.anomalies.map { $0.redacted(by: context.redactor) }
            } catch {
                throw .input(.lttng(error))
            }
        } else {
            guard !arguments.positionals.isEmpty else { throw .usage(UsageError("no store given; name a .sqlite file")) }
            var readers: [StoreReader] = []
            var found: [StoreAnomaly] = []
            do {
                for path in arguments.positionals {
                    let reader = try StoreReader(path: path)
                    // The summary reads a few columns of a few tables; the rest of the file is checked too.
                    try reader.checkPages()
                    found += try reader.anomalies()
                    readers.append(reader)
                }
                report = try SummaryReport.compute(readers: readers, prices: prices).redacted(by: context.redactor)
                anomalies = found.map { $0.redacted(by: context.redactor) }
            } catch {
                throw .input(error)
            }
        }
        context.writeReport(
            json: json, anomalies: anomalies, text: { report.text(sessionLimit: limit) }, object: { report.json })
        return .success
    }
}
