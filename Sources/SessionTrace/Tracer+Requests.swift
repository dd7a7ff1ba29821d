import Synchronization

extension Tracer {
    /// Runs `body` as one model request and records it as a ``RequestRecord``: the way to trace
    /// any model client, ours or not.
    ///
    /// The request starts now. `body` calls ``RequestHandle/firstToken()`` when the first output
    /// arrives (time to first token) and ``RequestHandle/finish(usage:finishReason:)`` when the
    /// response is complete (total time, tokens, finish reason). If `body` returns without
    /// finishing, the request ends when `body` returns; if it throws, the error is recorded with
    /// the request and rethrown unchanged. Intervals and tool calls inside `body` nest under the
    /// request, and the request under the current interval and session.
    ///
    /// ```swift
    /// let answer = try await tracer.withRequest(provider: "openai", model: "gpt-4o-mini") { request in
    ///     for try await chunk in client.stream(prompt) {
    ///         request.firstToken()
    ///         text += chunk.text
    ///     }
    ///     request.finish(usage: RequestUsage(inputTokens: 812, outputTokens: 64), finishReason: "stop")
    ///     return text
    /// }
    /// ```
    public func withRequest<T>(
        provider: String, model: String, profile: String = "",
        isolation: isolated (any Actor)? = #isolation,
        _ body: (RequestHandle) async throws -> T
    ) async rethrows -> T {
        let request = beginRequest(provider: provider, model: model, profile: profile)
        do {
            let result = try await TraceContext.$current.withValue(request.context) { try await body(request) }
            request.finish()
            return result
        } catch {
            request.finish(throwing: error)
            throw error
        }
    }

    /// Begins a request that ends elsewhere, for a response stream handed back to the caller.
    ///
    /// The handle must finish, with ``RequestHandle/finish(usage:finishReason:)`` or
    /// ``RequestHandle/finish(throwing:)``; a request never finished is never recorded. Work that
    /// should nest under it runs in its ``RequestHandle/context``. Prefer
    /// ``withRequest(provider:model:profile:isolation:_:)``, which cannot forget to finish.
    public func beginRequest(provider: String, model: String, profile: String = "") -> RequestHandle {
        let context = currentContext
        let start = now()
        guard isEnabled(.request) else { return RequestHandle(disabled: self, enclosing: context) }
        return RequestHandle(
            tracer: self,
            record: RequestRecord(
                requestID: makeID(), sessionID: context.sessionID, parentID: context.parentID, ts: start, dur: 0,
                profile: profile, provider: provider, model: model),
            enclosing: context)
    }
}

/// A model request in progress: given to the body of
/// ``Tracer/withRequest(provider:model:profile:isolation:_:)``, or returned by
/// ``Tracer/beginRequest(provider:model:profile:)``.
///
/// Every method is cheap, never throws and never waits on a sink; calls after the request
/// finished change nothing. Safe to use from several tasks.
public final class RequestHandle: Sendable {
    /// The tracer that records the request when it finishes.
    public let tracer: Tracer
    /// The request's id, the parent of tool calls and intervals inside it; 0 when ``isRecording`` is false.
    public let id: Int64
    /// When the request began, in nanoseconds on the tracer's clock.
    public let start: Int64
    /// Whether finishing records it: false when the tracer's sink has requests disabled.
    public let isRecording: Bool
    /// The context for work that nests under this request, such as tool calls it asks for.
    /// ``Tracer/withRequest(provider:model:profile:isolation:_:)`` runs its body in it.
    public let context: TraceContext
    private let state: Mutex<State>

    private struct State {
        var record: RequestRecord
        var finished = false
    }

    init(tracer: Tracer, record: RequestRecord, enclosing: TraceContext) {
        self.tracer = tracer
        self.id = record.requestID
        self.start = record.ts
        self.isRecording = true
        var context = enclosing
        context.requestID = record.requestID
        context.parentID = record.requestID
        self.context = context
        self.state = Mutex(State(record: record))
    }

    /// A handle that records nothing, for a request made while requests are disabled.
    init(disabled tracer: Tracer, enclosing: TraceContext) {
        self.tracer = tracer
        self.id = 0
        self.start = 0
        self.isRecording = false
        self.context = enclosing
        self.state = Mutex(State(record: RequestRecord(requestID: 0, ts: 0, dur: 0), finished: true))
    }

    /// Marks the arrival of the first output (a content delta, or the start of a tool call), measured
    /// at the client: the request's time to first token. Only the first call counts, so it may be
    /// called for every chunk.
    public func firstToken() {
        guard isRecording else { return }
        firstToken(at: tracer.now())
    }

