import Redaction
import Reproducible
import SessionTrace
import TraceAnalysis
import TraceModel
import TraceStore

/// The OTLP spans of one run, laid out as the OpenTelemetry GenAI agent conventions and
/// OpenInference expect (docs/trace-report.md, "--format otlp").
///
/// **One trace per user turn**, as Phoenix and Langfuse expect, rooted in the turn's
/// `invoke_agent` span, which holds the turn's `chat` and `execute_tool` spans as siblings; the
/// turns of a session share its `session.id`, which back ends group a session's traces by. Each
/// session also has a trace of its own, rooted in its `session` span (`invoke_workflow`), with its
/// handoffs and the app's intervals that hold its work; a turn links to the interval or session
/// span it ran in. The run's own trace holds the run span, the intervals that hold several
/// sessions' work (each session's spans link to theirs), and what belongs to no session. Every span
/// lies within its parent: a session or run span spans what it holds, and a span goes under the
/// nearest enclosing candidate.
struct OTLPTraceBuilder {
    /// Request fields no span, attribute or event carries, by column, with the reason; every other
    /// field of the request's table is mapped below (ExportCoverageTests holds the two together).
    static let requestFieldsNotExported: [String: String] = [:]
    /// The names a request field also goes by: OpenInference's, which Phoenix reads, and a GenAI
    /// name before its rename, kept beside the new one for one version.
    static let otherNames: [String: [String]] = [
        "gen_ai.usage.cache_read.input_tokens": ["llm.token_count.prompt_details.cache_read"],
        "gen_ai.usage.cache_write.input_tokens": [
            "llm.token_count.prompt_details.cache_write", "gen_ai.usage.cache_creation.input_tokens",
        ],
    ]
    /// Tool-call fields no span carries, by column, with the reason.
    static let toolCallFieldsNotExported: [String: String] = [
        "session_id": "a call goes in its request's trace; the session places only a call outside any request"
    ]

    private let run: RecordedRun
    private let prices: PriceTable?
    private let turns: RunTurns
    private let sessionIDs: Set<Int64>
    private let intervals: [Int64: IntervalRecord]
    /// The session whose trace holds each interval; absent: the run's trace.
    private var intervalOwner: [Int64: Int64] = [:]
    private let instantsByParent: [Int64: [InstantRecord]]

    /// A span while it is built: times on the store's monotonic clock.
    private struct Node {
        var spanID: UInt64
        var parent: UInt64?
        var name: String
        var kind: OTLPSpan.Kind
        var start: Int64
        var end: Int64
        var attributes: [OTLPAttribute]
        var events: [(ts: Int64, name: String, attributes: [OTLPAttribute])] = []
        var links: [(trace: TraceKey, span: UInt64)] = []
        var error: String?
    }

    /// Which trace a span is in.
    private enum TraceKey: Hashable {
        /// The run's own trace.
        case run
        /// A session's trace, by session id.
        case session(Int64)
        /// A user turn's trace, by the id of the turn's first request.
        case turn(Int64)

        init(session: Int64?) { self = session.map(TraceKey.session) ?? .run }
    }

    /// The spans of one trace.
    private struct TraceNodes {
        var root: Node
        var nodes: [Node] = []
    }

    /// The builder of `run`'s spans; with `prices`, LLM spans carry their cost (`llm.cost.*`).
    init(run: RecordedRun, prices: PriceTable? = nil) {
        self.run = run
        self.prices = prices
        turns = RunTurns(run)
        sessionIDs = Set(run.sessions.map(\.sessionID))
        intervals = Dictionary(run.intervals.map { ($0.intervalID, $0) }, uniquingKeysWith: { first, _ in first })
        instantsByParent = Dictionary(
            grouping: run.instants.filter { $0.parentID != nil }, by: { $0.parentID! })
        intervalOwner = owners()
    }

