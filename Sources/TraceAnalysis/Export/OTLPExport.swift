import Redaction
import SessionTrace
import TraceStore

/// Writes a trace as an OTLP/JSON `ExportTraceServiceRequest`, the body an OpenTelemetry
/// collector accepts at `/v1/traces`, with the `gen_ai.*` semantic-convention attributes.
///
/// One `resourceSpans` per run; the run is one trace, whose root span is the run. Sessions are
/// `invoke_agent` spans, requests `chat` spans (kind CLIENT), tool calls `execute_tool` spans under
/// the request that asked for them, app intervals spans under their parent. Handoffs and instants
/// are span events, dropped-event counts events of the run span. Times are the run's wall-clock
/// start plus the monotonic offset, in nanoseconds as decimal strings; ids are derived from the
/// store's ids, and `session_trace.*_id` attributes keep the store's own.
///
/// The redaction report is on each resource: `session_trace.redaction.summary`,
/// `session_trace.redaction.total` and `session_trace.redaction.count.<kind>`.
public enum OTLPExport {
    /// The whole request as indented JSON.
    public static func render(_ redacted: RedactedTrace) -> String {
        let resources = redacted.trace.runs.map { RunSpans(run: $0, report: redacted.report).resourceSpans() }
        return JSONValue.object([("resourceSpans", .array(resources))]).serialized() + "\n"
    }

    /// Span kinds, as the integers OTLP/JSON requires for enums.
    enum SpanKind: Int64 {
        case `internal` = 1, client = 3
    }

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

    // Attribute values, in OTLP/JSON's shapes: 64-bit integers are decimal strings.
    static func attribute(_ key: String, _ value: String) -> JSONValue {
        .object([("key", .string(key)), ("value", .object([("stringValue", .string(value))]))])
    }

    static func attribute(_ key: String, _ value: Int64) -> JSONValue {
        .object([("key", .string(key)), ("value", .object([("intValue", .string(String(value)))]))])
    }

    static func attribute(_ key: String, _ value: Double) -> JSONValue {
        .object([("key", .string(key)), ("value", .object([("doubleValue", .double(value))]))])
    }

    static func attribute(_ key: String, _ value: Bool) -> JSONValue {
        .object([("key", .string(key)), ("value", .object([("boolValue", .bool(value))]))])
    }

    static func attribute(_ key: String, strings: [String]) -> JSONValue {
        let values = JSONValue.array(strings.map { .object([("stringValue", .string($0))]) })
        return .object([
            ("key", .string(key)), ("value", .object([("arrayValue", .object([("values", values)]))])),
        ])
    }
}

/// Table tags for ``OTLPExport/spanID(_:table:)``.
private enum Table: UInt64 {
    case run = 1
    case session, request, toolCall, interval
}

/// The spans of one run.
private struct RunSpans {
    let run: RecordedRun
    let report: RedactionReport
    let traceID: String
    let runSpanID: String
    private let sessionIDs: Set<Int64>
    private let intervalIDs: Set<Int64>
    private let requestIDs: Set<Int64>
    private let instantsByParent: [Int64: [InstantRecord]]

    init(run: RecordedRun, report: RedactionReport) {
        self.run = run
        instantsByParent = Dictionary(
            grouping: run.instants.filter { $0.parentID != nil }, by: { $0.parentID! })
        self.report = report
        let id = run.run.runID
        traceID =
            OTLPExport.hex(OTLPExport.spanID(id, table: 0x5452_4143))
            + OTLPExport.hex(OTLPExport.spanID(run.run.wallClockStart ^ id, table: 0x5255_4E00))
        runSpanID = OTLPExport.hex(OTLPExport.spanID(id, table: Table.run.rawValue))
        sessionIDs = Set(run.sessions.map(\.sessionID))
        intervalIDs = Set(run.intervals.map(\.intervalID))
        requestIDs = Set(run.requests.map(\.requestID))
    }

