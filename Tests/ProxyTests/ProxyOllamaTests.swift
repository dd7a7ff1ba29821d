import Foundation
import Testing
import ModelSession
import TestSupport

@testable import RecordingProxy

/// Ollama's native chat API (`POST /api/chat`) through the proxy: the official `ollama` Python
/// library drives a tool loop against the scripted upstream, which answers in Ollama's documented
/// format (JSON Lines, tool calls without ids, durations in nanoseconds).
@Suite(.serialized)
struct ProxyOllamaTests {
    @Test(arguments: [false, true])
    func toolLoopIsRecordedAndFoundByCheck(whole: Bool) throws {
        let upstream = try ScriptedUpstream()
        let proxy = try ProxyProcess(upstream: upstream.url)
        let seen = try PythonClients.run(
            "ollama_agent.py", [proxy.baseURL, "scripted-loop"] + (whole ? ["--whole"] : []))
        #expect(proxy.stop() == 0)
        let sdkRequests = try #require(seen["requests"] as? [[String: Any]])
        #expect(sdkRequests.count == 5)
        #expect(sdkRequests.last?["content"] as? String == "It is sunny in Paris.", "the client got its answer")

        let requests = try storeRows(proxy.storePath, "select * from request order by ts")
        try #require(requests.count == 5)
        #expect(requests.map { $0["provider"] as? String } == Array(repeating: "ollama", count: 5))
        #expect(requests.map { $0["error"] as? String } == Array(repeating: nil, count: 5))
        #expect(requests.map { $0["streamed"] as? Int } == Array(repeating: whole ? 0 : 1, count: 5))
        #expect(requests.map { $0["input_tokens"] as? Int } == [20, 30, 40, 50, 60])
        #expect(requests.map { $0["output_tokens"] as? Int } == sdkRequests.map { $0["eval_count"] as? Int })
        #expect(requests.map { $0["finish_reason"] as? String } == sdkRequests.map { $0["done_reason"] as? String })
        #expect(requests.map { $0["max_tokens"] as? Int } == Array(repeating: 64, count: 5), "options.num_predict")
        // The server's own durations, from nanoseconds; the model's load as its wait before the prompt.
        #expect(requests.map { $0["server_prompt_dur"] as? Int } == Array(repeating: 40_000_000, count: 5))
        #expect(requests.map { $0["server_predicted_dur"] as? Int } == Array(repeating: 180_000_000, count: 5))
        #expect(requests.map { $0["server_queue_dur"] as? Int } == Array(repeating: 2_500_000, count: 5))
        #expect(Set(requests.compactMap { $0["session_id"] as? Int }).count == 1, "one conversation")
        #expect(Set(requests.compactMap { $0["turn_id"] as? Int }).count == 1, "one turn and its tool rounds")

        // Each call is answered by the next request's tool message, which names the tool, not the call.
        let calls = try storeRows(proxy.storePath, "select * from tool_call order by ts")
        try #require(calls.count == 4)
        #expect(calls.map { $0["request_id"] as? Int } == requests.prefix(4).map { $0["request_id"] as? Int })
        #expect(Set(calls.compactMap { $0["call_id"] as? String }).count == 4, "each call an id of its own")
        #expect(calls.map { $0["name"] as? String } == Array(repeating: "get_weather", count: 4))
        #expect(calls.map { $0["output_bytes"] as? Int } == Array(repeating: "Sunny, 21 degrees in Paris.".utf8.count, count: 4))
        #expect(Set(calls.compactMap { $0["arguments_fingerprint"] as? String }).count == 1)

        let kinds = try findingKinds(proxy.storePath)
        #expect(kinds.contains("loop"), "check found: \(kinds)")
    }

