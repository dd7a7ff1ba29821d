import Foundation
import Testing
import TestSupport

/// The OpenAI Responses API (`POST /v1/responses`) through the proxy: against the scripted upstream
/// for function calls, which SmolLM2 does not make, and against llama.cpp, which serves the route.
@Suite(.serialized)
struct ProxyResponsesScriptedTests {
    @Test(arguments: [false, true])
    func functionCallAndItsOutputAreRecorded(streamed: Bool) throws {
        let upstream = try ScriptedUpstream()
        let proxy = try ProxyProcess(upstream: upstream.url)
        let stream = streamed ? #","stream":true"# : ""
        let first = #"{"model":"scripted-responses","input":"Weather in Paris?""# + stream + "}"
        let second = #"{"model":"scripted-responses","input":[{"role":"user","content":"Weather in Paris?"},"#
            + #"{"type":"function_call","call_id":"call_r0","name":"get_weather","arguments":"{\"city\": \"Paris\"}"},"#
            + #"{"type":"function_call_output","call_id":"call_r0","output":"Sunny."}]"# + stream + "}"
        let url = proxy.openAIBaseURL + "/responses"
        let answers = [try curl(["-d", first, url]), try curl(["-d", second, url])]
        #expect(proxy.stop() == 0)
        #expect(answers.allSatisfy { $0.status == 0 })

        let rows = try storeRows(proxy.storePath, "select * from request order by ts")
        try #require(rows.count == 2)
        #expect(rows.map { $0["provider"] as? String } == ["openai", "openai"])
        #expect(rows.map { $0["model"] as? String } == ["scripted-responses", "scripted-responses"])
        #expect(rows.map { $0["input_tokens"] as? Int } == [20, 30])
        #expect(rows.map { $0["cached_input_tokens"] as? Int } == [4, 4])
        #expect(rows.map { $0["output_tokens"] as? Int } == [9, 9])
        #expect(rows.map { $0["finish_reason"] as? String } == ["completed", "completed"])
        #expect(rows.map { $0["response_id"] as? String } == ["resp_scripted_0", "resp_scripted_1"])
        #expect(rows.map { $0["streamed"] as? Int } == [streamed ? 1 : 0, streamed ? 1 : 0])
        #expect(rows.allSatisfy { $0["error"] as? String == nil }, "\(rows.map { $0["error"] })")
        #expect(rows[0]["session_id"] as? Int == rows[1]["session_id"] as? Int, "the second extends the first")
        let calls = try storeRows(proxy.storePath, "select * from tool_call")
        let call = try #require(calls.first)
        #expect(calls.count == 1)
        #expect(call["call_id"] as? String == "call_r0")
        #expect(call["name"] as? String == "get_weather")
        #expect(call["output_bytes"] as? Int == "Sunny.".utf8.count)
        #expect(call["request_id"] as? Int == rows[0]["request_id"] as? Int)
    }

    /// A reasoning item streams first: its summary and text deltas are the first token, not the
    /// answer 0.6 s later, and are captured as the reasoning, apart from the answer.
    @Test func reasoningDeltasAreTheFirstTokenAndCapturedApart() throws {
        let upstream = try ScriptedUpstream()
        let proxy = try ProxyProcess(upstream: upstream.url, arguments: ["--capture-payloads"])
        let body = #"{"model":"scripted-reasoning","input":"Weather in Paris?","stream":true}"#
        let answer = try curl(["-d", body, proxy.openAIBaseURL + "/responses"])
        #expect(proxy.stop() == 0)
        #expect(answer.out.contains("response.reasoning_text.delta"))
        let row = try #require(try storeRows(proxy.storePath, "select * from request").first)
        let (ttft, dur) = (row["ttft"] as? Int ?? 0, row["dur"] as? Int ?? 0)
        #expect(ttft > 0 && ttft < 300_000_000, "the reasoning summary came at once")
        #expect(dur >= 600_000_000, "the answer came 0.6 s after it")
        let payloads = try capturedPayloads(proxy.storePath)
        #expect(payloads.map(\.kind) == ["prompt", "reasoning", "response"])
        #expect(payloads.map(\.text).suffix(2) == ["Weather lookup.", "Sunny."])
    }

