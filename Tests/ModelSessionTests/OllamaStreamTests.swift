import Foundation
import Testing

@testable import ModelSession

/// Ollama's native chat API (`/api/chat`): its JSON Lines stream, in the documented format, and
/// the request body the backend sends.
@Suite("Ollama's native chat stream")
struct OllamaStreamTests {
    let url = URL(string: "http://127.0.0.1:9/api/chat")!

    func assemble(_ body: String, chunkSize: Int = 7) throws -> [ModelEvent] {
        var assembler = OllamaStreamAssembler(url: url)
        var events: [ModelEvent] = []
        for line in try StreamParsingTests().parse(body, chunkSize: chunkSize, framing: .jsonLines).events {
            events += try assembler.consume(line)
        }
        return events + (try assembler.finish())
    }

    @Test("JSON Lines: one event a line in any chunking, CRLF or LF, blank lines skipped", arguments: [1, 5, 4096])
    func framing(size: Int) throws {
        let body = "{\"a\":1}\r\n\n{\"b\":\"data: x\"}\n  \n{\"c\":3}"
        let (events, pending) = try StreamParsingTests().parse(body, chunkSize: size, framing: .jsonLines)
        #expect(events.map(\.data) == [#"{"a":1}"#, #"{"b":"data: x"}"#])
        #expect(pending, "the last line has no end yet")
        #expect(throws: ServerSentEventParser.TooLarge.self) {
            try StreamParsingTests().parse(String(repeating: "x", count: 100), chunkSize: size, limit: 64, framing: .jsonLines)
        }
    }

    /// The last line's durations are nanoseconds: the prompt's evaluation and the generation
    /// become the server's timings, the model's load its wait before the prompt.
    @Test("content, counts and the server's durations from the done line")
    func contentAndDurations() throws {
        let body = """
            {"model":"llama3.2","created_at":"2023-08-04T08:52:19.385406455-07:00","message":{"role":"assistant","content":"The"},"done":false}
            {"model":"llama3.2","created_at":"2023-08-04T08:52:19.485406455-07:00","message":{"role":"assistant","content":" sky"},"done":false}
            {"model":"llama3.2","created_at":"2023-08-04T19:22:45.499127Z","message":{"role":"assistant","content":""},\
            "done":true,"done_reason":"length","total_duration":4883583458,"load_duration":1334875,"prompt_eval_count":26,\
            "prompt_eval_duration":342546000,"eval_count":282,"eval_duration":4535599000}

            """
        #expect(
            try assemble(body) == [
                .outputStarted, .contentDelta("The"), .contentDelta(" sky"),
                .usage(TokenUsage(inputTokens: 26, outputTokens: 282)),
                .serverTimings(
                    ServerTimingsReport(
                        promptTokens: 26, cachedTokens: 0, promptMilliseconds: 342_546_000 / 1e6, predictedTokens: 282,
                        predictedMilliseconds: 4_535_599_000 / 1e6, predictedPerSecond: 282 / 4.535599,
                        queueMilliseconds: 1_334_875 / 1e6)),
                .finished(reason: "length"),
            ])
        var assembler = OllamaStreamAssembler(url: url)
        _ = try assembler.consume(ServerSentEvent(data: body.split(separator: "\n")[0].description))
        #expect(assembler.responseModel == "llama3.2" && assembler.responseID == nil)
    }

    /// A thinking model (`"think": true`) streams its reasoning as `message.thinking` before the
    /// content; `/api/generate` as `thinking` beside `response`.
    @Test("thinking starts the output as reasoning, in chat and generate lines")
    func thinking() throws {
        let body = """
            {"model":"qwen3","created_at":"2025-05-29T09:35:56.8Z","message":{"role":"assistant","content":"","thinking":"Count"},"done":false}
            {"model":"qwen3","created_at":"2025-05-29T09:35:56.9Z","response":"","thinking":" the r's.","done":false}
            {"model":"qwen3","created_at":"2025-05-29T09:35:57.0Z","message":{"role":"assistant","content":"Three."},"done":false}
            {"model":"qwen3","created_at":"2025-05-29T09:35:57.1Z","message":{"role":"assistant","content":""},"done":true,\
            "done_reason":"stop","prompt_eval_count":12,"eval_count":20}

            """
        let events = try assemble(body)
        #expect(
            Array(events.prefix(4)) == [
                .outputStarted, .reasoningDelta("Count"), .reasoningDelta(" the r's."), .contentDelta("Three."),
            ])
        #expect(events.last == .finished(reason: "stop"))
    }

    /// Tool calls come whole, their arguments as a JSON object; Ollama gives them no id, so one is
    /// made from the response's first `created_at`, the call's index, name and arguments.
    @Test("a tool call's object arguments become text; its id is made")
    func toolCall() throws {
        let body = """
            {"model":"llama3.2","created_at":"2024-07-22T20:33:28.123648Z","message":{"role":"assistant","content":"",\
            "tool_calls":[{"function":{"name":"get_current_weather","arguments":{"location":"Paris, FR","format":"celsius"}}}]},"done":false}
            {"model":"llama3.2","created_at":"2024-07-22T20:33:28.2Z","message":{"role":"assistant","content":""},\
            "done_reason":"stop","done":true,"total_duration":885095291,"load_duration":3753500,"prompt_eval_count":122,\
            "prompt_eval_duration":328493000,"eval_count":33,"eval_duration":552222000}

            """
        let events = try assemble(body)
        let arguments = #"{"format":"celsius","location":"Paris, FR"}"#
        let id = ToolCallID.make(
            responseID: "2024-07-22T20:33:28.123648Z", index: 0, name: "get_current_weather", arguments: arguments)
        #expect(Array(events.prefix(2)) == [.outputStarted, .toolCall(ToolCallRequest(id: id, name: "get_current_weather", arguments: arguments))])
        #expect(events.last == .finished(reason: "stop"))
    }

    @Test("an error line ends the stream with the server's message; no done line is a truncated stream")
    func errorsAndTruncation() throws {
        do {
            _ = try assemble(#"{"error":"model \"nope\" not found, try pulling it first"}"# + "\n")
            Issue.record("expected serverError")
        } catch HTTPEndpoint.Error.serverError(_, let message) {
            #expect(message == #"model "nope" not found, try pulling it first"#)
        }
        do {
            _ = try assemble(#"{"model":"m","message":{"role":"assistant","content":"Hi"},"done":false}"# + "\n")
            Issue.record("expected truncatedStream")
        } catch HTTPEndpoint.Error.truncatedStream(let errorURL, _) {
            #expect(errorURL == url)
        }
        #expect(throws: HTTPEndpoint.Error.self, "a line that is not JSON") { try assemble("data: {}\n") }
    }

    /// The body: system instructions first, tool calls with object arguments, tool outputs with
    /// their tool's name, the options Ollama names `temperature` and `num_predict`.
    @Test("the request body Ollama's /api/chat reads")
    func requestBody() throws {
        let model = OllamaModel(baseURL: URL(string: "http://127.0.0.1:11434")!, modelName: "llama3.2")
        let tool = ToolDefinition(name: "get_weather", description: "Weather", parameters: #"{"type":"object"}"#)
        let call = ToolCallRequest(id: "call_1", name: "get_weather", arguments: #"{"city":"Oslo"}"#)
        var request = ModelRequest(
            instructions: "Be brief.",
            entries: [
                .prompt("Weather?"), .toolCalls([call]),
                .toolOutput(ToolOutput(callID: "call_1", toolName: "get_weather", content: "sunny")),
            ],
            tools: [tool], options: GenerationOptions(temperature: 0.5, maximumResponseTokens: 40))
        #expect(
            model.requestBody(for: request).compact()
                == #"{"model":"llama3.2","messages":[{"role":"system","content":"Be brief."},"#
                + #"{"role":"user","content":"Weather?"},{"role":"assistant","content":"","tool_calls":"#
                + #"[{"function":{"name":"get_weather","arguments":{"city":"Oslo"}}}]},"#
                + #"{"role":"tool","content":"sunny","tool_name":"get_weather"}],"stream":true,"#
                + #""tools":[{"type":"function","function":{"name":"get_weather","description":"Weather","#
                + #""parameters":{"type":"object"}}}],"options":{"temperature":0.5,"num_predict":40}}"#)
        request.options.toolChoice = ToolChoice.none
        #expect(!model.requestBody(for: request).compact().contains(#""tools""#), "no tool_choice: no tools sent")
    }
}
