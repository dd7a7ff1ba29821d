// The typed records of the event vocabulary. Times are nanoseconds: `ts` on the tracer's
// monotonic clock, `dur` a duration. Identifiers are unique across runs (see `Tracer.makeID`).
//
// Optional text and arrays are declared `Optional<String>`, not `String?`: a `var` spelled `T?`
// starts as nil, so an initializer's `self.text = text` assigns over that nil where it could
// initialize, and the optimizer then builds the record in a temporary and copies it out, a retain
// and a release for each string (about 70 ns a request record in trace-bench).

/// One recording: what ran, where and when.
public struct RunRecord: Sendable, Hashable {
    /// The run's id: the upper 32 bits of every id its ``Tracer`` makes, with the lower 32 zero.
    public var runID: Int64
    /// Monotonic time at the start of the run; every other `ts` of the run is on this clock.
    public var ts: Int64
    /// Wall-clock time at `ts`, in nanoseconds since the Unix epoch.
    public var wallClockStart: Int64
    /// Name of the host the run recorded on, from `gethostname`; `unknown` when it failed.
    public var host: String
    /// The traced program's command line, its arguments joined by spaces.
    public var commandLine: String
    /// The source revision of the traced program, if given; nil otherwise.
    public var gitRevision: Optional<String>
    /// A label for the run, for example `nightly`; nil when none was given.
    public var label: Optional<String>
    /// The SessionTrace version that recorded the run (``sessionTraceVersion`` by default).
    public var toolVersion: String

    /// A run record with the given fields; a ``Tracer`` records its own when it is created.
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
    /// Unique id of this session, made by `Tracer.makeID`; requests, tool calls and handoffs point at it.
    public var sessionID: Int64
    /// When the session began, in monotonic nanoseconds on the tracer's clock.
    public var ts: Int64
    /// Nanoseconds from `ts` to the session's end, or to its latest request while it is still open.
    public var dur: Int64
    /// The session's label: the one given to `Tracer.withSession`, or the session's `SessionInfo.label`.
    public var label: String

    /// A session record; `Tracer.withSession` and the tracing middleware make them.
    public init(sessionID: Int64, ts: Int64, dur: Int64, label: String) {
        self.sessionID = sessionID
        self.ts = ts
        self.dur = dur
        self.label = label
    }
}

/// Timings a model server reported for one request, about its own work: how long it took over
/// the prompt and over generation, and how many tokens each covered.
///
/// Not every server reports them; a backend that reads them fills this in, in these units,
/// whatever its own field names (llama.cpp's `timings` object: `prompt_n`, `cache_n`,
/// `prompt_ms`, `predicted_n`, `predicted_ms`). Set against the client's own times, they tell
/// time spent in the server from time spent on the way.
public struct ServerTimings: Sendable, Hashable {
    /// Prompt tokens the server processed (not those it took from its cache).
    public var promptTokens: Int64
    /// Prompt tokens the server took from its prompt cache instead of processing them.
    public var cachedTokens: Int64
    /// Time the server spent processing the prompt, in nanoseconds.
    public var promptDuration: Int64
    /// Tokens the server generated (predicted).
    public var predictedTokens: Int64
    /// Time the server spent generating, in nanoseconds.
    public var predictedDuration: Int64

    /// Server-reported timings, with both durations in nanoseconds.
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

/// The client's side of a request's wait, as its HTTP transport measured it: when each phase of
/// the exchange ended, in nanoseconds from the request's `ts` (libcurl's `NAMELOOKUP`, `CONNECT`,
/// `APPCONNECT`, `PRETRANSFER` and `STARTTRANSFER` times, moved onto the tracer's clock).
///
/// Each is a point in the wait, not a length, so they only grow: a connection the client reused
/// gives the same time for the name, the connection and the request sent. Before the name is
/// looked up comes whatever the client did first (building the request, waiting for its turn).
public struct ClientPhases: Sendable, Hashable {
    /// The server's name resolved.
    public var nameResolved: Int64
    /// The TCP connection made.
    public var connected: Int64
    /// The TLS handshake done; nil without TLS.
    public var tlsDone: Int64?
    /// The request about to be sent: the connection is ready and nothing of the answer is due yet.
    public var requestSent: Int64
    /// The first byte of the response arrived.
    public var firstByte: Int64

