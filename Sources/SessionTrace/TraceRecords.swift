// The typed records of the event vocabulary. Times are nanoseconds: `ts` on the tracer's
// monotonic clock, `dur` a duration. Identifiers are unique across runs (see `Tracer.makeID`).

/// One recording: what ran, where and when.
public struct RunRecord: Sendable, Hashable {
    public var runID: Int64
    /// Monotonic time at the start of the run; every other `ts` of the run is on this clock.
    public var ts: Int64
    /// Wall-clock time at `ts`, in nanoseconds since the Unix epoch.
    public var wallClockStart: Int64
    public var host: String
    public var commandLine: String
    public var gitRevision: String?
    public var label: String?
    public var toolVersion: String

    public init(
        runID: Int64, ts: Int64, wallClockStart: Int64, host: String, commandLine: String,
        gitRevision: String? = nil, label: String? = nil, toolVersion: String = sessionTraceVersion
    ) {
        self.runID = runID
        self.ts = ts
        self.wallClockStart = wallClockStart
        self.host = host
        self.commandLine = commandLine
        self.gitRevision = gitRevision
        self.label = label
        self.toolVersion = toolVersion
    }
}

/// One model-session instance, recorded when it ends.
public struct SessionRecord: Sendable, Hashable {
    public var sessionID: Int64
    public var ts: Int64
    public var dur: Int64
    public var label: String

    public init(sessionID: Int64, ts: Int64, dur: Int64, label: String) {
        self.sessionID = sessionID
        self.ts = ts
        self.dur = dur
        self.label = label
    }
}

/// The server's own timings for a request, where it reports them (llama.cpp's `timings`).
public struct ServerTimings: Sendable, Hashable {
    /// Prompt tokens the server evaluated (`prompt_n`).
    public var promptTokens: Int64
    /// Prompt tokens the server took from its KV cache (`cache_n`).
    public var cachedTokens: Int64
    /// Time the server spent on the prompt (`prompt_ms`), in nanoseconds.
    public var promptDuration: Int64
    /// Tokens the server generated (`predicted_n`).
    public var predictedTokens: Int64
    /// Time the server spent generating (`predicted_ms`), in nanoseconds.
    public var predictedDuration: Int64

    public init(
        promptTokens: Int64, cachedTokens: Int64, promptDuration: Int64,
        predictedTokens: Int64, predictedDuration: Int64
    ) {
        self.promptTokens = promptTokens
        self.cachedTokens = cachedTokens
        self.promptDuration = promptDuration
        self.predictedTokens = predictedTokens
        self.predictedDuration = predictedDuration
    }
}

/// One `respond` or `streamResponse` call, recorded when it ends.
public struct RequestRecord: Sendable, Hashable {
    public var requestID: Int64
    public var sessionID: Int64?
    /// The innermost enclosing interval, if any.
    public var parentID: Int64?
    public var ts: Int64
    public var dur: Int64
    /// From `ts` to the arrival of the first content delta, measured at the client.
    public var timeToFirstToken: Int64?
    public var profile: String
    /// `gen_ai.provider.name`, for example `openai` or `anthropic`.
    public var provider: String
    /// `gen_ai.request.model`.
    public var model: String
    public var inputTokens: Int64?
    /// Server-reported input tokens served from its prompt cache.
    public var cachedInputTokens: Int64?
    public var outputTokens: Int64?
    /// Bytes of the prompt as sent (instructions, transcript and tool definitions).
    public var promptBytes: Int64
    public var transcriptEntries: Int64
    /// Leading transcript entries byte-identical to the previous request's of the session.
    public var reusedPrefixEntries: Int64
    public var finishReason: String?
    public var error: String?
    public var serverTimings: ServerTimings?
    /// The user turn the request belongs to: one `respond` or `streamResponse` call and the tool
    /// rounds it drives share it. Nil where the recorder did not know (schema version 1 stores).
    public var turnID: Int64?
    /// A fingerprint of the instructions sent, nil when there were none: a change breaks the
    /// prompt prefix even when the transcript is reused whole.
    public var instructionsFingerprint: String?
    /// A fingerprint of the tool definitions sent (names, descriptions, schemas, in order), nil
    /// when no tools were sent.
    public var toolsFingerprint: String?
    /// Server-reported input tokens written to its prompt cache (Anthropic's
    /// `cache_creation_input_tokens`).
    public var cacheWriteTokens: Int64?
    /// `gen_ai.response.id`, as the server named its response.
    public var responseID: String?
    /// `gen_ai.response.model`: the model that answered, as the server reported it.
    public var responseModel: String?
    /// `server.address` and `server.port` of the endpoint the request went to.
    public var serverAddress: String?
    public var serverPort: Int64?
    /// `gen_ai.request.stream`: whether the response was streamed from the server.
    public var streamed: Bool?
    /// `gen_ai.request.max_tokens`, when the request set a cap on output tokens.
    public var maxTokens: Int64?
    /// `gen_ai.request.temperature`, when the request set one.
    public var temperature: Double?

