import ModelSession
import SessionInstrumentation
import SessionTrace
import SessionTraceTesting
import Synchronization
import TestSupport
import Foundation
import Testing

@Suite("Tracing middleware, with a scripted model")
struct TracingMiddlewareTests {
    let sink = MemorySink()
    let clock = TestClock()

    func session(_ model: any LanguageModel, tools: [any Tool] = [], options: TracingOptions = .init(),
                 redaction: (@Sendable (String) -> String)? = nil) -> LanguageModelSession {
        let tracer = Tracer(sink: sink, clock: clock, payloadRedaction: redaction)
        return LanguageModelSession(
            model: model, label: "planner", tools: tools, instructions: "Plan the day.",
            middleware: [TracingMiddleware(tracer: tracer, options: options)])
    }

    @Test func everyRequestRecordsTimingsTokensAndPrefixReuse() async throws {
        let session = session(ScriptedModel.answering("Walk, then write.", clock: clock))
        _ = try await session.respond(to: "What first?")
        _ = try await session.respond(to: "And then?")

        let requests = sink.requests
        try #require(requests.count == 2)
        // The scripted server takes 2 ms to its first event and 0.2 ms to each of the three after.
        for request in requests {
            #expect(request.timeToFirstToken == 2_000_000)
            #expect(request.dur == 2_600_000)
            #expect(request.outputTokens == 5)
            #expect(request.provider == "scripted" && request.model == "scripted-1")
            #expect(request.profile == "default")
            #expect(request.finishReason == "stop")
            #expect(request.error == nil)
            #expect(request.tokensPerSecond == 4 / 0.000_6)
        }
        #expect(requests[1].ts == requests[0].ts + requests[0].dur, "the clock moves only with the server")
        #expect(requests.map(\.transcriptEntries) == [1, 3])
        #expect(requests.map(\.reusedPrefixEntries) == [0, 1])
        #expect(requests.map(\.inputTokens) == [10, 30])
        #expect(requests.map(\.cachedInputTokens) == [0, 20])
        #expect(requests[1].promptBytes > requests[0].promptBytes)
        #expect(Set(requests.map(\.sessionID)).count == 1)
        #expect(sink.sessions.last?.label == "planner")
        #expect(sink.sessions.last?.sessionID == requests[0].sessionID)
    }