    /// Which session's trace each interval joins: its own session, else the one session whose
    /// requests, tool calls and intervals it holds; one that holds several or none stays in the
    /// run's trace.
    private func owners() -> [Int64: Int64] {
        var held: [Int64: Set<Int64>] = [:]
        func mark(_ start: Int64?, _ session: Int64) {
            var seen: Set<Int64> = []
            var next = start
            while let id = next, let interval = intervals[id], seen.insert(id).inserted {
                held[id, default: []].insert(session)
                next = interval.parentID
            }
        }
        for request in run.requests { if let session = conversation(request.sessionID) { mark(request.parentID, session) } }
        for interval in run.intervals {
            if let session = conversation(interval.sessionID) { mark(interval.intervalID, session) }
        }
        var owner: [Int64: Int64] = [:]
        for interval in run.intervals {
            if let session = conversation(interval.sessionID) {
                owner[interval.intervalID] = session
            } else if let sessions = held[interval.intervalID], sessions.count == 1 {
                owner[interval.intervalID] = sessions.first!
            }
        }
        return owner
    }

    private func conversation(_ session: Int64?) -> Int64? {
        session.flatMap { sessionIDs.contains($0) ? $0 : nil }
    }

    // MARK: Ids

    /// Table tags that keep the span ids of different records apart.
    private enum Table: UInt64 {
        case run = 1, session, request, toolCall, interval, turn
        case runTrace = 0x5255_4E54, sessionTrace = 0x5345_5353, turnTrace = 0x5455_524E, traceLow = 0x5452_4143
    }

    private func spanID(_ id: Int64, _ table: Table) -> UInt64 { OTLPExport.spanID(id, table: table.rawValue) }

    private func traceID(_ trace: TraceKey) -> OTLPTraceID {
        let high =
            switch trace {
            case .run: spanID(run.run.runID, .runTrace)
            case .session(let session): spanID(session, .sessionTrace)
            case .turn(let request): spanID(request, .turnTrace)
            }
        return OTLPTraceID(high: high, low: spanID(run.run.wallClockStart ^ run.run.runID, .traceLow))
    }

    // MARK: Building

    /// The run's traces: the run's first, then each session's by start time, each followed by
    /// its turns'.
    func spans() -> [OTLPSpan] {
        var traces: [TraceKey: TraceNodes] = [.run: TraceNodes(root: runRoot())]
        var turnKeys: [Int64?: [TraceKey]] = [:]
        for session in run.sessions {
            traces[.session(session.sessionID)] = TraceNodes(root: sessionRoot(session))
        }

        for interval in run.intervals {
            let owner = intervalOwner[interval.intervalID]
            let end = interval.ts + max(0, interval.dur)
            let (parent, link) = placement(
                under: interval.parentID == interval.intervalID ? nil : interval.parentID, in: owner,
                start: interval.ts, end: end)
            var node = Node(
                spanID: spanID(interval.intervalID, .interval), parent: parent, name: interval.name, kind: .internal,
                start: interval.ts, end: end, attributes: intervalAttributes(interval), error: interval.error)
            node.events = instantEvents(interval.intervalID)
            if let link { node.links.append(link) }
            traces[TraceKey(session: owner)]!.nodes.append(node)
        }

        // Turns: a trace each, rooted in an invoke_agent span, its requests and tool calls as children.
        for turn in turns.turns {
            let owner = conversation(turn.sessionID)
            let agentID = spanID(turn.requests[0].requestID, .turn)
            var start = Int64.max
            var end = Int64.min
            var children: [Node] = []
            for request in turn.requests {
                start = min(start, request.ts)
                end = max(end, request.ts + max(0, request.dur))
                children.append(requestNode(request, parent: agentID))
                for call in run.toolCallsByRequest[request.requestID] ?? [] {
                    start = min(start, call.ts)
                    end = max(end, call.ts + max(0, call.dur))
                    children.append(toolNode(call, parent: agentID, conversation: owner))
                }
            }
            // The interval or session the turn ran in is in another trace: a link, not a parent.
            let (enclosing, link) = placement(under: turn.requests[0].parentID, in: owner, start: start, end: end)
            var agent = Node(
                spanID: agentID, parent: nil, name: "invoke_agent \(run.sessionLabel(turn.sessionID))",
                kind: .internal, start: start, end: end, attributes: agentAttributes(turn, conversation: owner))
            agent.links.append((TraceKey(session: owner), enclosing))
            if let link { agent.links.append(link) }
            let key = TraceKey.turn(turn.requests[0].requestID)
            traces[key] = TraceNodes(root: agent, nodes: children)
            turnKeys[owner, default: []].append(key)
        }

        // Tool calls that no recorded request asked for.
        let requestIDs = Set(run.requests.map(\.requestID))
        for call in run.toolCalls where !(call.requestID.map(requestIDs.contains) ?? false) {
            let owner = conversation(call.sessionID)
            let key = TraceKey(session: owner)
            traces[key]!.nodes.append(toolNode(call, parent: traces[key]!.root.spanID, conversation: owner))
        }

        // Roots span what they hold; the run's trace is first, sessions follow by start time.
        var spans: [OTLPSpan] = []
        let sessions: [Int64?] = [nil] + run.sessions.map(\.sessionID)
        let order = sessions.flatMap { [TraceKey(session: $0)] + (turnKeys[$0] ?? []) }
        for key in order {
            guard var trace = traces[key] else { continue }
            for node in trace.nodes where node.parent == nil || node.parent == trace.root.spanID {
                trace.root.start = min(trace.root.start, node.start)
                trace.root.end = max(trace.root.end, node.end)
            }
            let id = traceID(key)
            spans.append(span(trace.root, trace: id))
            spans += trace.nodes.map { span($0, trace: id) }
        }
        return spans
    }

