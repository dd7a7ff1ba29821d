extension Tracer {
    /// Runs `body` inside an interval named `name`; the scoped call most code should use.
    ///
    /// The interval ends when `body` returns or throws; a thrown error is recorded, then rethrown.
    /// Intervals opened inside `body` take this one as their parent.
    ///
    /// ```swift
    /// let plan = try tracer.withInterval("PlanDay", metadata: ["requestLength": 42]) {
    ///     try planner.plan()
    /// }
    /// ```
    public func withInterval<T>(
        _ name: String, metadata: @autoclosure () -> TraceMetadata = [:],
        _ body: () throws -> T
    ) rethrows -> T {
        guard sink.isEnabled(.interval) else { return try body() }
        let interval = beginInterval(name, metadata: metadata())
        var context = TraceContext.current
        context.parentID = interval.id
        do {
            let result = try TraceContext.$current.withValue(context) { try body() }
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
        _ body: () async throws -> T
    ) async rethrows -> T {
        guard sink.isEnabled(.interval) else { return try await body() }
        let interval = beginInterval(name, metadata: metadata())
        var context = TraceContext.current
        context.parentID = interval.id
        do {
            let result = try await TraceContext.$current.withValue(context) { try await body() }
            interval.end()
            return result
        } catch {
            interval.end(error: error)
            throw error
        }
    }

    /// Begins an interval that ends elsewhere, for intervals that cross callbacks.
    ///
    /// The returned handle must `end()`; an interval never ended is never recorded.
    public func beginInterval(_ name: String, metadata: TraceMetadata = [:]) -> IntervalHandle {
        let context = TraceContext.current
        return IntervalHandle(
            tracer: self, id: makeID(), parentID: context.parentID, sessionID: context.sessionID,
            name: name, metadata: metadata, start: clock.now())
    }

    /// Runs `body` as one model session: records a ``SessionRecord`` when it ends, and puts the
    /// session in the task-local context so requests inside it know their session.
    public func withSession<T>(
        _ label: String, isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> T
    ) async rethrows -> T {
        let id = makeID()
        let start = clock.now()
        var context = TraceContext.current
        context.sessionID = id
        context.parentID = id
        defer {
            if sink.isEnabled(.session) {
                sink.record(.session(SessionRecord(sessionID: id, ts: start, dur: clock.now() - start, label: label)))
            }
        }
        return try await TraceContext.$current.withValue(context) { try await body() }
    }
}

/// An interval begun with ``Tracer/beginInterval(_:metadata:)``; it must `end()`.
public struct IntervalHandle: Sendable {
    /// The tracer that began the interval and records it when it ends.
    public let tracer: Tracer
    /// The interval's id, the parent of what is recorded inside it.
    public let id: Int64
    /// The innermost interval, request or tool call open when it began, if any.
    public let parentID: Int64?
    /// The session it belongs to, if it began inside one.
    public let sessionID: Int64?
    /// The interval's name, as given to ``Tracer/beginInterval(_:metadata:)``.
    public let name: String
    /// The metadata given when it began.
    public let metadata: TraceMetadata
    /// When it began, in nanoseconds on the tracer's clock.
    public let start: Int64

    /// Ends the interval and records it, with `error` if one ended it.
    public func end(error: (any Error)? = nil) {
        let end = tracer.clock.now()
        tracer.record(
            .interval(
                IntervalRecord(
                    intervalID: id, parentID: parentID, sessionID: sessionID, ts: start, dur: end - start,
                    name: name, metadata: metadata, error: error.map { String(describing: $0) })),
            kind: .interval)
    }
}