    func resourceSpans() -> JSONValue {
        let record = run.run
        var attributes: [JSONValue] = [
            OTLPExport.attribute(
                "service.name", record.label.flatMap { $0.isEmpty ? nil : $0 } ?? "session-trace"),
            OTLPExport.attribute("session_trace.run_id", record.runID),
            OTLPExport.attribute("session_trace.tool_version", record.toolVersion),
        ]
        if !record.host.isEmpty { attributes.append(OTLPExport.attribute("host.name", record.host)) }
        if !record.commandLine.isEmpty {
            attributes.append(OTLPExport.attribute("process.command_line", record.commandLine))
        }
        if let revision = record.gitRevision {
            attributes.append(OTLPExport.attribute("vcs.ref.head.revision", revision))
        }
        attributes.append(OTLPExport.attribute("session_trace.redaction.summary", report.summary))
        attributes.append(OTLPExport.attribute("session_trace.redaction.total", Int64(report.total)))
        for (kind, count) in report.sortedCounts {
            attributes.append(OTLPExport.attribute("session_trace.redaction.count.\(kind)", Int64(count)))
        }
        var spans = [runSpan()]
        spans += run.sessions.map(sessionSpan)
        spans += run.intervals.map(intervalSpan)
        spans += run.requests.map(requestSpan)
        spans += run.toolCalls.map(toolSpan)
        return .object([
            ("resource", .object([("attributes", .array(attributes))])),
            (
                "scopeSpans",
                .array([
                    .object([
                        (
                            "scope",
                            .object([
                                ("name", .string("SessionTrace")), ("version", .string(sessionTraceVersion)),
                            ])
                        ),
                        ("spans", .array(spans)),
                    ])
                ])
            ),
        ])
    }

    // MARK: Spans

    private func runSpan() -> JSONValue {
        let record = run.run
        var end = record.ts
        for session in run.sessions { end = max(end, session.ts + session.dur) }
        for request in run.requests { end = max(end, request.ts + request.dur) }
        for call in run.toolCalls { end = max(end, call.ts + call.dur) }
        for interval in run.intervals { end = max(end, interval.ts + interval.dur) }
        var events: [JSONValue] = run.dropped.map { dropped in
            event(
                "dropped_events", ts: dropped.ts,
                [
                    OTLPExport.attribute("session_trace.sink", dropped.sink),
                    OTLPExport.attribute("session_trace.reason", dropped.reason),
                    OTLPExport.attribute("session_trace.count", dropped.count),
                ])
        }
        events += run.instants.filter { instant in
            guard let parent = instant.parentID else { return true }
            return !intervalIDs.contains(parent) && !sessionIDs.contains(parent)
                && !requestIDs.contains(parent)
        }.map(instantEvent)
        let start = min(record.ts, run.startTime)
        return span(
            name: record.label.map { "run \($0)" } ?? "run", id: runSpanID, parent: nil, kind: .internal,
            start: start, end: end, attributes: [OTLPExport.attribute("session_trace.run_id", record.runID)],
            events: events, error: nil)
    }

    private func sessionSpan(_ session: SessionRecord) -> JSONValue {
        let events =
            run.handoffs.filter { $0.sessionID == session.sessionID }.map { handoff in
                event(
                    "session_trace.handoff", ts: handoff.ts,
                    [
                        OTLPExport.attribute("session_trace.handoff.kind", handoff.kind),
                        OTLPExport.attribute("session_trace.handoff.from", handoff.from),
                        OTLPExport.attribute("session_trace.handoff.to", handoff.to),
                    ])
            } + instants(of: session.sessionID)
        return span(
            name: "invoke_agent \(session.label)", id: id(session.sessionID, .session), parent: runSpanID,
            kind: .internal, start: session.ts, end: session.ts + session.dur,
            attributes: [
                OTLPExport.attribute("gen_ai.operation.name", "invoke_agent"),
                OTLPExport.attribute("gen_ai.agent.name", session.label),
                OTLPExport.attribute("gen_ai.conversation.id", String(session.sessionID)),
                OTLPExport.attribute("session_trace.session_id", session.sessionID),
            ],
            events: events, error: nil)
    }

    private func intervalSpan(_ interval: IntervalRecord) -> JSONValue {
        var attributes = [OTLPExport.attribute("session_trace.interval_id", interval.intervalID)]
        if let session = interval.sessionID {
            attributes.append(OTLPExport.attribute("gen_ai.conversation.id", String(session)))
        }
        for key in interval.metadata.keys.sorted() {
            attributes.append(metadataAttribute(key, interval.metadata[key]!))
        }
        return span(
            name: interval.name, id: id(interval.intervalID, .interval), parent: parent(of: interval),
            kind: .internal,
            start: interval.ts, end: interval.ts + interval.dur, attributes: attributes,
            events: instants(of: interval.intervalID), error: interval.error)
    }