    /// Where a span goes: under the nearest of `parent`'s chain of intervals that lies in the trace
    /// of session `owner` (nil: the run) and encloses `start...end`, else under that trace's root.
    /// The link names the enclosing interval the code put it in when that one lies in another trace.
    private func placement(under parent: Int64?, in owner: Int64?, start: Int64, end: Int64)
        -> (UInt64, (trace: TraceKey, span: UInt64)?)
    {
        var seen: Set<Int64> = []
        var next = parent
        var link: (trace: TraceKey, span: UInt64)?
        while let id = next, let interval = intervals[id], seen.insert(id).inserted {
            let intervalTrace = intervalOwner[id]
            if intervalTrace == owner {
                if interval.ts <= start, end <= interval.ts + max(0, interval.dur) {
                    return (spanID(id, .interval), link)
                }
            } else if link == nil {
                link = (TraceKey(session: intervalTrace), spanID(id, .interval))
            }
            next = interval.parentID == id ? nil : interval.parentID
        }
        return (owner.map { spanID($0, .session) } ?? spanID(run.run.runID, .run), link)
    }

    // MARK: Spans

    private func runRoot() -> Node {
        let record = run.run
        var node = Node(
            spanID: spanID(record.runID, .run), parent: nil,
            name: record.label.map { "run \($0)" } ?? "run", kind: .internal,
            start: min(record.ts, run.startTime), end: min(record.ts, run.startTime),
            attributes: [
                OTLPAttribute("openinference.span.kind", "CHAIN"),
                OTLPAttribute("gen_ai.operation.name", "invoke_workflow"),
                OTLPAttribute("session_trace.run_id", id: record.runID),
            ])
        node.events = run.dropped.map { dropped in
            (
                dropped.ts, "dropped_events",
                [
                    OTLPAttribute("session_trace.sink", dropped.sinkName),
                    OTLPAttribute("session_trace.reason", dropped.reason.rawValue),
                    OTLPAttribute("session_trace.count", dropped.count),
                ]
            )
        }
        let known = Set(run.intervals.map(\.intervalID)).union(sessionIDs).union(run.requests.map(\.requestID))
        node.events += run.instants.filter { instant in
            instant.parentID.map { !known.contains($0) } ?? true
        }.map(instantEvent)
        return node
    }

    private func sessionRoot(_ session: SessionRecord) -> Node {
        var node = Node(
            spanID: spanID(session.sessionID, .session), parent: nil, name: "session \(session.label)",
            kind: .internal, start: session.ts, end: session.ts + max(0, session.dur),
            attributes: [
                OTLPAttribute("openinference.span.kind", "CHAIN"),
                OTLPAttribute("gen_ai.operation.name", "invoke_workflow"),
                OTLPAttribute("gen_ai.agent.name", session.label),
                OTLPAttribute("agent.name", session.label),
            ] + conversationAttributes(session.sessionID) + [
                OTLPAttribute("session_trace.run_id", id: run.run.runID),
                OTLPAttribute("session_trace.session_id", id: session.sessionID),
            ] + exchange(of: turns.turns.filter { $0.sessionID == session.sessionID }.flatMap(\.requests)))
        node.events =
            run.handoffs.filter { $0.sessionID == session.sessionID }.map { handoff in
                (
                    handoff.ts, "session_trace.handoff",
                    [
                        OTLPAttribute("session_trace.handoff.kind", handoff.kind.rawValue),
                        OTLPAttribute("session_trace.handoff.from", handoff.from),
                        OTLPAttribute("session_trace.handoff.to", handoff.to),
                    ]
                )
            } + instantEvents(session.sessionID)
        return node
    }

