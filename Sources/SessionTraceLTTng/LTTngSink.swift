import CLTTngUST
import SessionTrace

#if canImport(Glibc)
import Glibc
#endif

/// Emits every event as an LTTng-UST tracepoint of the provider `session_trace`.
///
/// A tracepoint is enabled only while an LTTng session enables it (for example
/// `lttng enable-event -u 'session_trace:*'`); until then ``isEnabled(_:)`` is one load of the
/// tracepoint's state word, and ``record(_:)`` returns before formatting anything. Nothing is
/// allocated on the emit path (`LTTngSinkTests` counts): text reaches the tracepoint where Swift
/// stores it, or, for the many texts of a request or tool call, copied into one buffer on the
/// stack. A NUL inside a text, which would end the C string early, is written as a space. The
/// exceptions: the metadata JSON of intervals and instants that carry metadata, and the copy of
/// another event's text that holds a NUL.
///
/// Absent optionals are written as -1 (integers) and "" (strings); see `session_trace_tp.h`.
/// LTTng itself counts the events its ring buffer had to discard and reports them in the
/// trace, so this sink keeps no counter of its own; it has nothing to flush either: data sits
/// in LTTng's buffers and `lttng stop` makes it durable.
///
/// ```swift
/// let tracer = Tracer(sink: MultiplexSink([LTTngSink(), storeSink]))
/// ```
public struct LTTngSink: TraceSink {
    public init() {}

    public func isEnabled(_ kind: TraceEventKind) -> Bool { Self.enabled(kind) }

    /// The tracepoint's state word, which LTTng-UST sets while a session enables it.
    public func enabledWord(_ kind: TraceEventKind) -> EnabledWord? {
        EnabledWord(address: Self.state(of: kind))
    }

    /// Whether a session enables `kind`'s tracepoint now: one load, the only check of this sink.
    @inline(__always)
    private static func enabled(_ kind: TraceEventKind) -> Bool { EnabledWord(address: state(of: kind)).isSet }

    /// The state word of `kind`'s tracepoint.
    @inline(__always)
    private static func state(of kind: TraceEventKind) -> UnsafePointer<Int32> {
        switch kind {
        case .run: st_tracepoint_state_run
        case .session: st_tracepoint_state_session
        case .request: st_tracepoint_state_request
        case .toolCall: st_tracepoint_state_tool_call
        case .handoff: st_tracepoint_state_handoff
        case .interval: st_tracepoint_state_interval
        case .instant: st_tracepoint_state_instant
        case .chunk: st_tracepoint_state_chunk
        case .payload: st_tracepoint_state_payload
        case .dropped: st_tracepoint_state_dropped
        }
    }

    public func record(_ event: consuming TraceEvent) {
        switch consume event {
        case .run(let run): if Self.enabled(.run) { Self.emit(run) }
        case .session(let session): if Self.enabled(.session) { Self.emit(session) }
        case .request(let request): record(request: request)
        case .toolCall(var toolCall): if Self.enabled(.toolCall) { Self.emit(&toolCall) }
        case .handoff(let handoff): if Self.enabled(.handoff) { Self.emit(handoff) }
        case .interval(var interval): if Self.enabled(.interval) { Self.emit(&interval) }
        case .instant(var instant): if Self.enabled(.instant) { Self.emit(&instant) }
        case .chunk(let chunk): if Self.enabled(.chunk) { st_emit_chunk(chunk.requestID, chunk.ts, chunk.tokens) }
        case .payload(let payload): if Self.enabled(.payload) { Self.emit(payload) }
        case .dropped(let dropped): if Self.enabled(.dropped) { Self.emit(dropped) }
        }
    }

    /// Emits `request`, not boxed into an event.
    public func record(request: consuming RequestRecord) {
        var request = request
        recordInPlace(request: &request)
    }

    /// True: a tracepoint keeps nothing of a request.
    public var recordsRequestsInPlace: Bool { true }

    /// Emits `request` from where the caller holds it.
    public func recordInPlace(request: inout RequestRecord) {
        if Self.enabled(.request) { Self.emit(&request) }
    }

    /// Nothing to do: LTTng's consumer daemon drains the buffers, `lttng stop` flushes them.
    public func flush() {}

    // MARK: - One emitter per kind, called only when its tracepoint is enabled

