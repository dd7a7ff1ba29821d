import LatencyGate
import Redaction
import TraceAnalysis
import TraceExport
import TraceModel
import TraceStore

/// `trace-report export --format perfetto|otlp|jsonl|html [--out FILE] [--rules FILE] STORE [STORE2]`:
/// the store in a format other tools open, or as the web viewer, always redacted;
/// `--format otlp --endpoint URL` pushes it to an OTLP/HTTP back end instead.
struct ExportCommand: ReportCommand {
    static let name = "export"
    static let abstract =
        "Write a store, redacted, as Perfetto/Chrome trace JSON, OTLP/JSON, JSON Lines or the web viewer."
    static let operands = "STORE [STORE2]"
    static let discussion = """
        perfetto  Chrome trace-event JSON for ui.perfetto.dev: a process per run, a thread per session,
                  requests with their time to first token, tool calls, generation rate, handoffs.
        otlp      an OTLP/JSON ExportTraceServiceRequest with OpenTelemetry gen_ai.* and OpenInference
                  attributes: a trace per user turn, rooted in its invoke_agent span holding its chat
                  and execute_tool spans, the turns of a session sharing its session.id; a trace per
                  session and one for the run. Captured text goes to input.value and output.value
                  (and gen_ai.input.messages, gen_ai.output.messages); --prices FILE adds
                  llm.cost.* to each priced chat span; --project NAME puts every span in that back-end
                  project (openinference.project.name; Phoenix also reads an x-project-name header).
                  With --endpoint URL, sent to that OTLP/HTTP back end as
                  protobuf (URL/v1/traces when URL has no path), in batches of 512 spans, retried
                  on 429, 502, 503 and 504; --header K=V[,K=V] adds headers (OTLP's header format).
                  The whole push ends within --timeout (default 120s): each attempt and each wait is
                  cut to the time left, and a push that stops says how many spans and batches were
                  delivered, and exits 2. Span and trace ids come from the store's ids, so a rerun
                  sends the same ids again; Phoenix keeps one span per span id.
        jsonl     one JSON object per record, with a "type" and the schema's column names.
        html      the web viewer as one file that works offline: lanes per session, requests (the wait
                  before the first token and the generating part, coloured by cache hits), tool calls,
                  handoffs; zoom, pan, details on click, findings. With STORE2, both runs one above
                  the other on the same time scale, labelled A and B, each finding tagged with its
                  run, and diff's table beside them (docs/viewer-data.md). Only html takes STORE2.
                  --prices FILE adds the cost of each request, session, run and finding.
        Every string is redacted first (labels, names, metadata, errors, payloads, the command
        line); what was replaced is counted by kind, never shown: on standard error, and inside the
        file (perfetto: otherData.redaction; otlp: session_trace.redaction.* resource attributes;
        jsonl: a last "redaction_report" line; html: the data's "redaction"). The file is created
        readable by its owner only. --run and --session export part of a store; in html, a run of
        over 20,000 requests is drawn as bands, and a part of 20,000 or fewer a bar per request.
        """
    /// The options of this command alone, each declared once and read through its declaration.
    enum Option {
        static let format = OptionSpec.required("--format", ExportCommand.formatList("|"), "the format to write")
        static let out = OptionSpec.value(
            "--out", "FILE", "where to write (mode 0600); standard output if absent, nothing with --endpoint")
        static let endpoint = OptionSpec.value(
            "--endpoint", "URL", "push OTLP/HTTP protobuf to this back end (--format otlp only)")
        static let header = OptionSpec.value(
            "--header", "K=V[,K=V]", "headers sent with --endpoint, such as authorization=Bearer%20…")
        static let timeout = OptionSpec.value(
            "--timeout", "DURATION", "the most the whole push may take, such as 90s or 2m (default 120s)")
        static let project = OptionSpec.value(
            "--project", "NAME", "the back end's project for every span (--format otlp only)")
    }

    static let options: [OptionSpec] = [
        Option.format,
        Option.out,
        Option.endpoint,
        Option.header,
        Option.timeout,
        Option.project,
        CommonOptions.prices,
        SessionOption.runSpec,
        SessionOption.spec,
    ]