    public init(
        requestID: Int64, sessionID: Int64? = nil, parentID: Int64? = nil, ts: Int64, dur: Int64,
        timeToFirstToken: Int64? = nil, profile: String = "", provider: String = "",
        model: String = "", inputTokens: Int64? = nil, cachedInputTokens: Int64? = nil,
        outputTokens: Int64? = nil, promptBytes: Int64 = 0, transcriptEntries: Int64 = 0,
        reusedPrefixEntries: Int64 = 0, finishReason: String? = nil, error: String? = nil,
        serverTimings: ServerTimings? = nil, turnID: Int64? = nil, instructionsFingerprint: String? = nil,
        toolsFingerprint: String? = nil, cacheWriteTokens: Int64? = nil, responseID: String? = nil,
        responseModel: String? = nil, serverAddress: String? = nil, serverPort: Int64? = nil,
        streamed: Bool? = nil, maxTokens: Int64? = nil, temperature: Double? = nil
    ) {
        self.requestID = requestID
        self.sessionID = sessionID
        self.parentID = parentID
        self.ts = ts
        self.dur = dur
        self.timeToFirstToken = timeToFirstToken
        self.profile = profile
        self.provider = provider
        self.model = model
        self.inputTokens = inputTokens
        self.cachedInputTokens = cachedInputTokens
        self.outputTokens = outputTokens
        self.promptBytes = promptBytes
        self.transcriptEntries = transcriptEntries
        self.reusedPrefixEntries = reusedPrefixEntries
        self.finishReason = finishReason
        self.error = error
        self.serverTimings = serverTimings
        self.turnID = turnID
        self.instructionsFingerprint = instructionsFingerprint
        self.toolsFingerprint = toolsFingerprint
        self.cacheWriteTokens = cacheWriteTokens
        self.responseID = responseID
        self.responseModel = responseModel
        self.serverAddress = serverAddress
        self.serverPort = serverPort
        self.streamed = streamed
        self.maxTokens = maxTokens
        self.temperature = temperature
    }

    /// Output tokens after the first, over the time since the first; nil when not measurable.
    public var tokensPerSecond: Double? {
        guard let ttft = timeToFirstToken, let out = outputTokens, out > 1, dur > ttft else { return nil }
        return Double(out - 1) / (Double(dur - ttft) / 1e9)
    }
}

/// One tool call, nested under the request that asked for it.
public struct ToolCallRecord: Sendable, Hashable {
    public var toolCallID: Int64
    public var requestID: Int64?
    public var sessionID: Int64?
    public var ts: Int64
    public var dur: Int64
    /// `gen_ai.tool.name`.
    public var name: String
    /// `gen_ai.tool.call.id`, as the model or server named the call.
    public var callID: String?
    /// A hash of the normalized arguments, so repeated calls are found without the text.
    public var argumentsFingerprint: String
    public var argumentsBytes: Int64
    public var outputBytes: Int64
    /// `ok` or `error`.
    public var outcome: String
    public var error: String?
    /// A hash of the output, so repeated results are found without the text; nil on failure.
    public var outputFingerprint: String?
    /// A MinHash sketch of the output's words, to estimate how much two results overlap without
    /// the text; nil when not computed.
    public var outputSketch: [UInt32]?

