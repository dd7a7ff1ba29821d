import Foundation
import ModelSession
import Testing

@testable import RecordingProxy

/// The legacy completions API (`POST …/completions`) as the proxy routes and reads it; the real
/// server's answers are in `ProxyRealServerTests.openAISDKCompletionsAreRecorded`.
struct ProxyCompletionsTests {
    @Test(arguments: [
        ("POST", "/v1/completions", ProxyRoute.completions),
        ("POST", "/openai/deployments/code/completions/?api-version=2024-02-01", .completions),
        ("POST", "/v1/chat/completions", .chatCompletions),
        ("GET", "/v1/completions", .passthrough),
        ("POST", "/v1/completions/abc", .passthrough),
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
    }
}