    /// Phases in nanoseconds from the request's `ts`.
    public init(nameResolved: Int64, connected: Int64, tlsDone: Int64? = nil, requestSent: Int64, firstByte: Int64) {
        self.nameResolved = nameResolved
        self.connected = connected
        self.tlsDone = tlsDone
        self.requestSent = requestSent
        self.firstByte = firstByte
    }
}

/// One `respond` or `streamResponse` call, recorded when it ends.
public struct RequestRecord: Sendable, Hashable {
    /// Unique id of this request, made by `Tracer.makeID`; tool calls, chunks and payloads point at it.
    public var requestID: Int64
    /// The session the request was made in; nil outside a session.
    public var sessionID: Int64?
    /// The innermost enclosing interval, if any.
    public var parentID: Int64?
    /// When the request began at the client, in monotonic nanoseconds on the tracer's clock.
    public var ts: Int64
    /// Nanoseconds from `ts` until the response stream ended, normally or with an error.
    public var dur: Int64
    /// From `ts` to the arrival of the first content delta, measured at the client.
    public var timeToFirstToken: Int64?
    /// The name of the session profile in use; empty when unknown.
    public var profile: String
    /// `gen_ai.provider.name`, for example `openai` or `anthropic`.
    public var provider: String
    /// `gen_ai.request.model`.
    public var model: String
    /// Prompt tokens, as the server reported them; nil when it reported none.
    public var inputTokens: Int64?
    /// Server-reported input tokens served from its prompt cache.
    public var cachedInputTokens: Int64?
    /// Generated tokens, as the server reported them; nil when it reported none.
    public var outputTokens: Int64?
    /// Bytes of the prompt as sent (instructions, transcript and tool definitions).
    public var promptBytes: Int64
    /// Entries in the transcript sent: prompts, responses, tool calls and tool outputs.
    public var transcriptEntries: Int64
    /// Leading transcript entries byte-identical to the previous request's of the session.
    public var reusedPrefixEntries: Int64
    /// Why generation stopped, as the server said (`stop`, `length`, `tool_calls`, ...); nil when the
    /// stream ended without one, as on an error.
    public var finishReason: Optional<String>
    /// The error that ended the request, as `String(describing:)` gives it; nil when it succeeded.
    public var error: Optional<String>
    /// The server's own report of its prompt and generation time; nil when it did not report one.
    public var serverTimings: ServerTimings?
    /// The user turn the request belongs to: one `respond` or `streamResponse` call and the tool
    /// rounds it drives share it. Nil where the recorder did not know (schema version 1 stores).
    public var turnID: Int64?
    /// A fingerprint of the instructions sent, nil when there were none: a change breaks the
    /// prompt prefix even when the transcript is reused whole.
    public var instructionsFingerprint: Optional<String>
    /// A fingerprint of the tool definitions sent (names, descriptions, schemas, in order), nil
    /// when no tools were sent.
    public var toolsFingerprint: Optional<String>
    /// Server-reported input tokens written to its prompt cache (Anthropic's
    /// `cache_creation_input_tokens`).
    public var cacheWriteTokens: Int64?
    /// `gen_ai.response.id`, as the server named its response.
    public var responseID: Optional<String>
    /// `gen_ai.response.model`: the model that answered, as the server reported it.
    public var responseModel: Optional<String>
    /// `server.address` and `server.port` of the endpoint the request went to.
    public var serverAddress: Optional<String>
    /// `server.port` of the endpoint the request went to; nil when unknown.
    public var serverPort: Int64?
    /// `gen_ai.request.stream`: whether the response was streamed from the server.
    public var streamed: Bool?
    /// `gen_ai.request.max_tokens`, when the request set a cap on output tokens.
    public var maxTokens: Int64?
    /// `gen_ai.request.temperature`, when the request set one.
    public var temperature: Double?
    /// How long the request waited in the server's queue before the server took it up, as the
    /// server reports it (vLLM's `metrics.queue_time_ms`), in nanoseconds; nil where it reports
    /// none, as llama.cpp.
    public var serverQueueDuration: Int64?
    /// The client's phases of the wait (connection, request sent, first byte); nil where the
    /// transport measured none.
    public var clientPhases: ClientPhases?

