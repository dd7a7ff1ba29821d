import Foundation
import Testing
import TestSupport

/// The proxy in front of the scripted upstream (Tests/ProxyClients/scripted_upstream.py): tool
/// calls, which SmolLM2 does not make, exact bytes, and faults.
@Suite(.serialized)
struct ProxyScriptedUpstreamTests {
    @Test func clientGetsTheUpstreamsBytesExactly() throws {
        let upstream = try ScriptedUpstream()
        let proxy = try ProxyProcess(upstream: upstream.url)
        let body = #"{"model":"scripted-bytes","messages":[{"role":"user","content":"hi"}],"stream":true}"#
        let direct = try curl(["-d", body, upstream.url + "/v1/chat/completions"])
        let proxied = try curl(["-d", body, proxy.openAIBaseURL + "/chat/completions"])
        #expect(proxy.stop() == 0)
        #expect(!direct.out.isEmpty)
        #expect(Array(proxied.out.utf8) == Array(direct.out.utf8))
        let row = try #require(try storeRows(proxy.storePath, "select * from request").first)
        #expect(row["finish_reason"] as? String == "stop")
        #expect(row["output_tokens"] as? Int == 3)
        #expect(row["response_id"] as? String == "chatcmpl-fixed")
    }

    /// Two clients, one after the other, each on a connection of its own: the second request
    /// goes over the upstream connection the first opened, which the proxy kept.
    @Test func anUpstreamConnectionKeptAliveIsReused() throws {
        let upstream = try ScriptedUpstream()
        let proxy = try ProxyProcess(upstream: upstream.url)
        func connection() throws -> String? {
            let head = try curl(["-D", "-", "-o", "/dev/null", proxy.openAIBaseURL + "/models"])
            return head.out.split(separator: "\r\n").first { $0.lowercased().hasPrefix("x-upstream-connection:") }
                .map { String($0.split(separator: ":")[1]).trimmingCharacters(in: .whitespaces) }
        }
        let first = try #require(try connection())
        let second = try #require(try connection())
        #expect(proxy.stop() == 0)
        #expect(first == second, "a new upstream connection for the second request")
    }

    /// An IPv6 listen address: clients of `[::1]` get the upstream's answer; IPv4 is not served.
    @Test func listensOnAnIPv6Address() throws {
        let upstream = try ScriptedUpstream()
        let proxy = try ProxyProcess(upstream: upstream.url, arguments: ["--listen", "[::1]:0"])
        let models = try curl(["-g", "-o", "/dev/null", "-w", "%{http_code}", "http://[::1]:\(proxy.port)/v1/models"])
        let overIPv4 = try curl(["-o", "/dev/null", "http://127.0.0.1:\(proxy.port)/v1/models"])
        #expect(proxy.stop() == 0)
        #expect(models.out == "200")
        #expect(overIPv4.status == 7, "curl could not connect over IPv4")
    }

    /// The proxy asks for usage the client did not ask for, records it, and takes the usage-only
    /// chunk out again: the client's bytes are those it gets from the upstream without the proxy.
    @Test func usageTheClientDidNotAskForIsRecordedAndStrippedByteForByte() throws {
        let upstream = try ScriptedUpstream()
        let proxy = try ProxyProcess(upstream: upstream.url)
        let body = #"{"model":"scripted-usage","messages":[{"role":"user","content":"hi"}],"stream":true}"#
        let asking = #"{"model":"scripted-usage","messages":[{"role":"user","content":"hi"}],"stream":true,"#
            + #""stream_options":{"include_usage":true}}"#
        let direct = try curl(["-d", body, upstream.url + "/v1/chat/completions"])
        let proxied = try curl(["-d", body, proxy.openAIBaseURL + "/chat/completions"])
        let directAsking = try curl(["-d", asking, upstream.url + "/v1/chat/completions"])
        let proxiedAsking = try curl(["-d", asking, proxy.openAIBaseURL + "/chat/completions"])
        #expect(proxy.stop() == 0)
        #expect(!direct.out.contains(#""usage""#))
        #expect(Array(proxied.out.utf8) == Array(direct.out.utf8))
        #expect(directAsking.out.contains(#""choices":[],"usage""#))
        #expect(directAsking.out.contains(#"}],"usage":null}"#))
        #expect(Array(proxiedAsking.out.utf8) == Array(directAsking.out.utf8), "asked for, the chunk stays")
        let rows = try storeRows(proxy.storePath, "select * from request order by ts")
        try #require(rows.count == 2)
        for row in rows {
            #expect(row["input_tokens"] as? Int == 7)
            #expect(row["output_tokens"] as? Int == 2)
            #expect(row["finish_reason"] as? String == "stop")
            #expect(row["error"] as? String == nil)
        }
    }