    /// `gen_ai.conversation.id` and OpenInference's `session.id`, which Phoenix groups sessions by.
    private func conversationAttributes(_ session: Int64?) -> [OTLPAttribute] {
        guard let session = conversation(session) else { return [] }
        return [OTLPAttribute("gen_ai.conversation.id", id: session), OTLPAttribute("session.id", id: session)]
    }

    private func intervalAttributes(_ interval: IntervalRecord) -> [OTLPAttribute] {
        var attributes = [OTLPAttribute("openinference.span.kind", "CHAIN")]
        attributes += conversationAttributes(intervalOwner[interval.intervalID])
        attributes.append(OTLPAttribute("session_trace.interval_id", id: interval.intervalID))
        attributes += metadata(interval.metadata, prefix: "session_trace.interval.")
        return attributes
    }

    private func agentAttributes(_ turn: Turn, conversation owner: Int64?) -> [OTLPAttribute] {
        let first = turn.requests[0]
        var attributes = [
            OTLPAttribute("openinference.span.kind", "AGENT"),
            OTLPAttribute("gen_ai.operation.name", "invoke_agent"),
            OTLPAttribute("gen_ai.agent.name", run.sessionLabel(turn.sessionID)),
            OTLPAttribute("agent.name", run.sessionLabel(turn.sessionID)),
            OTLPAttribute("gen_ai.provider.name", first.provider),
        ]
        attributes += exchange(of: turn.requests)
        if !first.model.isEmpty { attributes.append(OTLPAttribute("gen_ai.request.model", first.model)) }
        attributes += conversationAttributes(owner)
        if let session = turn.sessionID { attributes.append(OTLPAttribute("session_trace.session_id", id: session)) }
        attributes.append(OTLPAttribute("session_trace.turn_index", Int64(turn.index)))
        if let turnID = turn.turnID { attributes.append(OTLPAttribute("session_trace.turn_id", id: turnID)) }
        attributes.append(OTLPAttribute("session_trace.turn_inferred", turn.isInferred))
        return attributes
    }

