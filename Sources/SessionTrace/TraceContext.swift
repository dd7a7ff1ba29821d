/// Where the current task is in the trace: its session, request and innermost interval.
///
/// Travels as a task-local, so nested intervals find their parent without ids passed by hand.
public struct TraceContext: Sendable, Hashable {
    public var sessionID: Int64?
    public var requestID: Int64?
    /// The innermost open interval, request or tool call.
    public var parentID: Int64?

    public init(sessionID: Int64? = nil, requestID: Int64? = nil, parentID: Int64? = nil) {
        self.sessionID = sessionID
        self.requestID = requestID
        self.parentID = parentID
    }

    @TaskLocal public static var current = TraceContext()
}