    /// A request record; what is not known stays nil, and the counts and names zero or empty.
    ///
    /// Inlinable, so that a record is built where it is recorded.
    @inlinable
    public init(
        requestID: Int64, sessionID: Int64? = nil, parentID: Int64? = nil, ts: Int64, dur: Int64,
        timeToFirstToken: Int64? = nil, profile: String = "", provider: String = "",
        model: String = "", inputTokens: Int64? = nil, cachedInputTokens: Int64? = nil,
        outputTokens: Int64? = nil, promptBytes: Int64 = 0, transcriptEntries: Int64 = 0,
        reusedPrefixEntries: Int64 = 0, finishReason: String? = nil, error: String? = nil,
        serverTimings: ServerTimings? = nil, turnID: Int64? = nil, instructionsFingerprint: String? = nil,
        toolsFingerprint: String? = nil, cacheWriteTokens: Int64? = nil, responseID: String? = nil,
        responseModel: String? = nil, serverAddress: String? = nil, serverPort: Int64? = nil,
        streamed: Bool? = nil, maxTokens: Int64? = nil, temperature: Double? = nil,
        serverQueueDuration: Int64? = nil, clientPhases: ClientPhases? = nil
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
        self.serverQueueDuration = serverQueueDuration
        self.clientPhases = clientPhases
    }

    /// The record's token counts, as ``RequestUsage`` holds them.
    public var usage: RequestUsage {
        RequestUsage(
            inputTokens: inputTokens, cachedInputTokens: cachedInputTokens, outputTokens: outputTokens,
            cacheWriteTokens: cacheWriteTokens)
    }

    /// Takes the counts `usage` has; those it left nil keep their value.
    package mutating func merge(_ usage: RequestUsage) {
        inputTokens = usage.inputTokens ?? inputTokens
        cachedInputTokens = usage.cachedInputTokens ?? cachedInputTokens
        outputTokens = usage.outputTokens ?? outputTokens
        cacheWriteTokens = usage.cacheWriteTokens ?? cacheWriteTokens
    }

    /// Output tokens after the first, over the time since the first; nil when not measurable.
    public var tokensPerSecond: Double? {
        guard let ttft = timeToFirstToken, let out = outputTokens, out > 1, dur > ttft else { return nil }
        return Double(out - 1) / (Double(dur - ttft) / 1e9)
    }
}

/// One tool call, nested under the request that asked for it.
public struct ToolCallRecord: Sendable, Hashable {
    /// Unique id of this call, made by `Tracer.makeID`; its payloads and the intervals inside it point at it.
    public var toolCallID: Int64
    /// The request that asked for the call; nil when it ran outside any traced request.
    public var requestID: Int64?
    /// The session the call ran in; nil outside a session.
    public var sessionID: Int64?
    /// When the call began, in monotonic nanoseconds on the tracer's clock.
    public var ts: Int64
    /// Nanoseconds from `ts` until the tool returned or threw.
    public var dur: Int64
    /// `gen_ai.tool.name`.
    public var name: String
    /// `gen_ai.tool.call.id`, as the model or server named the call.
    public var callID: Optional<String>
    /// A hash of the normalized arguments, so repeated calls are found without the text.
    public var argumentsFingerprint: String
    /// Bytes of the arguments, encoded as JSON with sorted keys.
    public var argumentsBytes: Int64
    /// A sketch of the arguments' terms (their entity fields and words, hashed), so near-duplicate
    /// asks are found without the text; nil when not computed.
    public var argumentsSketch: Optional<[UInt32]>
    /// UTF-8 bytes of the output the tool returned; 0 when the call failed.
    public var outputBytes: Int64
    /// ``Outcome/ok`` or ``Outcome/error``.
    public var outcome: Outcome
    /// The error the tool threw, as `String(describing:)` gives it; nil when the call succeeded.
    public var error: Optional<String>
    /// A hash of the output, so repeated results are found without the text; nil on failure.
    public var outputFingerprint: Optional<String>
    /// A MinHash sketch of the output's words, to estimate how much two results overlap without
    /// the text; nil when not computed.
    public var outputSketch: Optional<[UInt32]>

