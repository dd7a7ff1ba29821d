import Synchronization

extension Tracer {
    /// Runs `body` inside an interval named `name`; the scoped call most code should use.
    ///
    /// The interval ends when `body` returns or throws; a thrown error is recorded, then rethrown
    /// unchanged. `body` gets the interval, to add what it found to its metadata; intervals,
    /// requests and tool calls opened inside `body` take this one as their parent.
    ///
    /// ```swift
    /// let plan = try tracer.withInterval("PlanDay", metadata: ["requestLength": 42]) { interval in
    ///     let plan = try planner.plan()
    ///     interval.metadata["steps"] = .int(Int64(plan.steps.count))
    ///     return plan
    /// }
    /// ```
    public func withInterval<T>(
        _ name: String, metadata: @autoclosure () -> TraceMetadata = [:],
        _ body: (IntervalHandle) throws -> T
    ) rethrows -> T {
        guard isEnabled(.interval) else { return try body(IntervalHandle(disabled: self)) }
        let interval = beginInterval(name, metadata: metadata())
        do {
            let result = try TraceContext.$current.withValue(interval.context) { try body(interval) }
            interval.end()
            return result
        } catch {
            interval.end(error: error)
            throw error
        }
    }

    /// Runs async `body` inside an interval named `name`; see the synchronous variant.
    public func withInterval<T>(
        _ name: String, metadata: @autoclosure () -> TraceMetadata = [:],
        isolation: isolated (any Actor)? = #isolation,
        _ body: (IntervalHandle) async throws -> T
    ) async rethrows -> T {
        guard isEnabled(.interval) else { return try await body(IntervalHandle(disabled: self)) }
        let interval = beginInterval(name, metadata: metadata())
        do {
            let result = try await TraceContext.$current.withValue(interval.context) {
                try await body(interval)
            }
            interval.end()
            return result
        } catch {
            interval.end(error: error)
            throw error
        }
    }

    /// Begins an interval that ends elsewhere, for intervals that cross callbacks.
    ///
    /// The returned handle must `end()`; an interval never ended is never recorded. Work that
    /// should nest under it runs in its ``IntervalHandle/context``.
    public func beginInterval(_ name: String, metadata: TraceMetadata = [:]) -> IntervalHandle {
        let context = currentContext
        return IntervalHandle(
            tracer: self, id: makeID(), enclosing: context, name: name, metadata: metadata, start: now(),
            recording: true)
    }

    /// Runs `body` as one model session: records a ``SessionRecord`` when it ends, and puts the
    /// session in the task-local context so requests inside it know their session.
    ///
    /// `body` gets the session: its id and context, and its label, which the body may change once
    /// it knows a better one. The session ends when `body` returns or throws; a thrown error is
    /// rethrown unchanged.
    ///
    /// ```swift
    /// try await tracer.withSession("planner") { session in
    ///     let plan = try await planner.plan(for: user)
    ///     session.label = "planner \(plan.mode)"
    /// }
    /// ```
    public func withSession<T>(
        _ label: String, isolation: isolated (any Actor)? = #isolation,
        _ body: (SessionHandle) async throws -> T
    ) async rethrows -> T {
        let session = SessionHandle(
            tracer: self, id: makeID(), enclosing: currentContext, label: label, start: now())
        defer { session.end() }
        return try await TraceContext.$current.withValue(session.context) { try await body(session) }
    }
}

/// An open session, given to the body of ``Tracer/withSession(_:isolation:_:)``, which records it
/// when the body ends. Safe to use from several tasks; a change after the session ended is not recorded.
public final class SessionHandle: Sendable {
    /// The session's id: requests, tool calls and intervals inside it point at it.
    public let id: Int64
    /// When the session began, in nanoseconds on the tracer's clock.
    public let start: Int64
    /// The context the body runs in: its ``TraceContext/sessionID`` is ``id``.
    public let context: TraceContext
    private let tracer: Tracer
    private let state: Mutex<(label: String, ended: Bool)>

