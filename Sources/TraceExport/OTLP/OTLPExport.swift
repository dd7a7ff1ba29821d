import Redaction
import Reproducible
import SessionTrace
import TraceModel
import TraceStore

/// Writes a trace as an OTLP `ExportTraceServiceRequest`, the body an OpenTelemetry collector or
/// back end accepts at `/v1/traces`: as OTLP/JSON for a file, as protobuf for ``OTLPPush``.
///
/// One `resourceSpans` per run, one trace per user turn, one per session (conversation) and the
/// run's own trace; spans follow the OpenTelemetry GenAI agent conventions (`invoke_agent` per
/// turn, holding its `chat` and `execute_tool` spans) and carry OpenInference's
/// `openinference.span.kind` (``OTLPTraceBuilder`` says how spans are placed). Every span's status
/// is OK or ERROR. Times are the run's wall-clock start plus
/// the monotonic offset, in nanoseconds; span ids are derived from the store's ids, and
/// `session_trace.*_id` attributes keep the store's own as decimal strings.
///
/// The redaction report is on each resource: `session_trace.redaction.summary`,
/// `session_trace.redaction.total` and `session_trace.redaction.count.<kind>`.
public enum OTLPExport {
    /// What an export adds to the store's records.
    public struct Options: Sendable {
        /// Prices for each LLM span's `llm.cost.prompt`, `llm.cost.completion` and `llm.cost.total`.
        public var prices: PriceTable?
        /// The back end's project for every span: OpenInference's `openinference.project.name`.
        public var project: String?

        public init(prices: PriceTable? = nil, project: String? = nil) {
            self.prices = prices
            self.project = project
        }
    }

    /// The whole request as indented OTLP/JSON.
    public static func render(_ redacted: RedactedTrace, options: Options = Options()) -> String {
        let resources = resourceSpans(redacted, options: options).map(json)
        return OrderedJSON.object([("resourceSpans", .array(resources))]).serialized() + "\n"
    }

    /// The spans of every run of `redacted`, one resource per run.
    public static func resourceSpans(_ redacted: RedactedTrace, options: Options = Options()) -> [OTLPResourceSpans] {
        redacted.trace.runs.map { run in
            var attributes = resourceAttributes(run.run, report: redacted.report)
            if let project = options.project { attributes.append(OTLPAttribute("openinference.project.name", project)) }
            return OTLPResourceSpans(
                attributes: attributes, spans: OTLPTraceBuilder(run: run, prices: options.prices).spans())
        }
    }

    /// The instrumentation scope every span is reported under.
    static let scopeName = "SessionTrace"

    /// A 64-bit id mixed from a record's id and its table, so that ids of two tables never meet
    /// and a span id is never zero (OTLP's "no parent").
    static func spanID(_ id: Int64, table: UInt64) -> UInt64 {
        var x = UInt64(bitPattern: id) &+ table &* 0x9E37_79B9_7F4A_7C15
        x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
        x ^= x >> 31
        return x == 0 ? 1 : x
    }

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    private static func resourceAttributes(_ record: RunRecord, report: RedactionReport) -> [OTLPAttribute] {
        var attributes = [
            OTLPAttribute("service.name", record.label.flatMap { $0.isEmpty ? nil : $0 } ?? "session-trace"),
            OTLPAttribute("session_trace.run_id", id: record.runID),
            OTLPAttribute("session_trace.tool_version", record.toolVersion),
        ]
        if !record.host.isEmpty { attributes.append(OTLPAttribute("host.name", record.host)) }
        if !record.commandLine.isEmpty { attributes.append(OTLPAttribute("process.command_line", record.commandLine)) }
        if let revision = record.gitRevision { attributes.append(OTLPAttribute("vcs.ref.head.revision", revision)) }
        attributes += [
            OTLPAttribute("session_trace.redaction.summary", report.summary),
            OTLPAttribute("session_trace.redaction.total", Int64(report.total)),
        ]
        for (kind, count) in report.sortedCounts {
            attributes.append(OTLPAttribute("session_trace.redaction.count.\(kind)", Int64(count)))
        }
        return attributes
    }

    // MARK: OTLP/JSON: ids in hex, 64-bit integers as decimal strings, enums as integers.

    private static func json(_ resource: OTLPResourceSpans) -> OrderedJSON {
        let scope = OrderedJSON.object([("name", .string(scopeName)), ("version", .string(sessionTraceVersion))])
        return .object([
            ("resource", .object([("attributes", .array(resource.attributes.map(json)))])),
            ("scopeSpans", .array([.object([("scope", scope), ("spans", .array(resource.spans.map(json)))])])),
        ])
    }

    private static func json(_ span: OTLPSpan) -> OrderedJSON {
        var members: [(String, OrderedJSON)] = [
            ("traceId", .string(hex(span.traceID))), ("spanId", .string(hex(span.spanID))),
        ]
        if let parent = span.parentSpanID { members.append(("parentSpanId", .string(hex(parent)))) }
        members += [
            ("name", .string(span.name)), ("kind", .int(span.kind.rawValue)),
            ("startTimeUnixNano", .string(String(span.start))), ("endTimeUnixNano", .string(String(span.end))),
            ("attributes", .array(span.attributes.map(json))),
        ]
        // Events and links are left out when there are none, as OTLP/JSON encoders do.
        func list<Item>(_ key: String, _ items: [Item], _ fields: (Item) -> [(String, OrderedJSON)]) {
            if !items.isEmpty { members.append((key, .array(items.map { .object(fields($0)) }))) }
        }
        list("events", span.events) { event in
            [
                ("timeUnixNano", .string(String(event.time))), ("name", .string(event.name)),
                ("attributes", .array(event.attributes.map(json))),
            ]
        }
        list("links", span.links) { link in
            [
                ("traceId", .string(hex(link.traceID))), ("spanId", .string(hex(link.spanID))),
                ("attributes", .array(link.attributes.map(json))),
            ]
        }
        if let error = span.error {
            members.append(("status", .object([("code", .int(2)), ("message", .string(error))])))
        } else {
            members.append(("status", .object([("code", .int(1))])))
        }
        return .object(members)
    }

    private static func hex(_ id: OTLPTraceID) -> String { hex(id.high) + hex(id.low) }

    private static func json(_ attribute: OTLPAttribute) -> OrderedJSON {
        .object([("key", .string(attribute.key)), ("value", json(attribute.value))])
    }

    private static func json(_ value: OTLPAttribute.Value) -> OrderedJSON {
        switch value {
        case .string(let string): .object([("stringValue", .string(string))])
        case .int(let int): .object([("intValue", .string(String(int)))])
        case .double(let double): .object([("doubleValue", .double(double))])
        case .bool(let bool): .object([("boolValue", .bool(bool))])
        case .strings(let strings):
            .object([
                ("arrayValue", .object([("values", .array(strings.map { .object([("stringValue", .string($0))]) }))]))
            ])
        }
    }
}
