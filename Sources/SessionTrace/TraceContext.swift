/// Where the current task is in the trace: the tracer recording it, its session, request and
/// innermost interval.
///
/// Travels as a task-local, so nested intervals find their parent without ids passed by hand, and
/// child tasks inherit it. The ids belong to ``tracer``: a tracer takes them as parents only when
/// it set them itself (or when they were set by hand, with no tracer), so one tracer never points
/// at an interval that only another tracer's sink has seen.
public struct TraceContext: Sendable, Hashable {
    /// The tracer that opened the innermost scope, whose ids these are; nil at the top of a trace.
    /// ``Tracer/current`` is this tracer when there is one.
    public var tracer: Tracer?
    /// The session the current task records into, if any.
    public var sessionID: Int64?
    /// The model request in progress, if any: a tool call made for it nests under it.
    public var requestID: Int64?
    /// The innermost open interval, request or tool call.
    public var parentID: Int64?

    /// A context with the given ids; every id is nil by default (the top of a trace).
    public init(tracer: Tracer? = nil, sessionID: Int64? = nil, requestID: Int64? = nil, parentID: Int64? = nil) {
        self.tracer = tracer
        self.sessionID = sessionID
        self.requestID = requestID
        self.parentID = parentID
    }

    /// The current task's context. Tracers set it for the body of an interval, session or
    /// request; child tasks inherit it.
    @TaskLocal public static var current = TraceContext()

    /// Whether two contexts name the same tracer (by identity) and the same ids.
    public static func == (lhs: TraceContext, rhs: TraceContext) -> Bool {
        lhs.tracer === rhs.tracer && lhs.sessionID == rhs.sessionID && lhs.requestID == rhs.requestID
            && lhs.parentID == rhs.parentID
    }

    /// Hashes the tracer's identity and the ids.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(tracer.map(ObjectIdentifier.init))
        hasher.combine(sessionID)
        hasher.combine(requestID)
        hasher.combine(parentID)
    }
}

extension Tracer {
    /// The current task's context as this tracer reads it: ``TraceContext/current`` when this
    /// tracer set it (or nobody did), the top of a trace when another tracer did. Its ``TraceContext/tracer``
    /// is always this tracer, so a scope opened with it hands the context on.
    public var currentContext: TraceContext {
        var context = TraceContext.current
        guard context.tracer == nil || context.tracer === self else { return TraceContext(tracer: self) }
        context.tracer = self
        return context
    }

    /// The tracer a library should record with: the tracer of the innermost scope the current task
    /// is in (``TraceContext/tracer``), else the process-wide default of ``TracingSystem``.
    ///
    /// ```swift
    /// // In a library: records into the application's tracer, with the application's interval as parent.
    /// try await Tracer.current.withInterval("ParseFeed") { interval in
    ///     interval.metadata["items"] = .int(Int64(items.count))
    /// }
    /// ```
    public static var current: Tracer { TraceContext.current.tracer ?? TracingSystem.tracer }
}
