import Foundation
import Testing
import TestSupport

/// What the proxy derives from traffic alone: conversations by history prefix or by name, a
/// handoff when the instructions change, a tool call from a response and the next request's
/// result, and the upstream's request id.
@Suite(.serialized)
struct ProxyDerivationTests {
    @Test func changedInstructionsAreAHandoffInTheSameConversation() throws {
        let upstream = try ScriptedUpstream()
        let proxy = try ProxyProcess(upstream: upstream.url)
        let url = proxy.openAIBaseURL + "/chat/completions"
        let first = #"{"model":"scripted-clean","messages":[{"role":"system","content":"Plan A."},"#
            + #"{"role":"user","content":"Weather in Paris?"}]}"#
        let second = #"{"model":"scripted-clean","messages":[{"role":"system","content":"Plan B."},"#
            + #"{"role":"user","content":"Weather in Paris?"},{"role":"assistant","content":null,"#
            + #""tool_calls":[{"id":"call_0","type":"function","function":{"name":"get_weather","#
            + #""arguments":"{\"city\": \"Paris\"}"}}]},{"role":"tool","tool_call_id":"call_0","content":"Sunny."}]}"#
        let named = #"{"model":"scripted-clean","messages":[{"role":"user","content":"Weather in Rome?"}]}"#
        for body in [first, second] { _ = try curl(["-d", body, url]) }
        _ = try curl(["-H", "X-Session-Id: nightly-agent", "-d", named, url])
        #expect(proxy.stop() == 0)

        let requests = try storeRows(proxy.storePath, "select * from request order by ts")
        try #require(requests.count == 3)
        #expect(requests[0]["session_id"] as? Int == requests[1]["session_id"] as? Int)
        #expect(requests[0]["turn_id"] as? Int == requests[1]["turn_id"] as? Int, "a tool round of the same turn")
        #expect(requests[1]["reused_prefix_entries"] as? Int == 0, "the instructions changed: no prefix is reused")
        #expect(requests[0]["instructions_fingerprint"] as? String != requests[1]["instructions_fingerprint"] as? String)
        let handoffs = try storeRows(proxy.storePath, "select * from handoff")
        #expect(handoffs.map { $0["kind"] as? String } == ["instructions"])

        let calls = try storeRows(proxy.storePath, "select * from tool_call")
        #expect(calls.map { $0["name"] as? String } == ["get_weather"])
        #expect(calls.first?["request_id"] as? Int == requests[0]["request_id"] as? Int)
        #expect(calls.first?["output_bytes"] as? Int == 6)

        let sessions = try storeRows(proxy.storePath, "select * from session order by ts")
        #expect(sessions.map { $0["label"] as? String } == ["proxy", "nightly-agent"])

        // The upstream's request id, recorded inside the request; no credential anywhere.
        let instants = try storeRows(proxy.storePath, "select * from instant order by ts")
        #expect(instants.first?["name"] as? String == "proxy.upstream_response")
        let metadata = instants.first?["metadata"] as? String ?? ""
        #expect(metadata.contains(#""x-request-id":"req-scripted-0""#))
    }

    @Test func anthropicToolResultMarkedAsErrorIsAFailedCall() throws {
        let upstream = try ScriptedUpstream()
        let proxy = try ProxyProcess(upstream: upstream.url)
        let url = proxy.baseURL + "/v1/messages"
        let ask = #"{"model":"scripted-clean","max_tokens":64,"messages":[{"role":"user","content":"Paris?"}]}"#
        let answer = #"{"model":"scripted-clean","max_tokens":64,"messages":[{"role":"user","content":"Paris?"},"#
            + #"{"role":"assistant","content":[{"type":"tool_use","id":"toolu_0","name":"get_weather","#
            + #""input":{"city":"Paris"}}]},{"role":"user","content":[{"type":"tool_result","#
            + #""tool_use_id":"toolu_0","is_error":true,"content":"weather service down"}]}]}"#
        for body in [ask, answer] { _ = try curl(["-H", "Content-Type: application/json", "-d", body, url]) }
        #expect(proxy.stop() == 0)
        let calls = try storeRows(proxy.storePath, "select * from tool_call")
        #expect(calls.map { $0["outcome"] as? String } == ["error"])
        #expect(calls.first?["output_bytes"] as? Int == "weather service down".utf8.count)
        let requests = try storeRows(proxy.storePath, "select * from request order by ts")
        #expect(requests.map { $0["finish_reason"] as? String } == ["tool_use", "end_turn"])
    }
}
