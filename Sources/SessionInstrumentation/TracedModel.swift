import ModelSession
import SessionTrace

/// A language model whose every request is recorded: time to first token, total time, tokens,
/// the server's cache figures and timings, prompt size, transcript entries and prefix reuse.
///
/// Sessions get one through ``TracingMiddleware``; code with its own session type wraps its
/// model directly: `TracedModel(model, tracer: tracer)`. Results and errors pass through
/// unchanged; recording never throws into the caller.
public struct TracedModel: LanguageModel {
    /// The wrapped model, which every request goes to unchanged.
    public let base: any LanguageModel
    let recorder: SessionRecorder
    let options: TracingOptions

    /// Wraps `base`; every request through this value and its copies is recorded in one session
    /// labelled `sessionLabel`.
    public init(_ base: any LanguageModel, tracer: Tracer, sessionLabel: String = "session",
                options: TracingOptions = .init()) {
        self.init(base, recorder: SessionRecorder(tracer: tracer, label: sessionLabel), options: options)
    }

    init(_ base: any LanguageModel, recorder: SessionRecorder, options: TracingOptions) {
        self.base = base
        self.recorder = recorder
        self.options = options
    }

    /// The wrapped model's `provider`, passed through.
    public var provider: String { base.provider }
    /// The wrapped model's `modelName`, passed through.
    public var modelName: String { base.modelName }

    /// Streams `base`'s events unchanged and records the request through a ``RequestHandle`` when
    /// the stream ends, normally or with an error; with `.request` disabled it returns
    /// `base.stream(request)` as is.
    ///
    /// The request begins here, when the session asks for the stream, and ends when the stream does.
    public func stream(_ request: ModelRequest) -> AsyncThrowingStream<ModelEvent, any Error> {
        let tracer = recorder.tracer
        guard tracer.isEnabled(.request) else { return base.stream(request) }
        let session = tracer.currentContext.inSession(recorder.sessionID)
        let traced = TraceContext.$current.withValue(session) {
            tracer.beginRequest(provider: base.provider, model: base.modelName, profile: request.profileName)
        }
        recorder.place(
            request, model: "\(base.provider)/\(base.modelName)", in: traced, capturePayloads: options.capturePayloads)

        let upstream = TraceContext.$current.withValue(traced.context) { base.stream(request) }
        let (stream, continuation) = AsyncThrowingStream<ModelEvent, any Error>.makeStream()
        let recorder = self.recorder
        let options = self.options
        let pump = Task {
            var observation = ResponseObservation(request: traced, recordChunks: options.recordChunks)
            do {
                for try await event in upstream {
                    observation.observe(event)
                    continuation.yield(event)
                }
                traced.finish()
                if options.capturePayloads { observation.captureText() }
                recorder.recordSession()
                continuation.finish()
            } catch {
                traced.finish(throwing: error)
                recorder.recordSession()
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in pump.cancel() }
        return stream
    }
}

/// Options of the tracing middleware.
public struct TracingOptions: Sendable {
    /// Record prompt, response and tool text. Off by default; even when on, text is recorded
    /// only if the tracer has a `payloadRedaction`, and always redacted first.
    public var capturePayloads: Bool
    /// Record a ``ChunkRecord`` per streamed content delta, for rate timelines.
    public var recordChunks: Bool
    /// How long ``TracingMiddleware`` keeps what it remembers of a session (its previous request,
    /// for prefix reuse, turns and handoffs) after the session's last request, when the session
    /// is not seen to end; nil keeps it until the session ends. A session that comes back later
    /// is recorded as a new one. Thirty minutes by default.
    public var recorderIdleTimeout: Duration?