    /// A tool-call record; `outcome` is `ok` unless given, and the error and output hashes nil.
    public init(
        toolCallID: Int64, requestID: Int64? = nil, sessionID: Int64? = nil, ts: Int64, dur: Int64,
        name: String, callID: String? = nil, argumentsFingerprint: String, argumentsBytes: Int64,
        argumentsSketch: [UInt32]? = nil, outputBytes: Int64, outcome: Outcome = .ok, error: String? = nil, outputFingerprint: String? = nil,
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
        self.argumentsSketch = argumentsSketch
        self.outputBytes = outputBytes
        self.outcome = outcome
        self.error = error
        self.outputFingerprint = outputFingerprint
        self.outputSketch = outputSketch
    }
}

/// A session's profile, model, instructions or tool set changed between two requests.
public struct HandoffRecord: Sendable, Hashable {
    /// Unique id of this handoff, made by `Tracer.makeID`.
    public var handoffID: Int64
    /// The session whose requests differed; nil outside a session.
    public var sessionID: Int64?
    /// Start of the request that brought the change, in monotonic nanoseconds on the tracer's clock.
    public var ts: Int64
    /// What changed: ``Kind/profile``, ``Kind/model``, ``Kind/instructions`` or ``Kind/tools``.
    public var kind: Kind
    /// The value before: the profile, or `provider/model`; instructions and tools by short fingerprint
    /// (`instructions#1a2b3c4d`, `search,fetch#1a2b3c4d`, or `none`), never by their text.
    public var from: String
    /// The value after the change, named as `from` is.
    public var to: String

    /// A handoff record; the tracing middleware makes one for each change it sees.
    public init(handoffID: Int64, sessionID: Int64?, ts: Int64, kind: Kind, from: String, to: String) {
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
    /// Unique id of this interval, made by `Tracer.makeID`; what is recorded inside it points at it.
    public var intervalID: Int64
    /// The innermost interval, session, request or tool call open when it began; nil at the top.
    public var parentID: Int64?
    /// The session it began in; nil outside a session.
    public var sessionID: Int64?
    /// When the interval began, in monotonic nanoseconds on the tracer's clock.
    public var ts: Int64
    /// Nanoseconds from `ts` until the interval ended.
    public var dur: Int64
    /// The name given to `withInterval` or `beginInterval`, like `PlanDay`.
    public var name: String
    /// App-defined fields given when the interval began; stored as a JSON object with sorted keys.
    public var metadata: TraceMetadata
    /// The error that ended the interval, as `String(describing:)` gives it; nil when it ended normally.
    public var error: Optional<String>

    /// An interval record; a ``Tracer`` makes one when an interval ends.
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
    /// Unique id of this instant, made by `Tracer.makeID`.
    public var instantID: Int64
    /// The innermost interval, session, request or tool call open at the time; nil at the top.
    public var parentID: Int64?
    /// When the instant happened, in monotonic nanoseconds on the tracer's clock.
    public var ts: Int64
    /// The name given to `Tracer.instant`.
    public var name: String
    /// App-defined fields of the instant; stored as a JSON object with sorted keys.
    public var metadata: TraceMetadata

    /// An instant record; `Tracer.instant` makes one.
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
    /// The request whose response stream the chunk arrived on.
    public var requestID: Int64
    /// When the chunk arrived at the client, in monotonic nanoseconds on the tracer's clock.
    public var ts: Int64
    /// Tokens in the chunk; the tracing middleware counts each content delta as one.
    public var tokens: Int64

    /// A chunk record; the tracing middleware makes one per content delta when `recordChunks` is on.
    public init(requestID: Int64, ts: Int64, tokens: Int64) {
        self.requestID = requestID
        self.ts = ts
        self.tokens = tokens
    }
}

/// Captured text, off by default; always redacted before it is recorded.
public struct PayloadRecord: Sendable, Hashable {
    /// What the captured text is; the raw value is the store's `kind` column.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The last prompt sent, the response text, a tool call's arguments as JSON, or a tool's output.
        case prompt, response, toolArguments = "tool_arguments", toolOutput = "tool_output"
        /// The model's reasoning (its thinking), as it streamed before or between the response text.
        case reasoning
        /// The instructions sent, captured when they differ from the previous request's.
        case instructions
        /// The tool definitions sent, as a JSON array of `name`, `description` and `parameters`
        /// (the schema as sent), captured when they differ from the previous request's.
        case toolDefinitions = "tool_definitions"
    }