    private func requestSpan(_ request: RequestRecord) -> JSONValue {
        var attributes = [
            OTLPExport.attribute("gen_ai.operation.name", "chat"),
            OTLPExport.attribute("gen_ai.provider.name", request.provider),
            OTLPExport.attribute("gen_ai.request.model", request.model),
        ]
        if let session = request.sessionID {
            attributes.append(OTLPExport.attribute("gen_ai.conversation.id", String(session)))
        }
        if let input = request.inputTokens {
            attributes.append(OTLPExport.attribute("gen_ai.usage.input_tokens", input))
        }
        if let output = request.outputTokens {
            attributes.append(OTLPExport.attribute("gen_ai.usage.output_tokens", output))
        }
        if let cached = request.cachedInputTokens {
            attributes.append(OTLPExport.attribute("gen_ai.usage.cache_read.input_tokens", cached))
        }
        if let ttft = request.timeToFirstToken {
            attributes.append(OTLPExport.attribute("gen_ai.response.time_to_first_chunk", Double(ttft) / 1e9))
        }
        if let reason = request.finishReason {
            attributes.append(OTLPExport.attribute("gen_ai.response.finish_reasons", strings: [reason]))
        }
        if request.error != nil { attributes.append(OTLPExport.attribute("error.type", "_OTHER")) }
        let reported: [JSONValue?] = [
            request.cacheWriteTokens.map { OTLPExport.attribute("gen_ai.usage.cache_creation.input_tokens", $0) },
            request.responseID.map { OTLPExport.attribute("gen_ai.response.id", $0) },
            request.responseModel.map { OTLPExport.attribute("gen_ai.response.model", $0) },
            request.serverAddress.map { OTLPExport.attribute("server.address", $0) },
            request.serverPort.map { OTLPExport.attribute("server.port", $0) },
            request.streamed.map { OTLPExport.attribute("gen_ai.request.stream", $0) },
            request.maxTokens.map { OTLPExport.attribute("gen_ai.request.max_tokens", $0) },
            request.temperature.map { OTLPExport.attribute("gen_ai.request.temperature", $0) },
            request.turnID.map { OTLPExport.attribute("session_trace.turn_id", $0) },
            request.instructionsFingerprint.map { OTLPExport.attribute("session_trace.instructions_fingerprint", $0) },
            request.toolsFingerprint.map { OTLPExport.attribute("session_trace.tools_fingerprint", $0) },
        ]
        attributes += reported.compactMap { $0 }
        attributes += [
            OTLPExport.attribute("session_trace.request_id", request.requestID),
            OTLPExport.attribute("session_trace.profile", request.profile),
            OTLPExport.attribute("session_trace.prompt_bytes", request.promptBytes),
            OTLPExport.attribute("session_trace.transcript_entries", request.transcriptEntries),
            OTLPExport.attribute("session_trace.reused_prefix_entries", request.reusedPrefixEntries),
        ]
        if let rate = request.tokensPerSecond, rate.isFinite {
            attributes.append(OTLPExport.attribute("session_trace.tokens_per_second", rate))
        }
        if let timings = request.serverTimings {
            attributes += [
                OTLPExport.attribute("session_trace.server.prompt_tokens", timings.promptTokens),
                OTLPExport.attribute("session_trace.server.cached_tokens", timings.cachedTokens),
                OTLPExport.attribute("session_trace.server.prompt_duration_ns", timings.promptDuration),
                OTLPExport.attribute("session_trace.server.predicted_tokens", timings.predictedTokens),
                OTLPExport.attribute("session_trace.server.predicted_duration_ns", timings.predictedDuration),
            ]
        }
        for payload in run.payloadsByParent[request.requestID] ?? [] {
            attributes.append(
                OTLPExport.attribute("session_trace.payload.\(payload.kind.rawValue)", payload.text))
        }
        let name = request.model.isEmpty ? "chat" : "chat \(request.model)"
        return span(
            name: name, id: id(request.requestID, .request), parent: parent(of: request), kind: .client,
            start: request.ts, end: request.ts + request.dur, attributes: attributes,
            events: instants(of: request.requestID), error: request.error)
    }