    @Test(arguments: [false, true])
    func toolLoopIsFoundByCheck(streamed: Bool) throws {
        let upstream = try ScriptedUpstream()
        let proxy = try ProxyProcess(upstream: upstream.url)
        let seen = try PythonClients.run(
            "openai_agent.py", [proxy.openAIBaseURL, "scripted-loop"] + (streamed ? ["--stream"] : []))
        #expect(proxy.stop() == 0)
        let sdkRequests = try #require(seen["requests"] as? [[String: Any]])
        #expect(sdkRequests.count == 5)

        let requests = try storeRows(proxy.storePath, "select * from request order by ts")
        try #require(requests.count == 5)
        #expect(Set(requests.compactMap { $0["session_id"] as? Int }).count == 1, "one conversation")
        #expect(Set(requests.compactMap { $0["turn_id"] as? Int }).count == 1, "one turn and its tool rounds")
        #expect(requests.map { $0["finish_reason"] as? String } == sdkRequests.map { $0["finish_reason"] as? String })
        let calls = try storeRows(proxy.storePath, "select * from tool_call order by ts")
        #expect(calls.map { $0["call_id"] as? String } == ["call_0", "call_1", "call_2", "call_3"])
        #expect(calls.allSatisfy { $0["name"] as? String == "get_weather" })
        #expect(calls.allSatisfy { $0["output_bytes"] as? Int == "Sunny, 21 degrees in Paris.".utf8.count })
        #expect(Set(calls.compactMap { $0["arguments_fingerprint"] as? String }).count == 1)
        // Each call hangs under the request that asked for it.
        #expect(calls.map { $0["request_id"] as? Int } == requests.prefix(4).map { $0["request_id"] as? Int })

        let kinds = try findingKinds(proxy.storePath)
        #expect(kinds.contains("loop"), "check found: \(kinds)")
    }

    @Test func anthropicToolLoopIsFoundByCheck() throws {
        let upstream = try ScriptedUpstream()
        let proxy = try ProxyProcess(upstream: upstream.url)
        let seen = try PythonClients.run("anthropic_agent.py", [proxy.baseURL, "scripted-loop"])
        #expect(proxy.stop() == 0)
        let sdkRequests = try #require(seen["requests"] as? [[String: Any]])
        let requests = try storeRows(proxy.storePath, "select * from request order by ts")
        try #require(requests.count == 5)
        #expect(requests.map { $0["provider"] as? String } == Array(repeating: "anthropic", count: 5))
        #expect(requests.map { $0["finish_reason"] as? String } == sdkRequests.map { $0["stop_reason"] as? String })
        #expect(Set(requests.compactMap { $0["turn_id"] as? Int }).count == 1, "one turn and its tool rounds")
        let calls = try storeRows(proxy.storePath, "select * from tool_call order by ts")
        #expect(calls.map { $0["call_id"] as? String } == ["toolu_0", "toolu_1", "toolu_2", "toolu_3"])
        #expect(Set(calls.compactMap { $0["arguments_fingerprint"] as? String }).count == 1)
        let kinds = try findingKinds(proxy.storePath)
        #expect(kinds.contains("loop"), "check found: \(kinds)")
    }

    @Test func cleanAgentGivesNoFinding() throws {
        let upstream = try ScriptedUpstream()
        let proxy = try ProxyProcess(upstream: upstream.url)
        _ = try PythonClients.run("openai_agent.py", [proxy.openAIBaseURL, "scripted-clean", "--stream"])
        #expect(proxy.stop() == 0)
        #expect(try storeRows(proxy.storePath, "select * from tool_call").count == 1)
        let check = try runProgram(
            try builtProgram("trace-report"), ["check", "--fail-on-findings", proxy.storePath])
        #expect(check.status == 0, "check found: \(check.out)")
    }