    private func requestNode(_ request: RequestRecord, parent: UInt64) -> Node {
        var attributes = [
            OTLPAttribute("openinference.span.kind", "LLM"),
            OTLPAttribute("gen_ai.operation.name", "chat"),
            OTLPAttribute("llm.provider", request.provider),
            OTLPAttribute("llm.system", request.provider),
            OTLPAttribute("llm.model_name", request.model.isEmpty ? request.responseModel ?? "" : request.model),
        ]
        // Every field the semantic conventions name, under its name and its other names, from the
        // field table.
        for field in RequestRecord.table.fields {
            guard let name = field.spec.otelAttribute else { continue }
            for name in [name] + (Self.otherNames[name] ?? []) {
                if let attribute = OTLPAttribute(name, field.get(request)) { attributes.append(attribute) }
            }
        }
        attributes += conversationAttributes(request.sessionID)
        let optional: [OTLPAttribute?] = [
            request.inputTokens.map { OTLPAttribute("llm.token_count.prompt", $0) },
            request.outputTokens.map { OTLPAttribute("llm.token_count.completion", $0) },
            request.inputTokens.flatMap { input in
                request.outputTokens.map { OTLPAttribute("llm.token_count.total", input &+ $0) }
            },
            request.timeToFirstToken.map {
                OTLPAttribute("gen_ai.response.time_to_first_chunk", Double($0) / 1e9)
            },
            request.finishReason.map { OTLPAttribute("gen_ai.response.finish_reasons", strings: [$0]) },
            request.error.map { OTLPAttribute("error.type", Self.errorType($0)) },
            request.turnID.map { OTLPAttribute("session_trace.turn_id", id: $0) },
            request.instructionsFingerprint.map { OTLPAttribute("session_trace.instructions_fingerprint", $0) },
            request.toolsFingerprint.map { OTLPAttribute("session_trace.tools_fingerprint", $0) },
            request.sessionID.map { OTLPAttribute("session_trace.session_id", id: $0) },
            OTLPAttribute("session_trace.request_id", id: request.requestID),
            OTLPAttribute("session_trace.profile", request.profile),
            OTLPAttribute("session_trace.prompt_bytes", request.promptBytes),
            OTLPAttribute("session_trace.transcript_entries", request.transcriptEntries),
            OTLPAttribute("session_trace.reused_prefix_entries", request.reusedPrefixEntries),
            request.tokensPerSecond.flatMap { $0.isFinite ? OTLPAttribute("session_trace.tokens_per_second", $0) : nil },
        ]
        attributes += optional.compactMap { $0 }
        if let timings = request.serverTimings {
            attributes += [
                OTLPAttribute("session_trace.server.prompt_tokens", timings.promptTokens),
                OTLPAttribute("session_trace.server.cached_tokens", timings.cachedTokens),
                OTLPAttribute("session_trace.server.prompt_duration_ns", timings.promptDuration),
                OTLPAttribute("session_trace.server.predicted_tokens", timings.predictedTokens),
                OTLPAttribute("session_trace.server.predicted_duration_ns", timings.predictedDuration),
            ]
        }
        if let split = TTFTSplit(request) {
            attributes += [
                OTLPAttribute("session_trace.ttft.server_prompt_ns", split.prompt),
                OTLPAttribute("session_trace.ttft.rest_ns", split.rest),
            ]
        }
        if let queue = request.serverQueueDuration {
            attributes.append(OTLPAttribute("session_trace.server.queue_duration_ns", queue))
        }
        if let phases = request.clientPhases {
            attributes += [
                OTLPAttribute("session_trace.client.dns_ns", phases.nameResolved),
                OTLPAttribute("session_trace.client.connect_ns", phases.connected),
                OTLPAttribute("session_trace.client.sent_ns", phases.requestSent),
                OTLPAttribute("session_trace.client.first_byte_ns", phases.firstByte),
            ]
            if let tls = phases.tlsDone { attributes.append(OTLPAttribute("session_trace.client.tls_ns", tls)) }
        }
        // The five parts of the wait (the two-part split above stays for one version); a part not
        // reported is left out, never sent as 0.
        if let parts = TTFTSplit.Parts(request) {
            attributes += parts.named.compactMap { part in
                part.value.map { OTLPAttribute("session_trace.ttft.part.\(part.key)", $0) }
            }
        }
        if let prices, let cost = prices.costParts(of: request) {
            attributes += [
                OTLPAttribute("llm.cost.prompt", cost.prompt), OTLPAttribute("llm.cost.completion", cost.completion),
                OTLPAttribute("llm.cost.total", cost.prompt + cost.completion),
            ]
        }
        attributes += payloadAttributes(request)
        var node = Node(
            spanID: spanID(request.requestID, .request), parent: parent,
            name: request.model.isEmpty ? "chat" : "chat \(request.model)", kind: .client,
            start: request.ts, end: request.ts + max(0, request.dur), attributes: attributes, error: request.error)
        node.events = instantEvents(request.requestID)
        return node
    }

