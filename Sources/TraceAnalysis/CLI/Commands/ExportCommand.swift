import Redaction

/// `trace-report export --format perfetto|otlp|jsonl [--out FILE] [--rules FILE] STORE`: the store
/// in a format other tools open, redacted.
public struct ExportCommand: ReportCommand {
    public static let name = "export"
    public static let abstract =
        "Write a store, redacted, as Perfetto/Chrome trace JSON, OTLP/JSON or JSON Lines."
    public static let usage =
        "trace-report export --format \(formatList("|")) [--out FILE] [--rules FILE] STORE"
    public static let discussion = """
        perfetto  Chrome trace-event JSON for ui.perfetto.dev: a process per run, a thread per session,
                  requests with their time to first token, tool calls, generation rate, handoffs.
        otlp      an OTLP/JSON ExportTraceServiceRequest with OpenTelemetry gen_ai.* attributes,
                  for an OpenTelemetry collector (POST it to /v1/traces).
        jsonl     one JSON object per record, with a "type" and the schema's column names.
        Every string is redacted first (labels, names, metadata, errors, payloads, the command
        line); what was replaced is counted by kind, never shown: on standard error, and inside the
        file (perfetto: otherData.redaction; otlp: session_trace.redaction.* resource attributes;
        jsonl: a last "redaction_report" line). The file is created readable by its owner only.
        """
    public static let options: [OptionSpec] = [
        .value("--format", "FORMAT", "\(formatList(", ")) (required)"),
        .value("--out", "FILE", "where to write (mode 0600); standard output if absent"),
        .value("--rules", "FILE", "more redaction rules, one per line (see docs/trace-report.md)"),
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
        let path: String
        do { path = try arguments.storePath() } catch { throw .usage(error) }
        let out = arguments.value("--out")
        if let out, ExportFile.sameFile(out, path) {
            throw .message("--out \(out) is the store itself; name another file")
        }
        let redactor = try Redactor.withRules(from: arguments.value("--rules"))
        let redacted: RedactedTrace
        do { redacted = try RedactedTrace.load(path: path, redactor: redactor) } catch { throw .input(error) }

        let text: String
        switch format {
        case .perfetto: text = PerfettoExport.render(redacted)
        case .otlp: text = OTLPExport.render(redacted)
        case .jsonl: text = JSONLinesExport.render(redacted)
        }

        if let out {
            try ExportFile.write(text, to: out)
        } else {
            context.write(text)
        }
        CommandContext.writeStandardError(redacted.report.summary + "\n")
        return .success
    }
}
