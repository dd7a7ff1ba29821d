import LTTngReader
import TraceAnalysis
import TraceModel
import TraceStore

#if canImport(Glibc)
import Glibc
#endif

/// `trace-report import TRACE_DIR --out STORE`: an LTTng trace written as a new store.
struct ImportCommand: ReportCommand {
    static let name = "import"
    static let abstract = "Write an LTTng trace as a new store, for SQL."
    static let operands = "TRACE_DIR"
    static let discussion = """
        Reads every session_trace record of the LTTng trace in TRACE_DIR (the folder of a recording
        session, or any folder below it) and writes them to STORE, a new store readable by its owner
        only; an existing STORE is refused. The store is written beside STORE under a hidden name and
        renamed into place when complete, so an interrupted import leaves no store behind. On a
        terminal, progress is shown on standard error. Rows are placed in runs as docs/lttng.md says.
        """
    /// The options of this command alone, each declared once and read through its declaration.
    enum Option {
        static let out = OptionSpec.required("--out", "STORE", "the store to create")
    }

    static let options: [OptionSpec] = [
        Option.out,
        CommonOptions.json,
    ]

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure)
        -> ReportExitStatus
    {
        let output: String
        do { output = try arguments.required(Option.out) } catch { throw .usage(error) }
        let trace: String
        do { trace = try arguments.storePath() } catch { throw .usage(error) }
        guard LTTngTrace.isTraceInput(trace), !LTTngTrace.isLiveURL(trace) else {
            throw .input(.lttng(access(trace, F_OK) == 0 ? .noTrace(path: trace) : .notFound(path: trace)))
        }
        guard access(output, F_OK) != 0 else {
            throw .message("\(output) already exists; import writes a new store")
        }
        let showsProgress = isatty(STDERR_FILENO) == 1
        let clock = ContinuousClock()
        let start = clock.now
        let outcome: LTTngImporter.Outcome
        do {
            outcome = try LTTngImporter.run(tracePath: trace, output: output) { records in
                guard showsProgress else { return }
                let seconds = (clock.now - start).seconds
                let rate = Int64(Double(records) / max(seconds, 1e-3))
                context.writeNote("\rimporting \(trace): \(Format.count(Int64(records))) records, "
                    + "\(Format.count(rate))/s")
            }
        } catch {
            throw .imported(error)
        }
        if showsProgress { context.writeNote("\n") }
        let nanoseconds = Int64((clock.now - start).seconds * 1e9)
        if arguments.flag(CommonOptions.json) {
            context.write(json: AnomalyNotes.adding(outcome.anomalies, to: .object([
                ("store", .string(output)), ("trace", .string(trace)),
                ("records", .int(Int64(outcome.records))), ("runs", .int(Int64(outcome.runs))),
                ("dur_ns", .int(nanoseconds)),
            ])))
            return .success
        }
        context.write(
            "\(output): \(Format.count(Int64(outcome.records))) records in \(outcome.runs) "
                + "run\(outcome.runs == 1 ? "" : "s") from \(trace), in "
                + "\(Format.duration(nanoseconds))\n"
                + AnomalyNotes.text(outcome.anomalies))
        return .success
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