    private func toolNode(_ call: ToolCallRecord, parent: UInt64, conversation owner: Int64?) -> Node {
        var attributes = [
            OTLPAttribute("openinference.span.kind", "TOOL"),
            OTLPAttribute("gen_ai.operation.name", "execute_tool"),
            OTLPAttribute("gen_ai.tool.name", call.name),
            OTLPAttribute("gen_ai.tool.type", "function"),
            OTLPAttribute("tool.name", call.name),
        ]
        if let callID = call.callID { attributes.append(OTLPAttribute("gen_ai.tool.call.id", callID)) }
        attributes += conversationAttributes(owner)
        if call.error != nil || call.outcome == .error {
            attributes.append(OTLPAttribute("error.type", Self.errorType(call.error ?? "")))
        }
        if let request = call.requestID { attributes.append(OTLPAttribute("session_trace.request_id", id: request)) }
        attributes += [
            OTLPAttribute("session_trace.tool_call_id", id: call.toolCallID),
            OTLPAttribute("session_trace.arguments_fingerprint", call.argumentsFingerprint),
            OTLPAttribute("session_trace.arguments_bytes", call.argumentsBytes),
            OTLPAttribute("session_trace.output_bytes", call.outputBytes),
            OTLPAttribute("session_trace.outcome", call.outcome.rawValue),
        ]
        if let fingerprint = call.outputFingerprint {
            attributes.append(OTLPAttribute("session_trace.output_fingerprint", fingerprint))
        }
        if let sketch = call.argumentsSketch {
            attributes.append(OTLPAttribute("session_trace.arguments_sketch", StoreSchema.encodeSketch(sketch)))
        }
        if let sketch = call.outputSketch {
            attributes.append(OTLPAttribute("session_trace.output_sketch", StoreSchema.encodeSketch(sketch)))
        }
        for payload in run.payloadsByParent[call.toolCallID] ?? [] {
            switch payload.kind {
            case .toolArguments:
                attributes += [
                    OTLPAttribute("gen_ai.tool.call.arguments", payload.text), OTLPAttribute("input.value", payload.text),
                    OTLPAttribute("input.mime_type", Self.mimeType(payload.text)),
                ]
            case .toolOutput:
                attributes += [
                    OTLPAttribute("gen_ai.tool.call.result", payload.text), OTLPAttribute("output.value", payload.text),
                    OTLPAttribute("output.mime_type", Self.mimeType(payload.text)),
                ]
            default: attributes.append(OTLPAttribute("session_trace.payload.\(payload.kind.rawValue)", payload.text))
            }
        }
        return Node(
            spanID: spanID(call.toolCallID, .toolCall), parent: parent, name: "execute_tool \(call.name)",
            kind: .internal, start: call.ts, end: call.ts + max(0, call.dur), attributes: attributes,
            error: call.error ?? (call.outcome == .error ? call.outcome.rawValue : nil))
    }

    // MARK: Text

    /// A request's captured text under the names back ends read: the prompt as OpenInference's
    /// `input.value` and `llm.input_messages`, and GenAI's `gen_ai.input.messages`; the answer as
    /// `output.value`, `llm.output_messages` and `gen_ai.output.messages`, where the model's
    /// reasoning, if captured, is the message's `reasoning` part before its text; the instructions as
    /// `gen_ai.system_instructions`; the tool definitions as `gen_ai.tool.definitions` and
    /// `llm.tools`. Other payloads keep `session_trace.payload.<kind>`.
    private func payloadAttributes(_ request: RequestRecord) -> [OTLPAttribute] {
        var attributes: [OTLPAttribute] = []
        for payload in run.payloadsByParent[request.requestID] ?? [] {
            let text = payload.text
            switch payload.kind {
            case .prompt:
                attributes += [
                    OTLPAttribute("input.value", text), OTLPAttribute("input.mime_type", "text/plain"),
                    OTLPAttribute("llm.input_messages.0.message.role", "user"),
                    OTLPAttribute("llm.input_messages.0.message.content", text),
                    OTLPAttribute("gen_ai.input.messages", Self.messages("user", text)),
                ]
            case .response:
                let reasoning = run.payloadsByParent[request.requestID]?.last { $0.kind == .reasoning }?.text
                attributes += [
                    OTLPAttribute("output.value", text), OTLPAttribute("output.mime_type", "text/plain"),
                    OTLPAttribute("llm.output_messages.0.message.role", "assistant"),
                    OTLPAttribute("llm.output_messages.0.message.content", text),
                    OTLPAttribute(
                        "gen_ai.output.messages",
                        Self.messages("assistant", text, reasoning: reasoning, finish: request.finishReason)),
                ]
            case .instructions:
                attributes.append(
                    OTLPAttribute(
                        "gen_ai.system_instructions",
                        OrderedJSON.array([.object([("type", .string("text")), ("content", .string(text))])]).compact()))
            case .toolDefinitions:
                attributes += [
                    OTLPAttribute("gen_ai.tool.definitions", text), OTLPAttribute("llm.tools.0.tool.json_schema", text),
                ]
            default:
                attributes.append(OTLPAttribute("session_trace.payload.\(payload.kind.rawValue)", text))
            }
        }
        return attributes
    }

