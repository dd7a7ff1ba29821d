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

    /// Streams `base`'s events unchanged and records a ``RequestRecord`` when the stream ends, normally
    /// or with an error; with `.request` disabled it returns `base.stream(request)` as is.
    public func stream(_ request: ModelRequest) -> AsyncThrowingStream<ModelEvent, any Error> {
        let tracer = recorder.tracer
        guard tracer.isEnabled(.request) else { return base.stream(request) }
        let requestID = tracer.makeID()
        let start = tracer.now()
        var context = TraceContext.current
        context.sessionID = recorder.sessionID
        context.requestID = requestID
        let parentID = context.parentID
        context.parentID = requestID
        let placement = recorder.beginRequest(request, model: base, requestID: requestID, at: start)
        var observation = RequestObservation(
            record: RequestRecord(
                requestID: requestID, sessionID: recorder.sessionID, parentID: parentID, ts: start, dur: 0,
                profile: request.profileName, provider: base.provider, model: base.modelName,
                promptBytes: request.promptBytes, transcriptEntries: Int64(request.entries.count),
                reusedPrefixEntries: placement.reusedPrefixEntries, turnID: placement.turnID,
                instructionsFingerprint: placement.instructionsFingerprint,
                toolsFingerprint: placement.toolsFingerprint,
                maxTokens: request.options.maximumResponseTokens.map(Int64.init),
                temperature: request.options.temperature))
        if options.capturePayloads {
            if case .prompt(let text)? = request.entries.last {
                tracer.capturePayload(.prompt, text, parentID: requestID)
            }
            // The prompt prefix, when it changed: what a cache break's shape is read from.
            if placement.instructionsChanged, let instructions = request.instructions {
                tracer.capturePayload(.instructions, instructions, parentID: requestID)
            }
            if placement.toolsChanged, !request.tools.isEmpty {
                tracer.capturePayload(
                    .toolDefinitions, Fingerprint.json(toolDefinitions: request.tools), parentID: requestID)
            }
        }

        let upstream = TraceContext.$current.withValue(context) { base.stream(request) }
        let (stream, continuation) = AsyncThrowingStream<ModelEvent, any Error>.makeStream()
        let recorder = self.recorder
        let options = self.options
        let pump = Task {
            do {
                for try await event in upstream {
                    observation.observe(event, at: tracer.now(), recordChunks: options.recordChunks, tracer: tracer)
                    continuation.yield(event)
                }
                observation.finish(at: tracer.now(), error: nil)
                recorder.tracer.sink.record(.request(observation.record))
                if options.capturePayloads, !observation.response.isEmpty {
                    tracer.capturePayload(.response, observation.response, parentID: requestID)
                }
                recorder.recordSession()
                continuation.finish()
            } catch {
                observation.finish(at: tracer.now(), error: error)
                recorder.tracer.sink.record(.request(observation.record))
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

/// What one request's stream has shown so far.
struct RequestObservation {
    var record: RequestRecord
    var response = ""

    mutating func observe(_ event: ModelEvent, at now: Int64, recordChunks: Bool, tracer: Tracer) {
        switch event {
        case .contentDelta(let text):
            if record.timeToFirstToken == nil, !text.isEmpty { record.timeToFirstToken = now - record.ts }
            response += text
            if recordChunks, tracer.isEnabled(.chunk) {
                tracer.sink.record(.chunk(ChunkRecord(requestID: record.requestID, ts: now, tokens: 1)))
            }
        case .outputStarted, .toolCall:
            if record.timeToFirstToken == nil { record.timeToFirstToken = now - record.ts }
        case .usage(let usage):
            record.inputTokens = usage.inputTokens.map(Int64.init) ?? record.inputTokens
            record.cachedInputTokens = usage.cachedInputTokens.map(Int64.init) ?? record.cachedInputTokens
            record.outputTokens = usage.outputTokens.map(Int64.init) ?? record.outputTokens
            record.cacheWriteTokens =
                usage.cacheCreationInputTokens.map(Int64.init) ?? record.cacheWriteTokens
        case .serverTimings(let timings):
            record.serverTimings = ServerTimings(
                promptTokens: Int64(timings.promptTokens), cachedTokens: Int64(timings.cachedTokens),
                promptDuration: Int64(timings.promptMilliseconds * 1e6),
                predictedTokens: Int64(timings.predictedTokens),
                predictedDuration: Int64(timings.predictedMilliseconds * 1e6))
        case .responseInfo(let info):
            record.responseID = info.id
            record.responseModel = info.model
            record.serverAddress = info.serverAddress
            record.serverPort = info.serverPort.map(Int64.init)
            record.streamed = info.streamed
        case .finished(let reason):
            record.finishReason = reason
        }
    }

    mutating func finish(at now: Int64, error: (any Error)?) {
        record.dur = now - record.ts
        if let error { record.error = String(describing: error) }
    }
}

extension ModelRequest {
    /// Bytes of what the request sends: instructions, every entry's text and the tool schemas.
    var promptBytes: Int64 {
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
