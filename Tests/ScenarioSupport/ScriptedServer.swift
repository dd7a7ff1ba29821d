import ModelSession
import SessionTrace
import SessionTraceTesting
import Synchronization

/// One reply the scripted model gives, in the order the script lists them.
public enum ScriptedReply: Sendable {
    /// Asks for tools: `(name, arguments JSON)` per call; the finish reason is `tool_calls`.
    case calls([(String, String)])
    /// Answers with `text`; cut at the request's `maximumResponseTokens` (finish `length`) when
    /// the text has more words than that, else finish `stop`.
    case answer(String)

    /// Asks for one tool.
    public static func call(_ name: String, _ arguments: String) -> ScriptedReply {
        .calls([(name, arguments)])
    }
}

/// A model server imitated for one session: it answers from a script and keeps a prompt cache.
///
/// The prompt is tokenized as words: a marker for the model, then the instructions, the tool
/// definitions (name, description, schema) and every transcript entry, each entry opened by a
/// marker of its kind. A request's cached input tokens are the longest common prefix of its
/// tokens with the previous request's, as a server that keeps one session's prefix in its KV
/// cache reports them; so a change of model, instructions or tools, or a rewritten history,
/// breaks the cache from that point, and an append-only conversation keeps it all.
///
/// Timing is on the scenario's clock: time to first token is 15 ms plus 0.5 ms per uncached input
/// token (a small model's prefill on a CPU); each output token takes 8 ms. A server that reports
/// its timings (``TimingReports``) counts 5 ms plus the prefill as its prompt processing, and may
/// keep a call waiting in its queue first, as behind another client's request.
public final class ScriptedServer: Sendable {
    /// Which cache figures the server reports with its usage.
    public enum CacheReporting: Sendable {
        /// Cached input tokens, as OpenAI and llama.cpp do.
        case cachedTokens
        /// Cached tokens read and the rest of the prompt written to the cache, as Anthropic does
        /// with a cache breakpoint at the end of the prompt (`cache_creation_input_tokens`).
        case anthropic
        /// None: the server says nothing of its cache.
        case none
    }

    /// The server's own timings (llama.cpp's `timings`), and queue waits before given calls.
    public struct TimingReports: Sendable {
        /// Nanoseconds call `n` (from 1) waits in the queue before its prompt is processed.
        public var queueWaits: [Int: Int64]

        public init(queueWaits: [Int: Int64] = [:]) { self.queueWaits = queueWaits }
    }

    let clock: TestClock
    let cacheReporting: CacheReporting
    let timings: TimingReports?
    private let state: Mutex<State>

    private struct State {
        var replies: [ScriptedReply]
        var previousPrompt: [String] = []
        var calls = 0
    }

    public init(
        clock: TestClock, script: [ScriptedReply], cacheReporting: CacheReporting = .cachedTokens,
        timings: TimingReports? = nil
    ) {
        self.clock = clock
        self.cacheReporting = cacheReporting
        self.timings = timings
        state = Mutex(State(replies: script))
    }

    /// A model of this server; several (another model name) may share one session's server.
    public func model(_ name: String = "scripted-small", provider: String = "scripted") -> ScriptedModel {
        ScriptedModel(provider: provider, modelName: name, server: self)
    }

    /// Replies still unused: a scenario that ends with some left was scripted wrong.
    public var unusedReplies: Int { state.withLock { $0.replies.count } }