    /// The first captured prompt and the last captured answer of `requests` as `input.value` and
    /// `output.value`: what a turn or a session was asked and answered, which back ends show for
    /// a trace and a session.
    private func exchange(of requests: [RequestRecord]) -> [OTLPAttribute] {
        func text(_ kind: PayloadRecord.Kind, _ request: RequestRecord) -> String? {
            run.payloadsByParent[request.requestID]?.first { $0.kind == kind }?.text
        }
        var attributes: [OTLPAttribute] = []
        if let input = requests.lazy.compactMap({ text(.prompt, $0) }).first {
            attributes += [OTLPAttribute("input.value", input), OTLPAttribute("input.mime_type", "text/plain")]
        }
        if let output = requests.reversed().lazy.compactMap({ text(.response, $0) }).first {
            attributes += [OTLPAttribute("output.value", output), OTLPAttribute("output.mime_type", "text/plain")]
        }
        return attributes
    }

    /// GenAI's message list: one message of `role` with one text part, after a reasoning part if
    /// `reasoning` is given.
    private static func messages(
        _ role: String, _ text: String, reasoning: String? = nil, finish: String? = nil
    ) -> String {
        let part = { (type: String, content: String) in
            OrderedJSON.object([("type", .string(type)), ("content", .string(content))])
        }
        var message: [(String, OrderedJSON)] = [
            ("role", .string(role)),
            ("parts", .array((reasoning.map { [part("reasoning", $0)] } ?? []) + [part("text", text)])),
        ]
        if let finish { message.append(("finish_reason", .string(finish))) }
        return OrderedJSON.array([.object(message)]).compact()
    }

    /// `application/json` for text that is a JSON object or array, else `text/plain`.
    private static func mimeType(_ text: String) -> String {
        let start = text.first { !$0.isWhitespace }
        return start == "{" || start == "[" ? "application/json" : "text/plain"
    }

    /// OpenTelemetry's `error.type` for an error's message: low-cardinality, as the convention asks:
    /// `timeout` for a timeout, `cancelled`, an HTTP status code where the message names one
    /// (`HTTP 503`), else `_OTHER`.
    static func errorType(_ message: String) -> String {
        let lower = message.lowercased()
        if lower.contains("timeout") || lower.contains("timed out") || lower.contains("deadline") { return "timeout" }
        if lower.contains("cancel") { return "cancelled" }
        if let range = lower.range(of: #"(http|status)[ :]*[1-5][0-9][0-9]\b"#, options: .regularExpression) {
            return String(lower[range].suffix(3))
        }
        return "_OTHER"
    }

    // MARK: Parts

    private func instantEvents(_ parentID: Int64) -> [(ts: Int64, name: String, attributes: [OTLPAttribute])] {
        (instantsByParent[parentID] ?? []).map(instantEvent)
    }

    private func instantEvent(_ instant: InstantRecord) -> (ts: Int64, name: String, attributes: [OTLPAttribute]) {
        (
            instant.ts, instant.name,
            [OTLPAttribute("session_trace.instant_id", id: instant.instantID)]
                + metadata(instant.metadata, prefix: "session_trace.instant.")
        )
    }

    /// The app's metadata under its own namespace, so it never collides with a convention's name.
    private func metadata(_ metadata: TraceMetadata, prefix: String) -> [OTLPAttribute] {
        metadata.keys.sorted().map { key in
            switch metadata[key]! {
            case .string(let string): OTLPAttribute(prefix + key, string)
            case .int(let int): OTLPAttribute(prefix + key, int)
            case .double(let double): OTLPAttribute(prefix + key, double)
            case .bool(let bool): OTLPAttribute(prefix + key, bool)
            }
        }
    }

    /// Nanoseconds since the Unix epoch of a monotonic `ts`; 0 when it would fall outside.
    private func wall(_ ts: Int64) -> UInt64 {
        let wall = run.run.wallClockStart.addingReportingOverflow(ts &- run.run.ts)
        return wall.overflow ? 0 : UInt64(max(0, wall.partialValue))
    }

    private func span(_ node: Node, trace: OTLPTraceID) -> OTLPSpan {
        OTLPSpan(
            traceID: trace, spanID: node.spanID, parentSpanID: node.parent, name: node.name, kind: node.kind,
            start: wall(node.start), end: wall(max(node.start, node.end)), attributes: node.attributes,
            events: node.events.map { OTLPEvent(time: wall($0.ts), name: $0.name, attributes: $0.attributes) },
            links: node.links.map {
                OTLPLink(
                    traceID: traceID($0.trace), spanID: $0.span,
                    attributes: [OTLPAttribute("session_trace.link", "enclosing_interval")])
            },
            error: node.error)
    }
}