    @Test func toolCallsNestUnderTheRequestThatAskedForThem() async throws {
        let model = ScriptedModel(clock: clock) { request in
            if request.hasToolOutputSinceLastPrompt { return [.contentDelta("Done."), .finished(reason: "stop")] }
            return [
                .toolCall(ToolCallRequest(id: "call-1", name: "search", arguments: #"{"query":"  Launch  Prep"}"#)),
                .toolCall(ToolCallRequest(id: "call-2", name: "search", arguments: #"{"query":"launch prep"}"#)),
                .responseInfo(
                    ResponseInfo(
                        id: "resp-1", model: "scripted-1b", serverAddress: "127.0.0.1", serverPort: 8080,
                        streamed: true)),
                .finished(reason: "tool_calls"),
            ]
        }
        let session = session(model, tools: [SearchTool()])
        let response = try await session.respond(to: "Plan launch")
        #expect(response.content == "Done.")

        let requests = sink.requests
        let calls = sink.toolCalls
        try #require(requests.count == 2 && calls.count == 2)
        #expect(calls.allSatisfy { $0.requestID == requests[0].requestID && $0.sessionID == requests[0].sessionID })
        #expect(calls.allSatisfy { $0.name == "search" && $0.outcome == .ok && $0.dur >= 0 })
        #expect(calls[0].argumentsFingerprint == calls[1].argumentsFingerprint)
        #expect(calls.map(\.outputBytes) == [Int64("3 notes about   Launch  Prep".utf8.count), Int64("3 notes about launch prep".utf8.count)])
        #expect(requests[0].finishReason == "tool_calls")
        #expect(calls.map(\.callID) == ["call-1", "call-2"])
        #expect(requests[0].responseID == "resp-1" && requests[0].responseModel == "scripted-1b")
        #expect(requests[0].serverAddress == "127.0.0.1" && requests[0].serverPort == 8080)
        #expect(requests[0].streamed == true)
        #expect(requests[1].responseID == nil && requests[1].streamed == nil, "no facts, none recorded")
    }

    @Test func aFailingToolIsRecordedAndTheSessionSeesTheSameError() async throws {
        let model = ScriptedModel(clock: clock) { _ in
            [.toolCall(ToolCallRequest(id: "c", name: "search", arguments: #"{"query":"x"}"#)), .finished(reason: "tool_calls")]
        }
        let traced = session(model, tools: [SearchTool(fails: true)])
        let plain = LanguageModelSession(model: model, tools: [SearchTool(fails: true)], instructions: "Plan the day.")
        let tracedError = await #expect(throws: (any Error).self) { try await traced.respond(to: "go") }
        let plainError = await #expect(throws: (any Error).self) { try await plain.respond(to: "go") }
        #expect(String(describing: tracedError) == String(describing: plainError))
        #expect(sink.toolCalls.map(\.outcome) == [.error])
        #expect(sink.toolCalls.first?.error == "SearchFailed()")
    }

    @Test func aFailedRequestIsRecordedAndRethrownUnchanged() async throws {
        let model = ScriptedModel(clock: clock) { _ in throw ServerDown() }
        let session = session(model)
        await #expect(throws: ServerDown.self) { try await session.respond(to: "hello") }
        #expect(sink.requests.map(\.error) == ["ServerDown()"])
        #expect(sink.requests.first?.timeToFirstToken == nil)
    }

    @Test func wrappedAndUnwrappedSessionsGiveTheSameResults() async throws {
        let model = ScriptedModel.answering("Same answer.", clock: clock)
        let traced = session(model)
        let plain = LanguageModelSession(model: model, label: "planner", instructions: "Plan the day.")
        for prompt in ["one", "two"] {
            let a = try await traced.respond(to: prompt)
            let b = try await plain.respond(to: prompt)
            #expect(a.content == b.content)
        }
        #expect(traced.transcript == plain.transcript)
    }

    @Test func aDynamicProfileSwitchRecordsHandoffs() async throws {
        let large = ScriptedModel.answering("Long plan.", modelName: "large", clock: clock)
        let small = ScriptedModel.answering("Short.", modelName: "small", clock: clock)
        let turn = Counter()
        let tracer = Tracer(sink: sink, clock: clock)
        let session = LanguageModelSession(label: "planner", middleware: [TracingMiddleware(tracer: tracer)]) {
            Profile("planner") { Instructions("Plan the day.") }
                .economyMode(isEnabled: turn.value >= 2, model: small, promptWindow: 1)
                .model(large)
        }
        for prompt in ["a", "b", "c"] {
            _ = try await session.respond(to: prompt)
            turn.increment()
        }
        #expect(sink.requests.map(\.model) == ["large", "large", "small"])
        let handoffs = sink.handoffs
        #expect(handoffs.map(\.kind) == [.model])
        #expect(handoffs.first?.from == "scripted/large")
        #expect(handoffs.first?.to == "scripted/small")
        #expect(handoffs.first?.sessionID == sink.requests[0].sessionID)
        // Each request reuses the whole previous request, until the rolling window drops the first
        // exchanges: then no prefix is reused and the cache breaks.
        #expect(sink.requests.map(\.reusedPrefixEntries) == [0, 1, 0])
        #expect(sink.requests.map(\.transcriptEntries) == [1, 3, 1])
    }

    @Test func payloadsAreNotRecordedByDefault() async throws {
        let session = session(ScriptedModel.answering("secret plan", clock: clock), tools: [SearchTool()])
        _ = try await session.respond(to: "my password is hunter2")
        #expect(sink.payloads.isEmpty)
        #expect(!sink.recorded.contains { String(describing: $0).contains("hunter2") })
    }

    @Test func capturedPayloadsAreRedacted() async throws {
        let session = session(
            ScriptedModel.answering("ok", clock: clock), options: TracingOptions(capturePayloads: true),
            redaction: { $0.replacingOccurrences(of: "hunter2", with: "[REDACTED:password]") })
        _ = try await session.respond(to: "my password is hunter2")
        // The instructions are captured too, on the first request and whenever they change.
        #expect(sink.payloads.map(\.kind) == [.prompt, .instructions, .response])
        #expect(sink.payloads.map(\.text) == ["my password is [REDACTED:password]", "Plan the day.", "ok"])
        #expect(sink.payloads.first?.parentID == sink.requests.first?.requestID)
    }

    /// A reasoning model's thinking is output: time to first token ends at its first thought, its
    /// deltas are chunks, and its text is captured apart from the answer, which it is not part of.
    @Test func aReasoningModelsFirstTokenIsItsFirstThought() async throws {
        let model = ScriptedModel(clock: clock) { _ in
            // No `.outputStarted`: the first thought alone must end the wait for the first token.
            [
                .reasoningDelta("Capital of France; hunter2"), .reasoningDelta(" is no city."),
                .contentDelta("Paris"), .usage(TokenUsage(inputTokens: 12, outputTokens: 9)), .finished(reason: "stop"),
            ]
        }
        let session = session(
            model, options: TracingOptions(capturePayloads: true, recordChunks: true),
            redaction: { $0.replacingOccurrences(of: "hunter2", with: "[REDACTED:password]") })
        let response = try await session.respond(to: "Capital of France?")

        #expect(response.content == "Paris")
        let request = try #require(sink.requests.first)
        // 2 ms to the first event, the first thought; the answer came 0.4 ms later.
        #expect(request.timeToFirstToken == 2_000_000)
        #expect(request.dur == 2_800_000)
        #expect(sink.chunks.count == 3)
        #expect(sink.payloads.map(\.kind) == [.prompt, .instructions, .reasoning, .response])
        #expect(sink.payloads.map(\.text).suffix(2) == ["Capital of France; [REDACTED:password] is no city.", "Paris"])
    }
}

/// A counter shared with a profile closure.
final class Counter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}

@Suite("Tracing middleware: turns and the prompt prefix")
struct TurnAndPrefixTests {
    let sink = MemorySink()
    let clock = TestClock()

    /// Asks for `search` once per prompt, then answers.
    static let searchingModel = ScriptedModel { request in
        if request.hasToolOutputSinceLastPrompt { return [.contentDelta("Done."), .finished(reason: "stop")] }
        return [
            .toolCall(ToolCallRequest(id: "call-1", name: "search", arguments: #"{"query":"launch"}"#)),
            .finished(reason: "tool_calls"),
        ]
    }

    @Test func theToolRoundsOfOnePromptShareATurnAndTheNextPromptStartsOne() async throws {
        let tracer = Tracer(sink: sink, clock: clock)
        let session = LanguageModelSession(
            model: Self.searchingModel, label: "planner", tools: [SearchTool()], instructions: "Plan.",
            middleware: [TracingMiddleware(tracer: tracer)])
        _ = try await session.respond(to: "Plan launch")
        _ = try await session.respond(to: "And tomorrow?")

        let turns = sink.requests.map(\.turnID)
        try #require(turns.count == 4 && turns.allSatisfy { $0 != nil })
        #expect(turns[0] == turns[1])
        #expect(turns[2] == turns[3])
        #expect(turns[0] != turns[2])
        #expect(Set(turns).isDisjoint(with: sink.requests.map(\.requestID)))
    }

    @Test func prefixFingerprintsFollowTheInstructionsAndEveryToolDefinition() async throws {
        let tracer = Tracer(sink: sink, clock: clock)
        let middleware = TracingMiddleware(tracer: tracer)
        let describedOtherwise = RenamedDescriptionTool()
        let step = Mutex(0)
        let session = LanguageModelSession(label: "planner", middleware: [middleware]) {
            let round = step.withLock { value -> Int in
                defer { value += 1 }
                return value
            }
            // 0 and 1 alike; 2 changes a tool's description only; 3 changes the instructions.
            let tools: [any Tool] = round >= 2 ? [describedOtherwise] : [SearchTool()]
            let instructions = round >= 3 ? "Plan. Now: 09:41" : "Plan."
            return Profile("default") { Instructions(instructions) }.model(ScriptedModel.answering("ok")).tools(tools)
        }
        for prompt in ["a", "b", "c", "d"] { _ = try await session.respond(to: prompt) }

        let requests = sink.requests
        try #require(requests.count == 4)
        let tools = requests.map(\.toolsFingerprint)
        let instructions = requests.map(\.instructionsFingerprint)
        #expect(tools.allSatisfy { $0 != nil } && instructions.allSatisfy { $0 != nil })
        #expect(tools[0] == tools[1] && tools[1] != tools[2] && tools[2] == tools[3])
        #expect(instructions[0] == instructions[2] && instructions[2] != instructions[3])
        // Same names, another description: still a tools handoff, named by names and fingerprint.
        let handoffs = sink.handoffs.map(\.kind)
        #expect(handoffs == [.tools, .instructions])
        let toolsHandoff = try #require(sink.handoffs.first)
        #expect(toolsHandoff.from.hasPrefix("search#") && toolsHandoff.to.hasPrefix("search#"))
        #expect(toolsHandoff.from != toolsHandoff.to)
    }
}

/// `search` again, with another description: the same name and arguments, another definition.
struct RenamedDescriptionTool: Tool {
    var name: String { "search" }
    var description: String { "Searches notes and calendars." }
    var parameters: JSONSchema { .object([.init("query", .string())]) }

    func call(arguments: SearchArguments) async throws -> String { "3 notes about \(arguments.query)" }
}
