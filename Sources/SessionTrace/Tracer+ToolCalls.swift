import Synchronization

extension Tracer {
    /// Runs `body` as one tool call named `name`, the scoped call for code that runs tools itself.
    ///
    /// The call is recorded as a ``ToolCallRecord`` when `body` returns (outcome `ok`) or throws
    /// (outcome `error`, with the error's description); the error is rethrown unchanged. It nests
    /// under the request and session of the task's context unless `requestID` or `sessionID` say
    /// otherwise, and what `body` records takes the call as its parent. `body` gets the call, to
    /// say what the tool returned with ``ToolCallHandle/setOutput(bytes:fingerprint:sketch:)``.
    ///
    /// ```swift
    /// let forecast = try await tracer.withToolCall(
    ///     "weather", argumentsFingerprint: fingerprint, argumentsBytes: Int64(arguments.utf8.count)
    /// ) { call in
    ///     let forecast = try await weather.fetch(city)
    ///     call.setOutput(bytes: Int64(forecast.utf8.count))
    ///     return forecast
    /// }
    /// ```
    public func withToolCall<T>(
        _ name: String, callID: String? = nil, requestID: Int64? = nil, sessionID: Int64? = nil,
        argumentsFingerprint: String, argumentsBytes: Int64, argumentsSketch: [UInt32]? = nil,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (ToolCallHandle) async throws -> T
    ) async rethrows -> T {
        guard isEnabled(.toolCall) else { return try await body(ToolCallHandle(disabled: self)) }
        let enclosing = currentContext
        let record = ToolCallRecord(
            toolCallID: makeID(), requestID: requestID ?? enclosing.requestID,
            sessionID: sessionID ?? enclosing.sessionID, ts: now(), dur: 0, name: name, callID: callID,
            argumentsFingerprint: argumentsFingerprint, argumentsBytes: argumentsBytes,
            argumentsSketch: argumentsSketch, outputBytes: 0)
        let call = ToolCallHandle(tracer: self, record: record, enclosing: enclosing)
        do {
            let result = try await TraceContext.$current.withValue(call.context) { try await body(call) }
            call.end()
            return result
        } catch {
            call.end(error: error)
            throw error
        }
    }
}

/// An open tool call, given to the body of ``Tracer/withToolCall(_:callID:requestID:sessionID:argumentsFingerprint:argumentsBytes:argumentsSketch:isolation:_:)``.
/// Safe to use from several tasks; what is set after the call ended is not recorded.
public final class ToolCallHandle: Sendable {
    /// The call's id, the parent of what is recorded inside it (its payloads, nested intervals).
    public let id: Int64
    /// The context for work that nests under the call; the body already runs in it.
    public let context: TraceContext
    private let tracer: Tracer
    private let state: Mutex<(record: ToolCallRecord, ended: Bool)?>

    init(tracer: Tracer, record: ToolCallRecord, enclosing: TraceContext) {
        self.tracer = tracer
        self.id = record.toolCallID
        var context = enclosing
        context.parentID = record.toolCallID
        self.context = context
        self.state = Mutex((record, false))
    }

    /// A handle that records nothing, for a body run while tool calls are disabled.
    init(disabled tracer: Tracer) {
        self.tracer = tracer
        self.id = 0
        self.context = tracer.currentContext
        self.state = Mutex(nil)
    }

    /// What the tool returned: its size in bytes, and, for the repeated-call and polling analyses,
    /// its fingerprint and similarity sketch. Never the text itself.
    public func setOutput(bytes: Int64, fingerprint: String? = nil, sketch: [UInt32]? = nil) {
        state.withLock { state in
            guard state?.ended == false else { return }
            state?.record.outputBytes = bytes
            state?.record.outputFingerprint = fingerprint
            state?.record.outputSketch = sketch
        }
    }

    /// Ends the call and records it, failed with `error` if given. Only the first call records.
    func end(error: (any Error)? = nil) {
        let end = tracer.now()
        guard var record = state.withLock({ state -> ToolCallRecord? in
            guard let current = state, !current.ended else { return nil }
            state?.ended = true
            return current.record
        }) else { return }
        record.dur = end - record.ts
        if let error {
            record.outcome = .error
            record.error = String(describing: error)
        }
        tracer.record(.toolCall(record), kind: .toolCall)
    }
}