    /// Marks the first output as arrived at `timestamp`, monotonic nanoseconds on the tracer's
    /// clock, for a caller that learns of it after the fact (a proxy reads a stream's bytes only
    /// after it has passed them on). A time before the request's start counts as its start.
    public func firstToken(at timestamp: Int64) {
        guard isRecording else { return }
        state.withLock { state in
            guard !state.finished, state.record.timeToFirstToken == nil else { return }
            state.record.timeToFirstToken = max(0, timestamp - state.record.ts)
        }
    }

    /// Sets the token counts the server reported so far; counts left nil keep what was set before.
    /// Call it as usage arrives, so a request that fails afterwards still has it.
    public func setUsage(_ usage: RequestUsage) {
        change { $0.merge(usage) }
    }

    /// Sets what the request sends: its size in bytes, its transcript entries, and how many of them
    /// repeat the previous request's prefix (what a prompt cache can reuse).
    public func setPrompt(bytes: Int64, transcriptEntries: Int64, reusedPrefixEntries: Int64 = 0) {
        change { record in
            record.promptBytes = bytes
            record.transcriptEntries = transcriptEntries
            record.reusedPrefixEntries = reusedPrefixEntries
        }
    }

    /// Sets the user turn the request belongs to and the fingerprints of its instructions and tool
    /// definitions, from which a cache break is told.
    public func setTurn(_ turnID: Int64?, instructionsFingerprint: String?, toolsFingerprint: String?) {
        change { record in
            record.turnID = turnID
            record.instructionsFingerprint = instructionsFingerprint
            record.toolsFingerprint = toolsFingerprint
        }
    }

    /// Sets the generation options the request asked for: its output cap (`gen_ai.request.max_tokens`)
    /// and temperature (`gen_ai.request.temperature`).
    public func setOptions(maxTokens: Int64?, temperature: Double?) {
        change { record in
            record.maxTokens = maxTokens
            record.temperature = temperature
        }
    }

    /// Sets what the server said of its response: its id (`gen_ai.response.id`) and the model that
    /// answered (`gen_ai.response.model`), which may differ from the one asked for.
    public func setResponse(id: String?, model: String?) {
        change { record in
            record.responseID = id
            record.responseModel = model
        }
    }

    /// Sets the server the request went to (`server.address`, `server.port`).
    ///
    /// ```swift
    /// request.setServer(address: "127.0.0.1", port: 8080)
    /// ```
    public func setServer(address: String?, port: Int64?) {
        change { record in
            record.serverAddress = address
            record.serverPort = port
        }
    }

    /// Sets whether the response was streamed.
    public func setStreamed(_ streamed: Bool) {
        change { $0.streamed = streamed }
    }

    /// Sets the timings the server reported about its own work.
    public func setServerTimings(_ timings: ServerTimings) {
        change { $0.serverTimings = timings }
    }

    /// Sets how long the request waited in the server's queue, in nanoseconds, as the server reported it.
    public func setServerQueue(_ duration: Int64) {
        change { $0.serverQueueDuration = duration }
    }

    /// Sets the client's phases of the wait, each in nanoseconds from the request's start (``start``).
    public func setClientPhases(_ phases: ClientPhases) {
        change { $0.clientPhases = phases }
    }

    /// Sets why generation stopped (`stop`, `length`, `tool_calls`, ...), as the server said it, for
    /// a client that learns it before the request finishes.
    public func setFinishReason(_ finishReason: String) {
        change { $0.finishReason = finishReason }
    }

    /// Applies `change` to the record while the request is open. Only this file's setters call it,
    /// none of which touches the ids or the times.
    private func change(_ change: (inout RequestRecord) -> Void) {
        guard isRecording else { return }
        state.withLock { state in
            guard !state.finished else { return }
            change(&state.record)
        }
    }

    /// Ends the request, which succeeded, and records it: now is its end; `usage` and
    /// `finishReason` (`stop`, `length`, `tool_calls`, ...) are as the server reported them. Counts
    /// left nil keep what ``setUsage(_:)`` set.
    public func finish(usage: RequestUsage? = nil, finishReason: String? = nil) {
        end { record in
            if let usage { record.merge(usage) }
            record.finishReason = finishReason ?? record.finishReason
        }
    }

    /// Ends the request, which failed with `error`, and records it with the error as
    /// `String(describing:)` gives it.
    public func finish(throwing error: any Error) {
        end { $0.error = String(describing: error) }
    }

    private func end(_ change: (inout RequestRecord) -> Void) {
        guard isRecording else { return }
        let now = tracer.now()
        guard let record = state.withLock({ state -> RequestRecord? in
            if state.finished { return nil }
            state.finished = true
            state.record.dur = now - state.record.ts
            change(&state.record)
            return state.record
        }) else { return }
        tracer.record(request: record)
    }
}
