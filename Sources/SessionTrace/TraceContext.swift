/// Where the current task is in the trace: the tracer recording it, its session, request and
/// innermost interval.
///
/// Travels as a task-local, so nested intervals find their parent without ids passed by hand, and
/// child tasks inherit it. The ids belong to ``tracer``: a tracer takes them as parents only when
/// it set them itself (or when they were set by hand, with no tracer), so one tracer never points
/// at an interval that only another tracer's sink has seen.
///
/// A context names its tracer by a number, not by reference: every event reads the context from
/// the task-local as a copy, and copying a reference would retain and release the tracer each time,
/// two atomic operations on one counter that every thread shares. So a context does not keep its
/// tracer alive: once the tracer is freed, ``tracer`` is nil and ``Tracer/current`` is the default.
public struct TraceContext: Sendable, Hashable {
    /// The tracer that opened the innermost scope, whose ids these are; nil at the top of a trace,
    /// and once that tracer is gone. ``Tracer/current`` is this tracer when there is one.
    public var tracer: Tracer? { Tracer.living(number: tracerNumber) }
    /// The number of ``tracer`` (a number no other tracer of this process had), 0 for none.
    var tracerNumber: UInt64
    /// The session the current task records into, if any.
    public internal(set) var sessionID: Int64?
    /// The model request in progress, if any: a tool call made for it nests under it.
    public internal(set) var requestID: Int64?
    /// The innermost open interval, request or tool call.
    public internal(set) var parentID: Int64?

    /// A context with the given ids, set by hand; every id is nil by default (the top of a trace).
    ///
    /// The ids are read-only once made: tracers set them for the scopes they open. Set them by hand
    /// only to carry a parent that was made elsewhere, such as a server's incoming span
    /// (see <doc:BridgeDistributedTracing>). The context names `tracer` but does not keep it alive.
    public init(tracer: Tracer? = nil, sessionID: Int64? = nil, requestID: Int64? = nil, parentID: Int64? = nil) {
        self.tracerNumber = tracer?.number ?? 0
        self.sessionID = sessionID
        self.requestID = requestID
        self.parentID = parentID
    }

    /// The context of a span made elsewhere, read from a W3C `traceparent` header
    /// (`00-<trace-id>-<parent-id>-<flags>`): its 16 hex-digit parent id, as the 64 bits of an
    /// `Int64`, becomes ``parentID``; nil when the header is not a valid version-00 `traceparent`.
    ///
    /// The bridge from swift-distributed-tracing: a server injects its span's `ServiceContext` into
    /// a `traceparent`, and what it records inside this context takes that span as its parent.
    /// The trace id is not kept. See <doc:BridgeDistributedTracing>.
    ///
    /// ```swift
    /// let parent = TraceContext(traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
    /// // parent?.parentID == 0x00f0_67aa_0ba9_02b7
    /// ```
    public init?(traceparent: String) {
        let fields = traceparent.split(separator: "-", omittingEmptySubsequences: false)
        let isLowerHex: (UInt8) -> Bool = { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        guard fields.count == 4, fields[0] == "00",
            zip(fields, [2, 32, 16, 2]).allSatisfy({ $0.utf8.count == $1 && $0.utf8.allSatisfy(isLowerHex) }),
            fields[1].contains(where: { $0 != "0" }),
            let spanID = UInt64(fields[2], radix: 16), spanID != 0
        else { return nil }
        self.init(parentID: Int64(bitPattern: spanID))
    }

    /// This context, in session `sessionID`: what a recorder that owns its session runs a request in.
    package func inSession(_ sessionID: Int64) -> TraceContext {
        var context = self
        context.sessionID = sessionID
        return context
    }

    /// The current task's context. Tracers set it for the body of an interval, session or
    /// request; child tasks inherit it.
    @TaskLocal public static var current = TraceContext()
}

extension Tracer {
    /// The current task's context as this tracer reads it: ``TraceContext/current`` when this
    /// tracer set it (or nobody did), the top of a trace when another tracer did. Its ``TraceContext/tracer``
    /// is always this tracer, so a scope opened with it hands the context on.
    public var currentContext: TraceContext {
        var context = contextLocal.get()
        guard reads(context) else { return TraceContext(tracer: self) }
        context.tracerNumber = number
        return context
    }

    /// ``currentContext``'s parent, without building the context: the innermost scope's id when
    /// this tracer (or nobody) set it, none when another tracer did.
    @inline(__always)
    var currentParentID: Int64? {
        let context = contextLocal.get()
        return reads(context) ? context.parentID : nil
    }

    /// Whether this tracer reads `context` as its own: it set it, or no tracer did.
    @inline(__always)
    private func reads(_ context: TraceContext) -> Bool {
        context.tracerNumber == 0 || context.tracerNumber == number
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
