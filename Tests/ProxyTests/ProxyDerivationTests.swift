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
}