    /// Unique id of this payload, made by `Tracer.makeID`.
    public var payloadID: Int64
    /// The request or tool call the text belongs to.
    public var parentID: Int64?
    /// When the text was captured, in monotonic nanoseconds on the tracer's clock.
    public var ts: Int64
    /// What the text is: a prompt, a response, tool arguments or output, instructions or tool definitions.
    public var kind: Kind
    /// The captured text, already redacted by the tracer's `payloadRedaction`.
    public var text: String

    /// A payload record; `Tracer.capturePayload` makes one when payload capture is on.
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
    /// When the count was written, in monotonic nanoseconds.
    public var ts: Int64
    /// What lost the events: the sink `store` or `lttng`, or the recording `proxy` (the column
    /// `sink`).
    public var sinkName: String
    /// Why they were lost: ``Reason/queueFull``, ``Reason/sqliteError``, ``Reason/busy``,
    /// ``Reason/closed``, ``Reason/discarded``, ``Reason/unreadableRequest``, or another sink's
    /// reason.
    public var reason: Reason
    /// Events lost since the previous record of the same sink and reason; sum them for the total.
    public var count: Int64

    /// A count of lost events; sinks make these themselves (and the recording proxy, for the
    /// requests it could not read), never the caller's recording.
    public init(ts: Int64, sinkName: String, reason: Reason, count: Int64) {
        self.ts = ts
        self.sinkName = sinkName
        self.reason = reason
        self.count = count
    }
}

/// Token counts of one response, as the server reported them; nil for what it did not report.
public struct RequestUsage: Sendable, Hashable {
    /// Prompt tokens (`gen_ai.usage.input_tokens`).
    public var inputTokens: Int64?
    /// Prompt tokens served from the server's prompt cache.
    public var cachedInputTokens: Int64?
    /// Generated tokens (`gen_ai.usage.output_tokens`).
    public var outputTokens: Int64?
    /// Prompt tokens written to the server's prompt cache (Anthropic's `cache_creation_input_tokens`).
    public var cacheWriteTokens: Int64?

    /// Every count with its store column, which is also its JSON key and its column in a baseline
    /// file: the list the baseline file reads and writes (a test holds it to the field table).
    package static let counts: [(column: String, path: WritableKeyPath<RequestUsage, Int64?> & Sendable)] = [
        ("input_tokens", \.inputTokens), ("cached_input_tokens", \.cachedInputTokens),
        ("output_tokens", \.outputTokens), ("cache_write_tokens", \.cacheWriteTokens),
    ]

    /// Token counts; leave out what the server did not report.
    public init(
        inputTokens: Int64? = nil, cachedInputTokens: Int64? = nil, outputTokens: Int64? = nil,
        cacheWriteTokens: Int64? = nil
    ) {
        self.inputTokens = inputTokens
        self.cachedInputTokens = cachedInputTokens
        self.outputTokens = outputTokens
        self.cacheWriteTokens = cacheWriteTokens
    }
}