    /// A thinking model streams its reasoning first: the first token is its first thought, not the
    /// answer's first word 0.6 s later, and its text is captured apart from the answer's; whole,
    /// the message's `reasoning_content` is.
    @Test(arguments: [true, false])
    func reasoningIsTheFirstTokenAndIsCapturedApart(streamed: Bool) throws {
        let upstream = try ScriptedUpstream()
        let proxy = try ProxyProcess(upstream: upstream.url, arguments: ["--capture-payloads"])
        let body = #"{"model":"scripted-reasoning","messages":[{"role":"user","content":"hi"}],"stream":\#(streamed)}"#
        let proxied = try curl(["-d", body, proxy.openAIBaseURL + "/chat/completions"])
        #expect(proxy.stop() == 0)
        let reasoning = streamed ? #""reasoning_content": " a city.""# : #""reasoning_content": "The user"#
        #expect(proxied.out.contains(reasoning), "the client gets the reasoning as it came")
        let row = try #require(try storeRows(proxy.storePath, "select * from request").first)
        if streamed {
            let (ttft, dur) = (row["ttft"] as? Int ?? 0, row["dur"] as? Int ?? 0)
            #expect(ttft > 0 && ttft < 300_000_000, "the first reasoning chunk came at once")
            #expect(dur >= 600_000_000, "the answer came 0.6 s after the first thought")
        }
        let payloads = try capturedPayloads(proxy.storePath)
        #expect(payloads.map(\.kind) == ["prompt", "reasoning", "response"])
        #expect(payloads.map(\.text).suffix(2) == ["The user wants a city.", "Paris"])
    }

    @Test func malformedStreamPassesThroughAndIsRecordedAsFailed() throws {
        let upstream = try ScriptedUpstream()
        let proxy = try ProxyProcess(upstream: upstream.url)
        let body = #"{"model":"scripted-malformed","messages":[{"role":"user","content":"hi"}],"stream":true}"#
        let proxied = try curl(["-d", body, proxy.openAIBaseURL + "/chat/completions"])
        #expect(proxy.stop() == 0)
        #expect(proxied.out == "data: {not json\n\ndata: [DONE]\n\n")
        let row = try #require(try storeRows(proxy.storePath, "select * from request").first)
        #expect((row["error"] as? String ?? "").hasPrefix("malformed upstream stream"))
    }

