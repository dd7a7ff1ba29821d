import Foundation
import ModelSession
import Testing

@testable import RecordingProxy

/// Completions of one prompt as the proxy routes and reads them: OpenAI's legacy API
/// (`POST …/completions`) and llama.cpp's native one (`POST /completion`). The real server's
/// answers are in `ProxyRealServerTests` (`openAISDKCompletionsAreRecorded`,
/// `llamaNativeCompletionsAreRecorded`).
struct ProxyCompletionsTests {
    @Test(arguments: [
        ("POST", "/v1/completions", ProxyRoute.completions),
        ("POST", "/openai/deployments/code/completions/?api-version=2024-02-01", .completions),
        ("POST", "/v1/chat/completions", .chatCompletions),
        ("GET", "/v1/completions", .passthrough),
        ("POST", "/v1/completions/abc", .passthrough),
        ("POST", "/completion", .llamaCompletion),
        ("POST", "/completion?x=1", .llamaCompletion),
        ("GET", "/completion", .passthrough),
    ])
    func routeIsChosenByMethodAndPath(method: String, path: String, route: ProxyRoute) {
        #expect(ProxyRoute(method: method, path: path) == route)
    }

    @Test func onePromptIsOneEntryWithTheRequestsSettings() throws {
        let body = #"{"model":"m","prompt":"Once upon","max_tokens":12,"temperature":0.5,"stream":true,"user":"e"}"#
        let observed = try #require(ObservedRequest.openAICompletions(Data(body.utf8), sessionHeader: nil))
        #expect(observed.model == "m")
        #expect(observed.streams)
        #expect(observed.sessionName == "e")
        #expect(observed.request.entries == [.prompt("Once upon")])
        #expect(observed.request.options.maximumResponseTokens == 12)
        #expect(observed.request.options.temperature == 0.5)
        #expect(observed.request.instructions == nil)
        #expect(observed.request.tools.isEmpty)
    }

    @Test(arguments: [
        (#"["one","two"]"#, #"["one","two"]"#),
        ("[1,2,3]", "[1,2,3]"),
        (#"[[1,2],[3]]"#, "[[1,2],[3]]"),
    ])
    func aPromptListIsRecordedAsItsJSON(prompt: String, recorded: String) throws {
        let body = #"{"model":"m","prompt":\#(prompt)}"#
        let observed = try #require(ObservedRequest.openAICompletions(Data(body.utf8), sessionHeader: "s"))
        #expect(observed.request.entries == [.prompt(recorded)])
        #expect(!observed.streams)
        #expect(observed.sessionName == "s", "the header names the session")
    }

    @Test func aSuffixIsAnEntryBeforeThePrompt() throws {
        let body = #"{"model":"m","prompt":"def f():\n    return","suffix":"\nprint(f())"}"#
        let observed = try #require(ObservedRequest.openAICompletions(Data(body.utf8), sessionHeader: nil))
        #expect(observed.request.entries == [.prompt("\nprint(f())"), .prompt("def f():\n    return")])
    }

    @Test(arguments: [#"{"model":"m"}"#, "[1]", "not json", #"{"model":"m","messages":[]}"#])
    func aBodyWithoutAPromptIsNotRead(body: String) {
        #expect(ObservedRequest.openAICompletions(Data(body.utf8), sessionHeader: nil) == nil)
        #expect(ObservedRequest.llamaCompletion(Data(body.utf8), sessionHeader: nil) == nil)
    }

    @Test(arguments: [
        (#""n_predict":12"#, 12 as Int?),
        (#""max_tokens":7"#, 7),
        (#""n_predict":-1"#, nil),
        (#""temperature":0.5"#, nil),
    ])
    func aLlamaCompletionsCapIsItsNPredict(member: String, cap: Int?) throws {
        let body = #"{"prompt":[1,2,"three"],"stream":true,\#(member)}"#
        let observed = try #require(ObservedRequest.llamaCompletion(Data(body.utf8), sessionHeader: "s"))
        #expect(observed.request.options.maximumResponseTokens == cap)
        #expect(observed.request.entries == [.prompt(#"[1,2,"three"]"#)])
        #expect(observed.model == "", "the body names no model: the server has one")
        #expect(observed.streams)
        #expect(observed.sessionName == "s")
    }

    /// A native stream as llama.cpp writes it: content in every event, and in the last
    /// (`"stop": true`) the counts, the timings and why it stopped; no `[DONE]`.
    @Test func aLlamaCompletionStreamGivesTextCountsAndTimings() throws {
        let final = #"""
            {"index":0,"content":"","stop":true,"model":"smol.gguf","tokens_predicted":2,\#
            "tokens_evaluated":5,"stop_type":"limit","timings":{"cache_n":4,"prompt_n":1,"prompt_ms":14.0,\#
            "prompt_per_token_ms":14.0,"prompt_per_second":71.2,"predicted_n":2,"predicted_ms":32.5,\#
            "predicted_per_token_ms":16.2,"predicted_per_second":61.3}}
            """#
        var assembler = LlamaCompletionStreamAssembler(url: URL(string: "http://127.0.0.1/completion")!)
        var events: [ModelEvent] = []
        let first = #"{"index":0,"content":" Par","stop":false}"#
        for data in [first, #"{"index":0,"content":"is","stop":false}"#, final] {
            events += try assembler.consume(ServerSentEvent(data: data))
        }
        events += try assembler.finish()
        let timings = ServerTimingsReport(
            promptTokens: 1, cachedTokens: 4, promptMilliseconds: 14.0, predictedTokens: 2, predictedMilliseconds: 32.5,
            predictedPerSecond: 61.3)
        let usage = TokenUsage(inputTokens: 5, cachedInputTokens: 4, outputTokens: 2)
        let text: [ModelEvent] = [.outputStarted, .contentDelta(" Par"), .contentDelta("is")]
        #expect(events == text + [.usage(usage), .serverTimings(timings), .finished(reason: "length")])
        #expect(assembler.responseModel == "smol.gguf")
    }

    @Test func aLlamaCompletionStreamWithoutItsLastEventOrWithAnErrorIsMalformed() throws {
        var cut = LlamaCompletionStreamAssembler(url: URL(string: "http://127.0.0.1/completion")!)
        _ = try cut.consume(ServerSentEvent(data: #"{"content":"Hi","stop":false}"#))
        #expect(throws: (any Error).self) { try cut.finish() }
        var failed = LlamaCompletionStreamAssembler(url: URL(string: "http://127.0.0.1/completion")!)
        #expect(throws: (any Error).self) {
            try failed.consume(ServerSentEvent(data: #"{"error":{"code":500,"message":"slot busy"}}"#))
        }
        #expect(throws: (any Error).self) { try failed.consume(ServerSentEvent(data: "not json")) }
    }
}