    private static func emit(_ r: RunRecord) {
        withCText(r.host) { host in
            withCText(r.commandLine) { commandLine in
                withCText(r.gitRevision) { gitRevision in
                    withCText(r.label) { label in
                        withCText(r.toolVersion) { toolVersion in
                            st_emit_run(
                                r.runID, r.ts, r.wallClockStart, host, commandLine, gitRevision, label,
                                toolVersion)
                        }
                    }
                }
            }
        }
    }

    private static func emit(_ s: SessionRecord) {
        withCText(s.label) { st_emit_session(s.sessionID, s.ts, s.dur, $0) }
    }

    // The request and tool call carry six to ten texts: they copy them into one buffer on the stack
    // (`CTextBuffer`), which costs less than a closure per text. The other events carry one to five
    // and pass each where Swift stores it (`withCText`). An emitter whose closures read the record
    // reaches it where it is: a closure that captured a borrowed record would copy it, retaining
    // every string. So an emitter takes its record `inout`.
    private static func emit(_ record: inout RequestRecord) {
        let server = record.serverTimings
        let client = record.clientPhases
        var fields = st_request_fields(
            request_id: record.requestID, session_id: record.sessionID ?? -1,
            parent_id: record.parentID ?? -1, ts: record.ts, dur: record.dur,
            ttft: record.timeToFirstToken ?? -1, profile: nil, provider: nil, model: nil,
            input_tokens: record.inputTokens ?? -1,
            cached_input_tokens: record.cachedInputTokens ?? -1,
            output_tokens: record.outputTokens ?? -1, prompt_bytes: record.promptBytes,
            transcript_entries: record.transcriptEntries,
            reused_prefix_entries: record.reusedPrefixEntries, finish_reason: nil, error: nil,
            server_prompt_tokens: server?.promptTokens ?? -1, server_cached_tokens: server?.cachedTokens ?? -1,
            server_prompt_dur: server?.promptDuration ?? -1, server_predicted_tokens: server?.predictedTokens ?? -1,
            server_predicted_dur: server?.predictedDuration ?? -1, turn_id: record.turnID ?? -1,
            instructions_fingerprint: nil, tools_fingerprint: nil,
            cache_write_tokens: record.cacheWriteTokens ?? -1, response_id: nil, response_model: nil,
            server_address: nil, server_port: record.serverPort ?? -1,
            streamed: record.streamed.map { $0 ? 1 : 0 } ?? -1, max_tokens: record.maxTokens ?? -1,
            temperature: record.temperature ?? -1,
            server_queue_dur: record.serverQueueDuration ?? -1, client_first_byte: client?.firstByte ?? -1,
            client_dns: client?.nameResolved ?? -1, client_connect: client?.connected ?? -1,
            client_tls: client?.tlsDone ?? -1, client_sent: client?.requestSent ?? -1)
        let capacity =
            CTextBuffer.size(record.profile) + CTextBuffer.size(record.provider)
            + CTextBuffer.size(record.model) + CTextBuffer.size(record.finishReason)
            + CTextBuffer.size(record.error) + CTextBuffer.size(record.instructionsFingerprint)
            + CTextBuffer.size(record.toolsFingerprint) + CTextBuffer.size(record.responseID)
            + CTextBuffer.size(record.responseModel) + CTextBuffer.size(record.serverAddress)
        CTextBuffer.with(capacity: capacity) { texts in
            fields.profile = texts.append(record.profile)
            fields.provider = texts.append(record.provider)
            fields.model = texts.append(record.model)
            fields.finish_reason = texts.append(record.finishReason)
            fields.error = texts.append(record.error)
            fields.instructions_fingerprint = texts.append(record.instructionsFingerprint)
            fields.tools_fingerprint = texts.append(record.toolsFingerprint)
            fields.response_id = texts.append(record.responseID)
            fields.response_model = texts.append(record.responseModel)
            fields.server_address = texts.append(record.serverAddress)
            st_emit_request(&fields)
        }
    }