    /// An error the upstream reports inside a stream it began with 200 (OpenAI's error event,
    /// Ollama's error line) is recorded as the upstream's error, not as a malformed stream; the
    /// output before it still timed the first token.
    @Test func errorInsideAStreamIsRecordedAsTheUpstreamsError() throws {
        let upstream = try ScriptedUpstream()
        let proxy = try ProxyProcess(upstream: upstream.url)
        let chat = #"{"model":"scripted-stream-error","messages":[{"role":"user","content":"hi"}],"stream":true}"#
        let ollama = #"{"model":"scripted-stream-error","messages":[{"role":"user","content":"hi"}]}"#
        let chatOut = try curl(["-d", chat, proxy.openAIBaseURL + "/chat/completions"])
        let ollamaOut = try curl(["-d", ollama, proxy.baseURL + "/api/chat"])
        #expect(proxy.stop() == 0)
        #expect(chatOut.out.hasSuffix(#"data: {"error": {"message": "the server is overloaded", "type": "server_error"}}"# + "\n\n"))
        #expect(ollamaOut.out.hasSuffix(#"{"error":"the model runner stopped"}"# + "\n"))
        let rows = try storeRows(proxy.storePath, "select * from request order by ts")
        #expect(rows.map { $0["error"] as? String } == [
            "upstream reported an error in the stream: the server is overloaded",
            "upstream reported an error in the stream: the model runner stopped",
        ])
        #expect(rows.allSatisfy { ($0["ttft"] as? Int ?? 0) > 0 }, "the content before the error came")
    }

    @Test func upstreamDownGivesTheClient502WithJSON() throws {
        // Port 1 on loopback: nothing listens there.
        let proxy = try ProxyProcess(upstream: "http://127.0.0.1:1")
        let body = #"{"model":"m","messages":[{"role":"user","content":"hi"}]}"#
        let answer = try curl(["-w", "\n%{http_code}", "-d", body, proxy.openAIBaseURL + "/chat/completions"])
        #expect(proxy.stop() == 0)
        let lines = answer.out.split(separator: "\n")
        #expect(lines.last == "502")
        let error = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect((error["error"] as? [String: Any])?["message"] is String)
        let row = try #require(try storeRows(proxy.storePath, "select * from request").first)
        #expect((row["error"] as? String ?? "").hasPrefix("upstream unreachable"))
    }

    @Test func clientDisconnectCancelsTheUpstreamTransfer() throws {
        let upstream = try ScriptedUpstream()
        let proxy = try ProxyProcess(upstream: upstream.url)
        let body = #"{"model":"scripted-slow","messages":[{"role":"user","content":"hi"}],"stream":true}"#
        let cut = try curl(["--max-time", "1.5", "-d", body, proxy.openAIBaseURL + "/chat/completions"])
        #expect(cut.status == 28, "curl gave up after 1.5 s")
        // The upstream sees its transfer closed at its next write (one a second).
        let deadline = Date().addingTimeInterval(5)
        var upstreamOutput = ""
        while !upstreamOutput.contains("cut "), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            upstreamOutput = (try? String(contentsOfFile: upstream.directory.path("out"), encoding: .utf8)) ?? ""
        }
        #expect(upstreamOutput.contains("cut /v1/chat/completions"))
        #expect(proxy.stop() == 0)
        let row = try #require(try storeRows(proxy.storePath, "select * from request").first)
        #expect((row["error"] as? String ?? "").hasPrefix("cancelled"))
        #expect((row["dur"] as? Int ?? .max) < 4_000_000_000)
        // The first chunk comes at once, the next a second later: the first token is timed at
        // its arrival, not when the proxy reads it back after the next chunk.
        let ttft = try #require(row["ttft"] as? Int)
        #expect(ttft > 0 && ttft < 500_000_000, "time to first token \(ttft) ns")
    }

    @Test func sigtermLetsARequestInFlightFinish() throws {
        let upstream = try ScriptedUpstream()
        let proxy = try ProxyProcess(upstream: upstream.url)
        let body = #"{"model":"scripted-many","messages":[{"role":"user","content":"hi"}],"stream":true}"#
        let directory = try TemporaryDirectory()
        let client = try startProgram(
            "/usr/bin/curl", ["-sS", "--no-buffer", "-d", body, proxy.openAIBaseURL + "/chat/completions"],
            outputIn: directory)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(proxy.stop() == 0)
        client.waitUntilExit()
        let received = try String(contentsOfFile: directory.path("out"), encoding: .utf8)
        #expect(received.hasSuffix("data: [DONE]\n\n"), "the 2-second stream reached the client whole")
        let row = try #require(try storeRows(proxy.storePath, "select * from request").first)
        #expect(row["error"] as? String == nil)
        #expect(row["finish_reason"] as? String == "stop")
    }

    @Test func sigtermDrainsAndRecordsWhatWasCut() throws {
        let upstream = try ScriptedUpstream()
        let proxy = try ProxyProcess(upstream: upstream.url, arguments: ["--drain-timeout", "1"])
        let body = #"{"model":"scripted-slow","messages":[{"role":"user","content":"hi"}],"stream":true}"#
        let directory = try TemporaryDirectory()
        let client = try startProgram(
            "/usr/bin/curl", ["-sS", "--no-buffer", "-d", body, proxy.openAIBaseURL + "/chat/completions"],
            outputIn: directory)
        Thread.sleep(forTimeInterval: 1.5)
        #expect(proxy.stop() == 0)
        client.waitUntilExit()
        #expect(proxy.output.contains("stopped"))
        let row = try #require(try storeRows(proxy.storePath, "select * from request").first)
        #expect((row["error"] as? String ?? "").hasPrefix("cut"))
        #expect((row["ttft"] as? Int ?? 0) > 0)
    }
}
