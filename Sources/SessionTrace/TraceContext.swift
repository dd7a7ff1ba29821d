/// Where the current task is in the trace: its session, request and innermost interval.
///
/// Travels as a task-local, so nested intervals find their parent without ids passed by hand.
public struct TraceContext: Sendable, Hashable {
    /// The session the current task records into, if any.
    public var sessionID: Int64?
    /// The model request in progress, if any: a tool call made for it nests under it.
    public var requestID: Int64?
    /// The innermost open interval, request or tool call.
    public var parentID: Int64?

    /// A context with the given ids; every id is nil by default (the top of a trace).
    public init(sessionID: Int64? = nil, requestID: Int64? = nil, parentID: Int64? = nil) {
        self.sessionID = sessionID
        self.requestID = requestID
        self.parentID = parentID
    }

    /// The current task's context. Tracers set it for the body of an interval, session or
    /// request; child tasks inherit it.
    @TaskLocal public static var current = TraceContext()
}