    /// The JSON Lines stream, written in pieces that split its lines, reaches the client byte for
    /// byte; its first line with output times the first token.
    @Test func streamReachesTheClientByteForByte() throws {
        let upstream = try ScriptedUpstream()
        let proxy = try ProxyProcess(upstream: upstream.url)
        let body = #"{"model":"scripted-clean","messages":[{"role":"user","content":"Paris?"},"#
            + #"{"role":"assistant","content":"","tool_calls":[{"function":{"name":"get_weather","#
            + #""arguments":{"city":"Paris"}}}]},{"role":"tool","tool_name":"get_weather","content":"Sunny."}]}"#
        let direct = try curl(["-d", body, upstream.url + "/api/chat"])
        let proxied = try curl(["-d", body, proxy.baseURL + "/api/chat"])
        #expect(proxy.stop() == 0)
        #expect(direct.out.contains(#""content": " in Paris.""#))
        #expect(Array(proxied.out.utf8) == Array(direct.out.utf8))
        let row = try #require(try storeRows(proxy.storePath, "select * from request").first)
        #expect(row["response_model"] as? String == "scripted-clean")
        #expect(row["output_tokens"] as? Int == 9)
        #expect(row["streamed"] as? Int == 1, "Ollama streams unless told not to")
        #expect((row["ttft"] as? Int ?? 0) > 0)
    }

    /// `/api/generate`, streamed and whole: its `response` text, counts and durations are recorded
    /// as the chat's are; the system text is the instructions, the prompt the one prompt.
    @Test func generateIsRecordedStreamedAndWhole() throws {
        let upstream = try ScriptedUpstream()
        let proxy = try ProxyProcess(upstream: upstream.url, arguments: ["--capture-payloads"])
        let streamed = #"{"model":"scripted-gen","system":"Be brief.","prompt":"Weather in Paris?","options":{"num_predict":16}}"#
        let whole = #"{"model":"scripted-gen","prompt":"Weather in Paris?","stream":false}"#
        let direct = try curl(["-d", streamed, upstream.url + "/api/generate"])
        let proxied = try curl(["-d", streamed, proxy.baseURL + "/api/generate"])
        let wholeOut = try curl(["-d", whole, proxy.baseURL + "/api/generate"])
        #expect(proxy.stop() == 0)
        #expect(Array(proxied.out.utf8) == Array(direct.out.utf8))
        #expect(wholeOut.out.contains(#""response": "It is sunny in Paris.""#))
        let rows = try storeRows(proxy.storePath, "select * from request order by ts")
        try #require(rows.count == 2)
        #expect(rows.map { $0["provider"] as? String } == ["ollama", "ollama"])
        #expect(rows.map { $0["streamed"] as? Int } == [1, 0])
        #expect(rows.map { $0["max_tokens"] as? Int } == [16, nil])
        #expect(rows.map { $0["input_tokens"] as? Int } == [12, 12])
        #expect(rows.map { $0["output_tokens"] as? Int } == [6, 6])
        #expect(rows.map { $0["server_prompt_dur"] as? Int } == [30_000_000, 30_000_000])
        #expect(rows.map { $0["server_queue_dur"] as? Int } == [1_500_000, 1_500_000])
        #expect(rows.map { $0["finish_reason"] as? String } == ["stop", "stop"])
        #expect(rows.map { $0["error"] as? String } == [nil, nil])
        #expect((rows[0]["ttft"] as? Int ?? 0) > 0 && rows[1]["ttft"] as? Int == nil, "a whole answer has no first token")
        #expect(rows[0]["instructions_fingerprint"] as? String != rows[1]["instructions_fingerprint"] as? String)
        let responses = try storeRows(proxy.storePath, "select text from payload where kind = 'response'")
        #expect(responses.map { $0["text"] as? String } == ["It is sunny in Paris.", "It is sunny in Paris."])
    }