    /// A request that continues a stored response sends only what is new: it joins the
    /// conversation that ended that response, after its history, and its tool result completes
    /// the call that response asked for; a conversation in between is not confused with it.
    @Test func aRequestContinuingAStoredResponseJoinsItsConversation() throws {
        let upstream = try ScriptedUpstream()
        let proxy = try ProxyProcess(upstream: upstream.url)
        let url = proxy.openAIBaseURL + "/responses"
        let first = try curl(["-d", #"{"model":"scripted-chain","input":"Weather in Paris?"}"#, url])
        let other = try curl(["-d", #"{"model":"scripted-chain","input":"Weather in Oslo?"}"#, url])
        let firstID = try #require(
            (try JSONSerialization.jsonObject(with: Data(first.out.utf8)) as? [String: Any])?["id"] as? String)
        let continued = #"{"model":"scripted-chain","previous_response_id":"\#(firstID)","input":["#
            + #"{"type":"function_call_output","call_id":"call_r0","output":"Sunny."}]}"#
        let third = try curl(["-d", continued, url])
        #expect(proxy.stop() == 0)
        #expect([first, other, third].allSatisfy { $0.status == 0 })

        let rows = try storeRows(proxy.storePath, "select * from request order by ts")
        try #require(rows.count == 3)
        let sessions = rows.map { $0["session_id"] as? Int }
        #expect(sessions[2] == sessions[0], "the continuation is in the conversation of \(firstID)")
        #expect(sessions[1] != sessions[0], "the other conversation is its own")
        // The history it continues (the first request's one entry) is reused whole.
        #expect(rows[2]["reused_prefix_entries"] as? Int == 1)
        #expect(rows[2]["turn_id"] as? Int == rows[0]["turn_id"] as? Int, "a tool round of the same turn")
        let call = try #require(try storeRows(proxy.storePath, "select * from tool_call").first)
        #expect(call["call_id"] as? String == "call_r0")
        #expect(call["output_bytes"] as? Int == "Sunny.".utf8.count)
        #expect(call["request_id"] as? Int == rows[0]["request_id"] as? Int)
    }
}

@Suite(.serialized, .llamaServer)
struct ProxyResponsesRealServerTests {
    @Test func streamedResponseIsRecordedWithWhatTheClientSaw() throws {
        let server = try LlamaServerTrait.server().baseURL.absoluteString
        let proxy = try ProxyProcess(upstream: server)
        let body = #"{"model":"smollm2","input":"Count from one to twenty.","max_output_tokens":5,"stream":true}"#
        let result = try curl(["-d", body, proxy.openAIBaseURL + "/responses"])
        #expect(proxy.stop() == 0)
        let completed = try #require(
            result.out.split(separator: "\n").first { $0.hasPrefix(#"data: {"type":"response.completed""#) })
        let event = try #require(try JSONSerialization.jsonObject(with: Data(completed.dropFirst(6).utf8)) as? [String: Any])
        let response = try #require(event["response"] as? [String: Any])
        let usage = try #require(response["usage"] as? [String: Any])

        let rows = try storeRows(proxy.storePath, "select * from request")
        let row = try #require(rows.first)
        #expect(rows.count == 1)
        // The model may stop before the cap on another machine: never more than it, and what the client saw.
        #expect((1...5).contains(row["output_tokens"] as? Int ?? 0), "max_output_tokens 5")
        #expect(row["output_tokens"] as? Int == usage["output_tokens"] as? Int)
        #expect(row["input_tokens"] as? Int == usage["input_tokens"] as? Int)
        #expect(row["finish_reason"] as? String == response["status"] as? String)
        #expect(row["response_id"] as? String == response["id"] as? String)
        #expect((row["ttft"] as? Int ?? 0) > 0)
        #expect(row["error"] as? String == nil)
    }

    @Test func openAISDKSeesWhatTheStoreHolds() throws {
        let server = try LlamaServerTrait.server().baseURL.absoluteString
        let proxy = try ProxyProcess(upstream: server)
        let seen = try PythonClients.run("openai_responses.py", [proxy.openAIBaseURL])
        #expect(proxy.stop() == 0)
        let turns = [seen["whole"], seen["streamed"]].compactMap { $0 as? [String: Any] }
        let rows = try storeRows(proxy.storePath, "select * from request order by ts")
        try #require(rows.count == 2 && turns.count == 2)
        for (row, saw) in zip(rows, turns) {
            #expect(row["response_id"] as? String == saw["id"] as? String)
            #expect(row["finish_reason"] as? String == saw["status"] as? String)
            #expect(row["input_tokens"] as? Int == saw["input_tokens"] as? Int)
            #expect(row["output_tokens"] as? Int == saw["output_tokens"] as? Int)
            #expect(row["error"] as? String == nil)
        }
        #expect(rows.map { $0["streamed"] as? Int } == [0, 1])
        // The second turn sends the first's answer back: one conversation, two turns, the history reused.
        #expect(rows[0]["session_id"] as? Int == rows[1]["session_id"] as? Int)
        #expect(rows[0]["turn_id"] as? Int != rows[1]["turn_id"] as? Int)
        #expect(rows[1]["reused_prefix_entries"] as? Int == 1)
    }
}
