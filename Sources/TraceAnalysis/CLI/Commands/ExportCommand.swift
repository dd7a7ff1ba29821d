import Redaction
import TraceStore

/// `trace-report export --format perfetto|otlp|jsonl|html [--out FILE] [--rules FILE] STORE [STORE2]`:
/// the store in a format other tools open, or as the web viewer, always redacted.
public struct ExportCommand: ReportCommand {
    public static let name = "export"
    public static let abstract =
        "Write a store, redacted, as Perfetto/Chrome trace JSON, OTLP/JSON, JSON Lines or the web viewer."
    public static let operands = "STORE [STORE2]"
    public static let discussion = """
        perfetto  Chrome trace-event JSON for ui.perfetto.dev: a process per run, a thread per session,
                  requests with their time to first token, tool calls, generation rate, handoffs.
        otlp      an OTLP/JSON ExportTraceServiceRequest with OpenTelemetry gen_ai.* attributes,
                  for an OpenTelemetry collector (POST it to /v1/traces).
        jsonl     one JSON object per record, with a "type" and the schema's column names.
        html      the web viewer as one file that works offline: lanes per session, requests (the wait
                  before the first token and the generating part, coloured by cache hits), tool calls,
                  handoffs; zoom, pan, details on click, findings. With STORE2, both runs one above
                  the other on the same time scale (docs/viewer-data.md). Only html takes STORE2.
        Every string is redacted first (labels, names, metadata, errors, payloads, the command
        line); what was replaced is counted by kind, never shown: on standard error, and inside the
        file (perfetto: otherData.redaction; otlp: session_trace.redaction.* resource attributes;
        jsonl: a last "redaction_report" line; html: the data's "redaction"). The file is created
        readable by its owner only.
        """
    public static let options: [OptionSpec] = [
        .required("--format", formatList("|"), "the format to write"),
        .value("--out", "FILE", "where to write (mode 0600); standard output if absent"),
    ]

    static func formatList(_ separator: String) -> String {
        ExportFormat.allCases.map(\.rawValue).joined(separator: separator)
    }

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure)
        -> ExitCode
    {
        guard let formatName = arguments.value("--format") else {
            throw .usage(UsageError("--format is required: \(formatList(", "))"))
        }
        guard let format = ExportFormat(rawValue: formatName) else {
            throw .usage(
                UsageError(
                    "unknown format '\(TerminalText.sanitized(formatName))'; use \(formatList(", "))"))
        }
        let paths = arguments.positionals
        guard !paths.isEmpty else { throw .usage(UsageError("no store given; name a .sqlite file")) }
        let most = format == .html ? 2 : 1
        guard paths.count <= most else {
            throw .usage(
                UsageError(
                    most == 2 ? "one store, or two to compare, but \(paths.count) were given"
                        : "one store, but \(paths.count) were given; only html compares two"))
        }
        let out = arguments.value("--out")
        if let out, let store = paths.first(where: { ExportFile.sameFile(out, $0) }) {
            throw .message("--out \(out) is the store \(store) itself; name another file")
        }
        let (text, report, anomalies) = try render(format, paths: paths, redactor: context.redactor)
        try context.writeExport(text, to: out)
        context.writeNote(report.summary + "\n" + AnomalyNotes.text(anomalies))
        return .success
    }

    /// The export's text, what was redacted from it, and the implausible values it read.
    static func render(_ format: ExportFormat, paths: [String], redactor: Redactor) throws(CommandFailure)
        -> (String, RedactionReport, [StoreAnomaly])
    {
        func redacted(_ render: (RedactedTrace) -> String) throws(CommandFailure)
            -> (String, RedactionReport, [StoreAnomaly])
        {
            do {
                let trace = try RedactedTrace.load(path: paths[0], redactor: redactor)
                return (render(trace), trace.report, trace.trace.anomalies)
            } catch {
                throw .input(error)
            }
        }
        switch format {
        case .perfetto: return try redacted(PerfettoExport.render)
        case .otlp: return try redacted(OTLPExport.render)
        case .jsonl: return try redacted(JSONLinesExport.render)
        case .html:
            var traces: [RecordedTrace] = []
            for path in paths {
                do { traces.append(try TraceLoader.load(path: path, chunks: false)) } catch { throw .input(error) }
            }
            let data = ViewerData.build(traces, redactor: redactor)
            do { return (try ViewerDocument.html(data: data), data.redaction, traces.flatMap(\.anomalies)) } catch {
                throw .message(error.description)
            }
        }
    }
}