    @Test func upstreamDownGivesTheClient502InOllamasErrorShape() throws {
        let proxy = try ProxyProcess(upstream: "http://127.0.0.1:1")
        let answer = try curl([
            "-w", "\n%{http_code}", "-d", #"{"model":"m","messages":[{"role":"user","content":"hi"}]}"#,
            proxy.baseURL + "/api/chat",
        ])
        #expect(proxy.stop() == 0)
        let lines = answer.out.split(separator: "\n")
        #expect(lines.last == "502")
        let error = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect((error["error"] as? String ?? "").hasPrefix("the recording proxy could not reach the upstream"))
        let row = try #require(try storeRows(proxy.storePath, "select * from request").first)
        #expect(row["provider"] as? String == "ollama")
        #expect((row["error"] as? String ?? "").hasPrefix("upstream unreachable"))
    }

    /// Two calls in one response: each tool message answers the call of the tool it names, in
    /// whatever order; without a name, the first call not yet answered; `tool_call_id` wins.
    @Test func toolMessagesAnswerTheCallsTheyName() throws {
        let body = #"""
            {"model":"m","stream":false,"options":{"temperature":0.2,"num_predict":32},"messages":[
            {"role":"system","content":"Be brief."},{"role":"user","content":"Paris and a clock?"},
            {"role":"assistant","content":"","tool_calls":[
              {"function":{"name":"get_weather","arguments":{"city":"Paris"}}},
              {"function":{"name":"get_time","arguments":{"zone":"CET"}}}]},
            {"role":"tool","tool_name":"get_time","content":"12:00"},
            {"role":"tool","tool_name":"get_weather","content":"Sunny."},
            {"role":"assistant","content":"","tool_calls":[
              {"function":{"name":"get_weather","arguments":{"city":"Rome"}}},
              {"function":{"name":"get_weather","arguments":{"city":"Oslo"}},"id":"call_given"}]},
            {"role":"tool","tool_call_id":"call_given","content":"Snow."},
            {"role":"tool","content":"Rain."}]}
            """#
        let observed = try #require(ObservedRequest.ollamaChat(Data(body.utf8), sessionHeader: nil))
        #expect(observed.streams == false)
        #expect(observed.request.instructions == "Be brief.")
        #expect(observed.request.options.temperature == 0.2)
        #expect(observed.request.options.maximumResponseTokens == 32)
        let calls = observed.request.entries.flatMap { entry -> [ToolCallRequest] in
            if case .toolCalls(let calls) = entry { calls } else { [] }
        }
        let outputs = observed.request.entries.compactMap { entry -> ToolOutput? in
            if case .toolOutput(let output) = entry { output } else { nil }
        }
        try #require(calls.count == 4 && outputs.count == 4)
        #expect(calls.map(\.arguments) == [#"{"city":"Paris"}"#, #"{"zone":"CET"}"#, #"{"city":"Rome"}"#, #"{"city":"Oslo"}"#])
        #expect(Set(calls.map(\.id)).count == 4)
        #expect(calls[3].id == "call_given")
        #expect(outputs.map(\.callID) == [calls[1].id, calls[0].id, calls[3].id, calls[2].id])
        #expect(outputs.map(\.toolName) == ["get_time", "get_weather", "get_weather", "get_weather"])

        // The ids are those the proxy gave the calls in the responses: the first call of the
        // response that follows this history is the conversation's fifth.
        let response = #"{"model":"m","created_at":"2026-12-06T04:00:00Z","message":{"role":"assistant","content":"","#
            + #""tool_calls":[{"function":{"name":"get_weather","arguments":{"city":"Paris"}}}]},"#
            + #""done":true,"done_reason":"stop","eval_count":5}"#
        let url = URL(string: "http://127.0.0.1:9/api/chat")!
        let first = try #require(WholeResponse.ollama(response, url: url, callsBefore: 0))
        #expect(first.toolCalls.map(\.id) == [calls[0].id])
        let fifth = try #require(WholeResponse.ollama(response, url: url, callsBefore: 4))
        #expect(fifth.toolCalls.first?.id != calls[0].id)
        #expect(fifth.finishReason == "stop" && fifth.usage.outputTokens == 5 && fifth.model == "m")
        #expect(WholeResponse.ollama(#"{"model":"m","done":false}"#, url: url, callsBefore: 0) == nil)
    }
}