    public init(
        toolCallID: Int64, requestID: Int64? = nil, sessionID: Int64? = nil, ts: Int64, dur: Int64,
        name: String, callID: String? = nil, argumentsFingerprint: String, argumentsBytes: Int64,
        outputBytes: Int64, outcome: String = "ok", error: String? = nil, outputFingerprint: String? = nil,
        outputSketch: [UInt32]? = nil
    ) {
        self.toolCallID = toolCallID
        self.requestID = requestID
        self.sessionID = sessionID
        self.ts = ts
        self.dur = dur
        self.name = name
        self.callID = callID
        self.argumentsFingerprint = argumentsFingerprint
        self.argumentsBytes = argumentsBytes
        self.outputBytes = outputBytes
        self.outcome = outcome
        self.error = error
        self.outputFingerprint = outputFingerprint
        self.outputSketch = outputSketch
    }
}

/// A session's profile, model, instructions or tool set changed between two requests.
public struct HandoffRecord: Sendable, Hashable {
    public var handoffID: Int64
    public var sessionID: Int64?
    public var ts: Int64
    /// What changed: `profile`, `model`, `instructions` or `tools`.
    public var kind: String
    public var from: String
    public var to: String

    public init(handoffID: Int64, sessionID: Int64?, ts: Int64, kind: String, from: String, to: String) {
        self.handoffID = handoffID
        self.sessionID = sessionID
        self.ts = ts
        self.kind = kind
        self.from = from
        self.to = to
    }
}

/// An app-defined signpost interval, like `PlanDay`.
public struct IntervalRecord: Sendable, Hashable {
    public var intervalID: Int64
    public var parentID: Int64?
    public var sessionID: Int64?
    public var ts: Int64
    public var dur: Int64
    public var name: String
    public var metadata: TraceMetadata
    public var error: String?

    public init(
        intervalID: Int64, parentID: Int64? = nil, sessionID: Int64? = nil, ts: Int64, dur: Int64,
        name: String, metadata: TraceMetadata = [:], error: String? = nil
    ) {
        self.intervalID = intervalID
        self.parentID = parentID
        self.sessionID = sessionID
        self.ts = ts
        self.dur = dur
        self.name = name
        self.metadata = metadata
        self.error = error
    }
}

/// An app-defined point in time.
public struct InstantRecord: Sendable, Hashable {
    public var instantID: Int64
    public var parentID: Int64?
    public var ts: Int64
    public var name: String
    public var metadata: TraceMetadata

    public init(instantID: Int64, parentID: Int64? = nil, ts: Int64, name: String, metadata: TraceMetadata = [:]) {
        self.instantID = instantID
        self.parentID = parentID
        self.ts = ts
        self.name = name
        self.metadata = metadata
    }
}

/// The arrival of one piece of streamed output, for rate timelines.
public struct ChunkRecord: Sendable, Hashable {
    public var requestID: Int64
    public var ts: Int64
    public var tokens: Int64

    public init(requestID: Int64, ts: Int64, tokens: Int64) {
        self.requestID = requestID
        self.ts = ts
        self.tokens = tokens
    }
}

/// Captured text, off by default; always redacted before it is recorded.
public struct PayloadRecord: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case prompt, response, toolArguments = "tool_arguments", toolOutput = "tool_output"
        /// The instructions sent, captured when they differ from the previous request's.
        case instructions
        /// The tool definitions sent, as a JSON array of `name`, `description` and `parameters`
        /// (the schema as sent), captured when they differ from the previous request's.
        case toolDefinitions = "tool_definitions"
    }

    public var payloadID: Int64
    /// The request or tool call the text belongs to.
    public var parentID: Int64?
    public var ts: Int64
    public var kind: Kind
    public var text: String

    public init(payloadID: Int64, parentID: Int64?, ts: Int64, kind: Kind, text: String) {
        self.payloadID = payloadID
        self.parentID = parentID
        self.ts = ts
        self.kind = kind
        self.text = text
    }
}

/// Events a sink could not record, counted by sink and reason.
public struct DroppedRecord: Sendable, Hashable {
    public var ts: Int64
    public var sink: String
    public var reason: String
    public var count: Int64

    public init(ts: Int64, sink: String, reason: String, count: Int64) {
        self.ts = ts
        self.sink = sink
        self.reason = reason
        self.count = count
    }
}
