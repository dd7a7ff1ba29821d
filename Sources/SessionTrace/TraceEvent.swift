/// One event of the SessionTrace vocabulary, as a sink receives it.
///
/// The same vocabulary is encoded three ways: LTTng-UST tracepoints (provider `session_trace`),
/// rows in the SQLite store, and objects in exports. See `docs/schema.md`.
///
/// The three big records (a request is 432 bytes) are boxed, so an event is no larger than its
/// small kinds: a chunk or an instant is not copied at a request's size on its way to the sinks,
/// nor held at that size in a store's queue.
public enum TraceEvent: Sendable, Hashable {
    /// A run began: the ``Tracer`` was created.
    indirect case run(RunRecord)
    /// A session ended, or grew by a request (a later record of the same id replaces it).
    case session(SessionRecord)
    /// A model request ended.
    indirect case request(RequestRecord)
    /// A tool call returned or threw.
    indirect case toolCall(ToolCallRecord)
    /// A session's profile, model, instructions or tool set changed.
    case handoff(HandoffRecord)
    /// An app-defined interval ended.
    case interval(IntervalRecord)
    /// An app-defined point in time.
    case instant(InstantRecord)
    /// A piece of streamed output arrived.
    case chunk(ChunkRecord)
    /// Redacted text was captured.
    case payload(PayloadRecord)
    /// A sink counted events it could not record.
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
    /// One kind per case of ``TraceEvent``, in the same order.
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