    private static func emit(_ record: inout ToolCallRecord) {
        var fields = st_tool_call_fields(
            tool_call_id: record.toolCallID, request_id: record.requestID ?? -1, session_id: record.sessionID ?? -1,
            ts: record.ts, dur: record.dur, name: nil, call_id: nil, arguments_fingerprint: nil,
            arguments_bytes: record.argumentsBytes, arguments_sketch: nil, arguments_sketch_length: 0,
            output_bytes: record.outputBytes, outcome: nil, error: nil, output_fingerprint: nil, output_sketch: nil,
            output_sketch_length: 0)
        let capacity =
            CTextBuffer.size(record.name) + CTextBuffer.size(record.callID)
            + CTextBuffer.size(record.argumentsFingerprint) + CTextBuffer.size(record.outcome.rawValue)
            + CTextBuffer.size(record.error) + CTextBuffer.size(record.outputFingerprint)
        CTextBuffer.with(capacity: capacity) { texts in
            fields.name = texts.append(record.name)
            fields.call_id = texts.append(record.callID)
            fields.arguments_fingerprint = texts.append(record.argumentsFingerprint)
            fields.outcome = texts.append(record.outcome.rawValue)
            fields.error = texts.append(record.error)
            fields.output_fingerprint = texts.append(record.outputFingerprint)
            withSketch(record.argumentsSketch) { arguments in
                fields.arguments_sketch = arguments.baseAddress
                fields.arguments_sketch_length = UInt32(arguments.count)
                withSketch(record.outputSketch) { output in
                    fields.output_sketch = output.baseAddress
                    fields.output_sketch_length = UInt32(output.count)
                    st_emit_tool_call(&fields)
                }
            }
        }
    }

    @inline(__always)
    private static func withSketch(_ sketch: [UInt32]?, _ body: (UnsafeBufferPointer<UInt32>) -> Void) {
        switch sketch {
        case .some(let values): values.withUnsafeBufferPointer(body)
        case .none: body(UnsafeBufferPointer(start: nil, count: 0))
        }
    }

    /// An absent text is written as "", which the reader reads as absent again.
    @inline(__always)
    private static func withCText<Result>(_ text: String?, _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        switch text {
        case .some(let text): withCText(text, body)
        case .none: body(cLiteral(""))
        }
    }

    /// Calls `body` with `text` as a C string. A native Swift string is NUL-terminated where it is
    /// stored, so this copies nothing; only text holding a NUL, which would end the C string (and
    /// the field) early, is copied once with each NUL written as a space.
    @inline(__always)
    private static func withCText<Result>(_ text: String, _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        text.withCString { pointer in
            let bytes = UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self)
            return !containsNUL(UnsafeBufferPointer(start: bytes, count: text.utf8.count))
                ? body(pointer)
                : String(decoding: text.utf8.map(nulAsSpace), as: UTF8.self).withCString(body)
        }
    }

    private static func emit(_ h: HandoffRecord) {
        withCText(h.kind.rawValue) { kind in
            withCText(h.from) { from in
                withCText(h.to) { to in
                    st_emit_handoff(h.handoffID, h.sessionID ?? -1, h.ts, kind, from, to)
                }
            }
        }
    }

    private static func emit(_ record: inout IntervalRecord) {
        withCText(record.name) { name in
            withMetadataJSON(record.metadata) { metadata in
                withCText(record.error) { error in
                    st_emit_interval(
                        record.intervalID, record.parentID ?? -1, record.sessionID ?? -1, record.ts, record.dur, name,
                        metadata, error)
                }
            }
        }
    }

    /// Inlined into ``record(_:)``: as a call of its own it cost about 5 ns an instant
    /// (`trace-bench --only lttng`, ten runs alternating with a build without it: 1.24× raw C
    /// against 1.30×, medians).
    @inline(__always)
    private static func emit(_ record: inout InstantRecord) {
        withCText(record.name) { name in
            withMetadataJSON(record.metadata) { metadata in
                st_emit_instant(record.instantID, record.parentID ?? -1, record.ts, name, metadata)
            }
        }
    }

    private static func emit(_ p: PayloadRecord) {
        withCText(p.kind.rawValue) { kind in
            withCText(p.text) { text in
                st_emit_payload(p.payloadID, p.parentID ?? -1, p.ts, kind, text)
            }
        }
    }

    private static func emit(_ d: DroppedRecord) {
        withCText(d.sinkName) { sink in
            withCText(d.reason.rawValue) { reason in
                st_emit_dropped(d.ts, sink, reason, d.count)
            }
        }
    }

    /// Calls `body` with the metadata as a JSON C string; the common empty case is a literal in the
    /// binary, so it costs no allocation and no check.
    @inline(__always)
    private static func withMetadataJSON<Result>(
        _ metadata: TraceMetadata, _ body: (UnsafePointer<CChar>) -> Result
    ) -> Result {
        metadata.isEmpty ? body(cLiteral("{}")) : withCText(metadata.jsonObject, body)
    }
}