    /// Options with payload capture and chunks off and a thirty-minute idle timeout, unless given.
    public init(
        capturePayloads: Bool = false, recordChunks: Bool = false, recorderIdleTimeout: Duration? = .seconds(1800)
    ) {
        self.capturePayloads = capturePayloads
        self.recordChunks = recordChunks
        self.recorderIdleTimeout = recorderIdleTimeout
    }
}

/// What one request's stream has shown so far: each event is told to the request's handle.
package struct ResponseObservation {
    let request: RequestHandle
    let recordChunks: Bool
    package var response = ""
    package var reasoning = ""

    package init(request: RequestHandle, recordChunks: Bool) {
        self.request = request
        self.recordChunks = recordChunks
    }

    /// Tells the request what `event` shows. `arrived`, on the tracer's clock, is when the bytes
    /// that carried it arrived, for an observer that reads them after passing them on (the
    /// proxy); nil means now.
    package mutating func observe(_ event: ModelEvent, arrived: Int64? = nil) {
        switch event {
        case .contentDelta(let text):
            if !text.isEmpty { markFirstToken(arrived) }
            response += text
            recordChunk()
        case .reasoningDelta(let text):
            // Reasoning is output: its first token is the first token, and its tokens are chunks.
            if !text.isEmpty { markFirstToken(arrived) }
            reasoning += text
            recordChunk()
        case .outputStarted, .toolCall:
            markFirstToken(arrived)
        case .usage(let usage):
            // Kept as they come, so a request that fails after its usage arrived still has it.
            request.setUsage(
                RequestUsage(
                    inputTokens: usage.inputTokens.map(Int64.init),
                    cachedInputTokens: usage.cachedInputTokens.map(Int64.init),
                    outputTokens: usage.outputTokens.map(Int64.init),
                    cacheWriteTokens: usage.cacheCreationInputTokens.map(Int64.init)))
        case .serverTimings(let timings):
            request.setServerTimings(
                ServerTimings(
                    promptTokens: Int64(timings.promptTokens), cachedTokens: Int64(timings.cachedTokens),
                    promptDuration: Int64(timings.promptMilliseconds * 1e6),
                    predictedTokens: Int64(timings.predictedTokens),
                    predictedDuration: Int64(timings.predictedMilliseconds * 1e6)))
            if let queue = timings.queueMilliseconds { request.setServerQueue(Int64(queue * 1e6)) }
        case .connectionPhases(let phases):
            // Sent at the first response byte: the transfer began `firstByte` before now.
            let nanoseconds = { (phase: Duration) in Int64((phase / .nanoseconds(1)).rounded()) }
            let began = request.tracer.now() - request.start - nanoseconds(phases.firstByte)
            let at = { (phase: Duration) in max(0, began + nanoseconds(phase)) }
            request.setClientPhases(
                ClientPhases(
                    nameResolved: at(phases.nameResolved), connected: at(phases.connected),
                    tlsDone: phases.tlsDone.map(at), requestSent: at(phases.requestSent),
                    firstByte: at(phases.firstByte)))
        case .responseInfo(let info):
            request.setResponse(id: info.id, model: info.model)
            request.setServer(address: info.serverAddress, port: info.serverPort.map(Int64.init))
            request.setStreamed(info.streamed)
        case .finished(let reason):
            request.setFinishReason(reason)
        }
    }

    private func markFirstToken(_ arrived: Int64?) {
        if let arrived { request.firstToken(at: arrived) } else { request.firstToken() }
    }

    private func recordChunk() {
        // record(_:kind:) checks the kind before it builds the chunk: one check a token.
        if recordChunks {
            request.tracer.record(
                .chunk(ChunkRecord(requestID: request.id, ts: request.tracer.now(), tokens: 1)), kind: .chunk)
        }
    }

    /// Captures the request's reasoning and response text, when there is any, as payloads.
    package func captureText() {
        if !reasoning.isEmpty { request.tracer.capturePayload(.reasoning, reasoning, parentID: request.id) }
        if !response.isEmpty { request.tracer.capturePayload(.response, response, parentID: request.id) }
    }
}

extension ModelRequest {
    /// Bytes of what the request sends: instructions, every entry's text and the tool schemas.
    package var promptBytes: Int64 {
        var bytes = instructions?.utf8.count ?? 0
        for entry in entries {
            switch entry {
            case .prompt(let text), .response(let text): bytes += text.utf8.count
            case .toolCalls(let calls):
                for call in calls { bytes += call.name.utf8.count + call.arguments.utf8.count }
            case .toolOutput(let output): bytes += output.content.utf8.count
            }
        }
        for tool in tools { bytes += tool.name.utf8.count + tool.description.utf8.count + tool.parameters.utf8.count }
        return Int64(bytes)
    }
}