    private func toolSpan(_ call: ToolCallRecord) -> JSONValue {
        var attributes = [
            OTLPExport.attribute("gen_ai.operation.name", "execute_tool"),
            OTLPExport.attribute("gen_ai.tool.name", call.name),
            OTLPExport.attribute("gen_ai.tool.type", "function"),
        ]
        if let callID = call.callID { attributes.append(OTLPExport.attribute("gen_ai.tool.call.id", callID)) }
        if let session = call.sessionID {
            attributes.append(OTLPExport.attribute("gen_ai.conversation.id", String(session)))
        }
        if call.error != nil || call.outcome == "error" {
            attributes.append(OTLPExport.attribute("error.type", "_OTHER"))
        }
        attributes += [
            OTLPExport.attribute("session_trace.tool_call_id", call.toolCallID),
            OTLPExport.attribute("session_trace.arguments_fingerprint", call.argumentsFingerprint),
            OTLPExport.attribute("session_trace.arguments_bytes", call.argumentsBytes),
            OTLPExport.attribute("session_trace.output_bytes", call.outputBytes),
            OTLPExport.attribute("session_trace.outcome", call.outcome),
        ]
        if let fingerprint = call.outputFingerprint {
            attributes.append(OTLPExport.attribute("session_trace.output_fingerprint", fingerprint))
        }
        if let sketch = call.outputSketch {
            attributes.append(
                OTLPExport.attribute("session_trace.output_sketch", StoreSchema.encodeSketch(sketch)))
        }
        for payload in run.payloadsByParent[call.toolCallID] ?? [] {
            switch payload.kind {
            case .toolArguments:
                attributes.append(OTLPExport.attribute("gen_ai.tool.call.arguments", payload.text))
            case .toolOutput: attributes.append(OTLPExport.attribute("gen_ai.tool.call.result", payload.text))
            default:
                attributes.append(
                    OTLPExport.attribute("session_trace.payload.\(payload.kind.rawValue)", payload.text))
            }
        }
        let parent: String
        if let request = call.requestID, requestIDs.contains(request) {
            parent = id(request, .request)
        } else if let session = call.sessionID, sessionIDs.contains(session) {
            parent = id(session, .session)
        } else {
            parent = runSpanID
        }
        let error = call.error ?? (call.outcome == "error" ? "error" : nil)
        return span(
            name: "execute_tool \(call.name)", id: id(call.toolCallID, .toolCall), parent: parent,
            kind: .internal,
            start: call.ts, end: call.ts + call.dur, attributes: attributes, events: [], error: error)
    }

    // MARK: Parts

    private func parent(of request: RequestRecord) -> String {
        if let parent = request.parentID {
            if intervalIDs.contains(parent) { return id(parent, .interval) }
            if sessionIDs.contains(parent) { return id(parent, .session) }
        }
        if let session = request.sessionID, sessionIDs.contains(session) { return id(session, .session) }
        return runSpanID
    }

    private func parent(of interval: IntervalRecord) -> String {
        if let parent = interval.parentID {
            if intervalIDs.contains(parent), parent != interval.intervalID { return id(parent, .interval) }
            if sessionIDs.contains(parent) { return id(parent, .session) }
        }
        if let session = interval.sessionID, sessionIDs.contains(session) { return id(session, .session) }
        return runSpanID
    }

    private func id(_ id: Int64, _ table: Table) -> String {
        OTLPExport.hex(OTLPExport.spanID(id, table: table.rawValue))
    }

    /// Nanoseconds since the Unix epoch of a monotonic `ts`, as OTLP/JSON's decimal string.
    private func nanos(_ ts: Int64) -> JSONValue {
        let offset = ts - run.run.ts
        let wall = run.run.wallClockStart.addingReportingOverflow(offset)
        return .string(String(wall.overflow ? 0 : max(0, wall.partialValue)))
    }

    private func span(
        name: String, id: String, parent: String?, kind: OTLPExport.SpanKind, start: Int64, end: Int64,
        attributes: [JSONValue], events: [JSONValue], error: String?
    ) -> JSONValue {
        var members: [(String, JSONValue)] = [("traceId", .string(traceID)), ("spanId", .string(id))]
        if let parent { members.append(("parentSpanId", .string(parent))) }
        members += [
            ("name", .string(name)), ("kind", .int(kind.rawValue)),
            ("startTimeUnixNano", nanos(start)), ("endTimeUnixNano", nanos(max(start, end))),
            ("attributes", .array(attributes)),
        ]
        if !events.isEmpty { members.append(("events", .array(events))) }
        if let error {
            members.append(("status", .object([("code", .int(2)), ("message", .string(error))])))
        } else {
            members.append(("status", .object([("code", .int(0))])))
        }
        return .object(members)
    }

    private func event(_ name: String, ts: Int64, _ attributes: [JSONValue]) -> JSONValue {
        .object([("timeUnixNano", nanos(ts)), ("name", .string(name)), ("attributes", .array(attributes))])
    }

    private func instants(of parentID: Int64) -> [JSONValue] {
        (instantsByParent[parentID] ?? []).map(instantEvent)
    }

    private func instantEvent(_ instant: InstantRecord) -> JSONValue {
        let attributes =
            [OTLPExport.attribute("session_trace.instant_id", instant.instantID)]
            + instant.metadata.keys.sorted().map { metadataAttribute($0, instant.metadata[$0]!) }
        return event(instant.name, ts: instant.ts, attributes)
    }

    private func metadataAttribute(_ key: String, _ value: TraceMetadataValue) -> JSONValue {
        switch value {
        case .string(let string): OTLPExport.attribute(key, string)
        case .int(let int): OTLPExport.attribute(key, int)
        case .double(let double):
            double.isFinite
                ? OTLPExport.attribute(key, double)
                : OTLPExport.attribute(key, String(double))
        case .bool(let bool): OTLPExport.attribute(key, bool)
        }
    }
}
