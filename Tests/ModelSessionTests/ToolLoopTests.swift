import ModelSession
import Synchronization
import Testing

@Suite("Tool-call loop")
struct ToolLoopTests {
    @Test("a tool call runs the tool, records the exchange and asks the model again")
    func loopCompletes() async throws {
        let weather = WeatherTool()
        let model = ScriptedModel(script: [
            [
                call("get_weather", #"{"city":"Paris"}"#),
                .usage(TokenUsage(inputTokens: 10, outputTokens: 5)),
                .finished(reason: "tool_calls"),
            ],
            [
                .contentDelta("Sunny "), .contentDelta("in Paris."),
                .usage(TokenUsage(inputTokens: 30, outputTokens: 4)),
                .finished(reason: "stop"),
            ],
        ])
        let session = LanguageModelSession(model: model, tools: [weather], instructions: "Use tools.")
        let response = try await session.respond(to: "Weather in Paris?")

        #expect(response.content == "Sunny in Paris.")
        #expect(response.toolRounds == 1)
        #expect(response.usage == TokenUsage(inputTokens: 40, outputTokens: 9))
        #expect(weather.calls.value == ["Paris"])
        #expect(
            session.transcript.entries == [
                .prompt("Weather in Paris?"),
                .toolCalls([ToolCallRequest(id: "c1", name: "get_weather", arguments: #"{"city":"Paris"}"#)]),
                .toolOutput(
                    ToolOutput(
                        callID: "c1", toolName: "get_weather", content: "Sunny, 21 degrees C in Paris.")),
                .response("Sunny in Paris."),
            ])
        #expect(Array(session.transcript) == response.transcriptEntries)
        // The second request sees the tool exchange.
        #expect(model.requests.count == 2)
        #expect(model.requests[1].entries.count == 3)
        #expect(model.requests[1].tools.map(\.name) == ["get_weather"])
    }

    @Test("a model that never stops calling tools hits the round limit")
    func roundLimit() async throws {
        let looping = Array(
            repeating: [call("get_weather", #"{"city":"Oslo"}"#), .finished(reason: "tool_calls")], count: 10)
        let session = LanguageModelSession(
            model: ScriptedModel(script: looping), tools: [WeatherTool()], maximumToolRounds: 3)
        do {
            _ = try await session.respond(to: "loop")
            Issue.record("expected exceededMaximumToolRounds")
        } catch LanguageModelSession.GenerationError.exceededMaximumToolRounds(let limit, _, let lastCalls) {
            #expect(limit == 3)
            #expect(lastCalls == ["get_weather"])
        }
        #expect(session.transcript.isEmpty, "a failed request leaves no half exchange behind")
        #expect(!session.isResponding)
    }

    @Test("unknown tools, bad arguments and failing tools are typed errors")
    func toolErrors() async throws {
        let cases: [(ModelEvent, String)] = [
            (call("nope", "{}"), "unknownTool"),
            (call("get_weather", #"{"town":1}"#), "toolArgumentsInvalid"),
            (call("broken", "{}"), "toolCallFailed"),
        ]
        for (event, expected) in cases {
            let session = LanguageModelSession(
                model: ScriptedModel(script: [[event, .finished(reason: "tool_calls")]]),
                tools: [WeatherTool(), FailingTool()])
            do {
                _ = try await session.respond(to: "x")
                Issue.record("expected \(expected)")
            } catch let error as LanguageModelSession.GenerationError {
                #expect("\(error)".isEmpty == false)
                switch error {
                case .unknownTool: #expect(expected == "unknownTool")
                case .toolArgumentsInvalid: #expect(expected == "toolArgumentsInvalid")
                case .toolCallFailed: #expect(expected == "toolCallFailed")
                default: Issue.record("unexpected \(error)")
                }
            }
        }
    }

    @Test("middleware wraps the model and every tool of each request")
    func middlewareWraps() async throws {
        let recorder = RecordingMiddleware()
        let model = ScriptedModel(script: [
            [call("get_weather", #"{"city":"Rome"}"#), .finished(reason: "tool_calls")],
            [.contentDelta("ok"), .finished(reason: "stop")],
        ])
        let session = LanguageModelSession(
            model: model, label: "trip", tools: [WeatherTool(), FailingTool()], middleware: [recorder])
        _ = try await session.respond(to: "Rome?")
        #expect(recorder.wrappedTools.withLock { $0 } == ["get_weather", "broken"])
        #expect(recorder.requests.withLock { $0.count } == 2)
        #expect(recorder.events.withLock { $0.last } == .finished(reason: "stop"))
        #expect(session.info.label == "trip")
    }

    @Test("a history transform changes what the model sees, not the transcript")
    func historyTransform() async throws {
        let model = ScriptedModel()
        let profile = Profile { Instructions("x") }
            .model(model)
            .historyTransform { entries in entries.filter { if case .response = $0 { false } else { true } } }
        let session = LanguageModelSession(profile: profile)
        _ = try await session.respond(to: "one")
        _ = try await session.respond(to: "two")
        #expect(model.requests[1].entries == [.prompt("one"), .prompt("two")])
        #expect(session.transcript.count == 4)
    }

    @Test("transforms apply outermost first, so the closest has the last word")
    func transformOrder() async throws {
        let model = ScriptedModel()
        let profile = Profile { Instructions("x") }
            .historyTransform { Array($0.suffix(1)) }  // closest: keep one
            .model(model)
            .historyTransform { $0 + [.prompt("extra")] }  // outer: add one
        _ = try await LanguageModelSession(profile: profile).respond(to: "hi")
        #expect(model.requests[0].entries == [.prompt("extra")])
    }

    @Test("streaming yields growing snapshots and collect returns the response")
    func streaming() async throws {
        let script: [[ModelEvent]] = [
            [.contentDelta("a"), .contentDelta("b"), .contentDelta("c"), .finished(reason: "stop")]
        ]
        let session = LanguageModelSession(model: ScriptedModel(script: script))
        var snapshots: [String] = []
        for try await snapshot in session.streamResponse(to: "abc") { snapshots.append(snapshot.content) }
        #expect(snapshots == ["a", "ab", "abc"])
        let collected = try await session.streamResponse(to: "again").collect()
        #expect(collected.content == "answer from fake-model")
        #expect(session.transcript.count == 4)
    }

    @Test("JSON schemas render in property order")
    func schemaText() {
        let schema = JSONSchema.object([
            .init("city", .string(description: "City \"name\"")),
            .init("days", .integer(), isOptional: true),
            .init("units", .string(choices: ["C", "F"])),
        ])
        #expect(
            schema.jsonText
                == #"{"type":"object","properties":{"city":{"type":"string","description":"City \"name\""},"#
                + #""days":{"type":"integer"},"units":{"type":"string","enum":["C","F"]}},"#
                + #""required":["city","units"],"additionalProperties":false}"#)
    }

    @Test("requiredOnce asks for a tool until one has answered since the last prompt")
    func requiredOnce() {
        let tools = [WeatherTool().definition]
        let options = GenerationOptions(toolChoice: .requiredOnce)
        let first = ModelRequest(entries: [.prompt("a")], tools: tools, options: options)
        let output = ToolOutput(callID: "1", toolName: "get_weather", content: "x")
        let afterTool = ModelRequest(
            entries: [.prompt("a"), .toolCalls([]), .toolOutput(output)], tools: tools, options: options)
        let nextTurn = ModelRequest(
            entries: afterTool.entries + [.response("r"), .prompt("b")], tools: tools, options: options)
        #expect(first.effectiveToolChoice == .required)
        #expect(afterTool.effectiveToolChoice == ToolChoice.none)
        #expect(nextTurn.effectiveToolChoice == .required)
    }

    @Test("a second request while one runs is a typed error")
    func concurrentRequests() async throws {
        let model = GatedModel()
        let session = LanguageModelSession(model: model)
        async let first = session.respond(to: "slow")
        // The first request is in the model, and stays there until released: no sleep decides the order.
        await model.requestArrived()
        await #expect(throws: LanguageModelSession.GenerationError.self) {
            try await session.respond(to: "too soon")
        }
        model.release()
        #expect(try await first.content == "done")
        #expect(session.transcript.count == 2)
    }
}

/// Holds its first request until released, and tells when that request has reached it, so a test
/// orders two requests by events rather than by sleeping. Later requests are answered at once: a
/// session that let a second request through would get an answer, not wait forever.
final class GatedModel: LanguageModel {
    let provider = "fake"
    let modelName = "gated"
    private let arrivals: AsyncStream<Void>
    private let arrival: AsyncStream<Void>.Continuation
    private let gate: AsyncStream<Void>
    private let opening: AsyncStream<Void>.Continuation
    private let requests = Mutex(0)

    init() {
        (arrivals, arrival) = AsyncStream<Void>.makeStream()
        (gate, opening) = AsyncStream<Void>.makeStream()
    }

    func stream(_ request: ModelRequest) -> AsyncThrowingStream<ModelEvent, any Error> {
        let isFirst = requests.withLock { count in
            count += 1
            return count == 1
        }
        if isFirst { arrival.yield() }
        let gate = self.gate
        return AsyncThrowingStream { continuation in
            let task = Task {
                if isFirst {
                    for await _ in gate { break }
                }
                continuation.yield(.contentDelta("done"))
                continuation.yield(.finished(reason: "stop"))
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Returns once the first request has called `stream`.
    func requestArrived() async {
        for await _ in arrivals { return }
    }

    /// Lets the first request answer.
    func release() { opening.yield() }
}