    /// The events of one reply, each with the time spent before it.
    func respond(to request: ModelRequest, model: ScriptedModel) throws -> [(Int64, ModelEvent)] {
        let prompt = Self.tokens(request, model: model)
        let (reply, cached, callNumber) = try state.withLock { state throws -> (ScriptedReply, Int, Int) in
            guard !state.replies.isEmpty else { throw ScriptError.noReplyLeft(model: model.modelName) }
            let shared = zip(state.previousPrompt, prompt).prefix { $0 == $1 }.count
            state.previousPrompt = prompt
            state.calls += 1
            return (state.replies.removeFirst(), max(0, shared - 1), state.calls)
        }
        let input = prompt.count - 1
        let prefill = Int64(input - cached) * 500_000
        let queued = timings?.queueWaits[callNumber] ?? 0
        let firstToken = queued + 15_000_000 + prefill
        let perToken: Int64 = 8_000_000
        var events: [(Int64, ModelEvent)] = []
        let output: Int
        let finish: String
        switch reply {
        case .calls(let calls):
            events.append((firstToken, .outputStarted))
            var words = 0
            for (index, (name, arguments)) in calls.enumerated() {
                let count = Self.words(name).count + Self.words(arguments).count
                words += count
                let call = ToolCallRequest(
                    id: "call_\(callNumber)_\(index)", name: name, arguments: arguments)
                events.append((Int64(count) * perToken, .toolCall(call)))
            }
            output = words
            finish = "tool_calls"
        case .answer(let text):
            var words = Self.words(text)
            let cap = request.options.maximumResponseTokens ?? .max
            finish = words.count > cap ? "length" : "stop"
            words = Array(words.prefix(cap))
            output = words.count
            // Two deltas: the first token, then the rest.
            events.append((firstToken, .contentDelta(words.first ?? "")))
            if words.count > 1 {
                events.append(
                    (
                        Int64(words.count - 1) * perToken,
                        .contentDelta(" " + words.dropFirst().joined(separator: " "))
                    ))
            }
        }
        let usage =
            switch cacheReporting {
            case .cachedTokens: TokenUsage(inputTokens: input, cachedInputTokens: cached, outputTokens: output)
            case .anthropic:
                TokenUsage(
                    inputTokens: input, cachedInputTokens: cached, outputTokens: output,
                    cacheCreationInputTokens: input - cached)
            case .none: TokenUsage(inputTokens: input, outputTokens: output)
            }
        if timings != nil {
            let report = ServerTimingsReport(
                promptTokens: input - cached, cachedTokens: cached, promptMilliseconds: Double(5_000_000 + prefill) / 1e6,
                predictedTokens: output, predictedMilliseconds: Double(Int64(output) * perToken) / 1e6,
                predictedPerSecond: 1e9 / Double(perToken))
            events.append((0, .serverTimings(report)))
        }
        events.append((0, .usage(usage)))
        events.append((0, .finished(reason: finish)))
        return events
    }

    /// The prompt as tokens: model marker, instructions, tools, entries.
    static func tokens(_ request: ModelRequest, model: ScriptedModel) -> [String] {
        var tokens = ["<model \(model.provider)/\(model.modelName)>"]
        tokens += ["<instructions>"] + words(request.instructions ?? "")
        for tool in request.tools {
            tokens += ["<tool>"] + words(tool.name) + words(tool.description) + words(tool.parameters)
        }
        for entry in request.entries {
            switch entry {
            case .prompt(let text): tokens += ["<user>"] + words(text)
            case .response(let text): tokens += ["<assistant>"] + words(text)
            case .toolCalls(let calls):
                for call in calls { tokens += ["<call>"] + words(call.name) + words(call.arguments) }
            case .toolOutput(let output): tokens += ["<output>"] + words(output.content)
            }
        }
        return tokens
    }

    /// Words and punctuation marks, a scripted tokenizer.
    static func words(_ text: String) -> [String] {
        text.split(whereSeparator: { $0.isWhitespace || "{}\":,".contains($0) }).map(String.init)
    }

    public enum ScriptError: Error, CustomStringConvertible {
        case noReplyLeft(model: String)
        public var description: String {
            switch self {
            case .noReplyLeft(let model): "the script of \(model) has no reply left"
            }
        }
    }
}

/// A model that answers from a ``ScriptedServer``: no network, no sleeping; it spends its time
/// on the scenario's clock as each event is taken from its stream.
public struct ScriptedModel: LanguageModel {
    public let provider: String
    public let modelName: String
    let server: ScriptedServer

    public func stream(_ request: ModelRequest) -> AsyncThrowingStream<ModelEvent, any Error> {
        let pending = PendingEvents()
        let server = self.server
        let model = self
        // Pull-driven: the clock moves when the reader asks for the next event, so the middleware
        // stamps each event at the time the script gives it.
        return AsyncThrowingStream(unfolding: {
            guard let (delay, event) = try pending.next(or: { try server.respond(to: request, model: model) })
            else { return nil }
            server.clock.advance(by: delay)
            return event
        })
    }
}

/// The events of one reply not yet taken, made on the first read.
private final class PendingEvents: Sendable {
    private let events = Mutex<[(Int64, ModelEvent)]?>(nil)

    func next(or make: () throws -> [(Int64, ModelEvent)]) throws -> (Int64, ModelEvent)? {
        try events.withLock { events throws -> (Int64, ModelEvent)? in
            if events == nil { events = try make() }
            return events!.isEmpty ? nil : events!.removeFirst()
        }
    }
}