    init(tracer: Tracer, id: Int64, enclosing: TraceContext, label: String, start: Int64) {
        self.tracer = tracer
        self.id = id
        self.start = start
        var context = enclosing
        context.sessionID = id
        context.parentID = id
        self.context = context
        self.state = Mutex((label, false))
    }

    /// The session's label: the one it began with, until the body sets another. Recorded as
    /// ``SessionRecord/label`` when the session ends.
    public var label: String {
        get { state.withLock { $0.label } }
        set { state.withLock { if !$0.ended { $0.label = newValue } } }
    }

    /// Records the session, once, with the label it has now.
    func end() {
        let end = tracer.now()
        guard let label = state.withLock({ state -> String? in
            if state.ended { return nil }
            state.ended = true
            return state.label
        }) else { return }
        tracer.record(.session(SessionRecord(sessionID: id, ts: start, dur: end - start, label: label)), kind: .session)
    }
}

/// An open interval: given to the body of ``Tracer/withInterval(_:metadata:_:)``, or returned by
/// ``Tracer/beginInterval(_:metadata:)``, which must `end()` it.
///
/// The body adds what it found to ``metadata`` (item counts, whether a cache was used); the
/// interval is recorded with the metadata it has when it ends. Safe to use from several tasks.
public final class IntervalHandle: Sendable {
    /// The tracer that began the interval and records it when it ends.
    public let tracer: Tracer
    /// The interval's id, the parent of what is recorded inside it.
    public let id: Int64
    /// The innermost interval, request or tool call open when it began, if any.
    public let parentID: Int64?
    /// The session it belongs to, if it began inside one.
    public let sessionID: Int64?
    /// The interval's name, as given when it began.
    public let name: String
    /// When it began, in nanoseconds on the tracer's clock.
    public let start: Int64
    /// Whether ending it records it: false when the tracer's sink has intervals disabled.
    public let isRecording: Bool

    /// The context for work that nests under this interval: ``Tracer/withInterval(_:metadata:_:)``
    /// runs its body in it; after ``Tracer/beginInterval(_:metadata:)``, run nested work in
    /// `TraceContext.$current.withValue(interval.context) { … }`.
    public let context: TraceContext
    private let state: Mutex<State>

    private struct State {
        var metadata: TraceMetadata
        var ended = false
    }

    /// A handle for an interval that began at `start` inside `enclosing`.
    init(
        tracer: Tracer, id: Int64, enclosing: TraceContext, name: String, metadata: TraceMetadata, start: Int64,
        recording: Bool
    ) {
        self.tracer = tracer
        self.id = id
        self.parentID = enclosing.parentID
        self.sessionID = enclosing.sessionID
        var context = enclosing
        context.parentID = recording ? id : enclosing.parentID
        self.context = context
        self.name = name
        self.start = start
        self.isRecording = recording
        self.state = Mutex(State(metadata: metadata))
    }

    /// A handle that records nothing, for a body run while intervals are disabled.
    convenience init(disabled tracer: Tracer) {
        self.init(
            tracer: tracer, id: 0, enclosing: tracer.contextLocal.get(), name: "", metadata: [:], start: 0,
            recording: false)
    }

    /// The interval's metadata: what it began with and what was added since. Low-cardinality
    /// values only (counts, flags, modes), never user text: `interval.metadata["cacheHit"] = true`.
    /// Changes after the interval ended are not recorded.
    public var metadata: TraceMetadata {
        get { state.withLock { $0.metadata } }
        set { state.withLock { $0.metadata = newValue } }
    }

    /// Ends the interval and records it, with `error` if one ended it. Only the first call
    /// records; later calls do nothing.
    public func end(error: (any Error)? = nil) {
        guard isRecording else { return }
        let end = tracer.now()
        guard let metadata = state.withLock({ state -> TraceMetadata? in
            if state.ended { return nil }
            state.ended = true
            return state.metadata
        }) else { return }
        tracer.record(
            .interval(
                IntervalRecord(
                    intervalID: id, parentID: parentID, sessionID: sessionID, ts: start, dur: end - start,
                    name: name, metadata: metadata, error: error.map { String(describing: $0) })),
            kind: .interval)
    }
}