    static func formatList(_ separator: String) -> String {
        ExportFormat.allCases.map(\.rawValue).joined(separator: separator)
    }

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure)
        -> ReportExitStatus
    {
        guard let formatName = arguments.value(Option.format) else {
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
        let out = arguments.value(Option.out)
        if let out, let store = paths.first(where: { ExportFile.sameFile(out, $0) }) {
            throw .message("--out \(out) is the store \(store) itself; name another file")
        }
        let otlp = OTLPExport.Options(
            prices: try CommonOptions.priceTable(arguments), project: arguments.value(Option.project))
        if format != .otlp, format != .html, otlp.prices != nil {
            throw .usage(UsageError("--prices goes with --format otlp or html"))
        }
        if format != .otlp, otlp.project != nil {
            throw .usage(UsageError("--project goes with --format otlp"))
        }
        if let endpoint = arguments.value(Option.endpoint) {
            guard format == .otlp else { throw .usage(UsageError("--endpoint pushes OTLP only; add --format otlp")) }
            return try push(
                paths[0], to: endpoint, headers: arguments.value(Option.header), out: out, options: otlp,
                arguments: arguments, context: context)
        }
        if arguments.value(Option.header) != nil { throw .usage(UsageError("--header goes with --endpoint")) }
        if arguments.value(Option.timeout) != nil { throw .usage(UsageError("--timeout goes with --endpoint")) }
        let (text, report, anomalies) = try render(
            format, paths: paths, redactor: context.redactor, arguments: arguments, otlp: otlp,
            viewerTestDriver: context.viewerTestDriver)
        try context.writeExport(text, to: out)
        context.writeNote(report.summary + "\n" + AnomalyNotes.text(anomalies))
        return .success
    }

    /// Pushes the store's spans to `endpoint`, and writes them to `out` as OTLP/JSON when given.
    static func push(
        _ path: String, to endpoint: String, headers: String?, out: String?, options: OTLPExport.Options,
        arguments: ParsedArguments, context: CommandContext
    ) throws(CommandFailure) -> ReportExitStatus {
        guard endpoint.hasPrefix("http://") || endpoint.hasPrefix("https://") else {
            throw .usage(UsageError("--endpoint needs an http:// or https:// URL"))
        }
        let pairs = try headerPairs(headers)
        var push = OTLPPush(endpoint: endpoint, headers: pairs)
        do throws(UsageError) {
            if let timeout = try arguments.duration(Option.timeout) {
                guard timeout >= 1_000_000, timeout <= 86_400_000_000_000 else {
                    throw UsageError("--timeout needs a duration from 1ms to 24h")
                }
                push.deadline = .nanoseconds(timeout)
            }
        } catch { throw .usage(error) }
        let trace = try load(path, arguments, redactor: context.redactor)
        let clock = ContinuousClock()
        let start = clock.now
        let summary: OTLPPush.Summary
        do { summary = try push.send(OTLPExport.resourceSpans(trace, options: options)) } catch { throw .export(error) }
        let elapsed = Int64((clock.now - start) / .nanoseconds(1))
        if let out { try context.writeExport(OTLPExport.render(trace, options: options), to: out) }
        let retries = summary.retries == 0 ? "" : ", \(summary.retries) retried"
        context.writeNote(
            "pushed \(summary.spans) spans in \(summary.batches) batches to \(push.url) in "
                + "\(Format.duration(elapsed))\(retries)\n" + trace.report.summary + "\n"
                + AnomalyNotes.text(trace.trace.anomalies))
        return .success
    }

    /// `K=V[,K=V]` as OTLP's `OTEL_EXPORTER_OTLP_HEADERS` writes headers (values may be
    /// percent-encoded), as name and value pairs.
    static func headerPairs(_ text: String?) throws(CommandFailure) -> [(String, String)] {
        guard let text else { return [] }
        var pairs: [(String, String)] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let equals = item.firstIndex(of: "=") else {
                throw .usage(UsageError("--header needs K=V, not '\(TerminalText.sanitized(String(item)))'"))
            }
            let name = item[..<equals].filter { !$0.isWhitespace }
            let value = percentDecoded(item[item.index(after: equals)...])
            guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_".contains($0)) }),
                !value.contains(where: { $0.isNewline || $0 == "\0" })
            else {
                throw .usage(UsageError("--header needs a name of letters, digits and dashes and a value on one line"))
            }
            pairs.append((name, value))
        }
        return pairs
    }

    /// `%XX` escapes decoded; text with a malformed escape or that decodes to invalid UTF-8 as is.
    private static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var utf8 = text.utf8[...]
        while let byte = utf8.first {
            utf8 = utf8.dropFirst()
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) else {
                return String(text)
            }
            bytes.append(value)
            utf8 = utf8.dropFirst(2)
        }
        return String(validating: bytes, as: UTF8.self) ?? String(text)
    }

    /// The store or trace at `path`, narrowed to `--run` and `--session`, redacted.
    static func load(_ path: String, _ arguments: ParsedArguments, redactor: Redactor) throws(CommandFailure)
        -> RedactedTrace
    {
        let trace: RecordedTrace
        do { trace = try TraceLoader.load(path: path, chunks: true) } catch { throw .input(error) }
        return RedactedTrace.redact(try SessionOption.narrowed(trace, arguments, session: true), with: redactor)
    }

    /// The export's text, what was redacted from it, and the implausible values it read; an html
    /// export carries `viewerTestDriver` after the viewer's modules when it is set (tests only).
    static func render(
        _ format: ExportFormat, paths: [String], redactor: Redactor, arguments: ParsedArguments,
        otlp: OTLPExport.Options = OTLPExport.Options(), viewerTestDriver: (name: String, text: String)? = nil
    ) throws(CommandFailure) -> (String, RedactionReport, [StoreAnomaly]) {
        func redacted(_ render: (RedactedTrace) -> String) throws(CommandFailure)
            -> (String, RedactionReport, [StoreAnomaly])
        {
            let trace = try load(paths[0], arguments, redactor: redactor)
            return (render(trace), trace.report, trace.trace.anomalies)
        }
        switch format {
        case .perfetto: return try redacted(PerfettoExport.render)
        case .otlp: return try redacted { OTLPExport.render($0, options: otlp) }
        case .jsonl: return try redacted(JSONLinesExport.render)
        case .html:
            var traces: [RecordedTrace] = []
            for path in paths {
                let trace: RecordedTrace
                do { trace = try TraceLoader.load(path: path, chunks: false) } catch { throw .input(error) }
                traces.append(try SessionOption.narrowed(trace, arguments, session: true))
            }
            // Two stores: the page's comparison panel is `trace-report diff A B`'s table, from the
            // same code with its defaults (grouped by run label, 2,000 seeded resamples).
            let diff = traces.count == 2
                ? RunComparison.compare(
                    LatencyBaseline.make(traces: [traces[0]], grouping: .label).redacted(by: redactor),
                    LatencyBaseline.make(traces: [traces[1]], grouping: .label).redacted(by: redactor)).json
                : nil
            let data = ViewerData.build(traces, redactor: redactor, prices: otlp.prices, diff: diff)
            do { return (try ViewerDocument.html(data: data, testDriver: viewerTestDriver), data.redaction, traces.flatMap(\.anomalies)) } catch {
                throw .message(error.description)
            }
        }
    }
}
