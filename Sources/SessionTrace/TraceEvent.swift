/// One event of the SessionTrace vocabulary, as a sink receives it.
///
/// The same vocabulary is encoded three ways: LTTng-UST tracepoints (provider `session_trace`),
/// rows in the SQLite store, and objects in exports. See `docs/schema.md`.
public enum TraceEvent: Sendable, Hashable {
    case run(RunRecord)
    case session(SessionRecord)
    case request(RequestRecord)
    case toolCall(ToolCallRecord)
    case handoff(HandoffRecord)
    case interval(IntervalRecord)
    case instant(InstantRecord)
    case chunk(ChunkRecord)
    case payload(PayloadRecord)
    case dropped(DroppedRecord)

    /// The kind of the record this event carries, which sinks enable or disable.
    public var kind: TraceEventKind {
        switch self {
        case .run: .run
        case .session: .session
        case .request: .request
        case .toolCall: .toolCall
        case .handoff: .handoff
        case .interval: .interval
        case .instant: .instant
        case .chunk: .chunk
        case .payload: .payload
        case .dropped: .dropped
        }
    }
}

/// The kinds of ``TraceEvent``; sinks answer per kind whether they want it, so that a disabled
/// kind costs a check and nothing else.
public enum TraceEventKind: Int, Sendable, CaseIterable {
    case run, session, request, toolCall, handoff, interval, instant, chunk, payload, dropped

    /// The name used for the tracepoint, the table and the export object.
    public var name: String {
        switch self {
        case .run: "run"
        case .session: "session"
        case .request: "request"
        case .toolCall: "tool_call"
        case .handoff: "handoff"
        case .interval: "interval"
        case .instant: "instant"
        case .chunk: "chunk"
        case .payload: "payload"
        case .dropped: "dropped"
        }
    }
}
