import Foundation
import Testing
import TestSupport

/// Clients through the proxy to the real llama.cpp server: curl, and the official openai and
/// anthropic Python SDKs. The store must hold what each client saw.
@Suite(.serialized, .llamaServer)
struct ProxyRealServerTests {
    let server: String

    init() throws {
        server = try LlamaServerTrait.server().baseURL.absoluteString
    }

    @Test func curlStreamIsRecordedWithWhatTheClientSaw() throws {
        let proxy = try ProxyProcess(upstream: server, arguments: ["--capture-payloads"])
        let body = #"""
            {"model":"smollm2","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Say hi"}],
             "max_tokens":12,"stream":true,"stream_options":{"include_usage":true}}
            """#
        let result = try curl([
            "-H", "Content-Type: application/json", "-H", "Authorization: Bearer sk-proxy-test-secret",
            "-d", body, proxy.openAIBaseURL + "/chat/completions",
        ])
        #expect(result.status == 0)
        #expect(proxy.stop() == 0)

        // What curl received, read as a client reads it.
        var text = ""
        var finish: String?
        var usage: [String: Any]?
        for line in result.out.split(separator: "\n") where line.hasPrefix("data: {") {
            let event = try #require(try JSONSerialization.jsonObject(with: Data(line.dropFirst(6).utf8)) as? [String: Any])
            for choice in event["choices"] as? [[String: Any]] ?? [] {
                text += (choice["delta"] as? [String: Any])?["content"] as? String ?? ""
                finish = choice["finish_reason"] as? String ?? finish
            }
            usage = event["usage"] as? [String: Any] ?? usage
        }
        #expect(result.out.hasSuffix("data: [DONE]\n\n"))

        let rows = try storeRows(proxy.storePath, "select * from request")
        let row = try #require(rows.first)
        #expect(rows.count == 1)
        #expect(row["provider"] as? String == "openai")
        #expect(row["model"] as? String == "smollm2")
        #expect(row["finish_reason"] as? String == finish)
        #expect(row["output_tokens"] as? Int == usage?["completion_tokens"] as? Int)
        #expect(row["input_tokens"] as? Int == usage?["prompt_tokens"] as? Int)
        #expect((row["ttft"] as? Int ?? 0) > 0)
        #expect(row["error"] as? String == nil)
        #expect(try capturedPayloads(proxy.storePath).first { $0.kind == "response" }?.text == text)
        // Credentials are forwarded, never recorded.
        let dump = try runProgram("/usr/bin/sqlite3", [proxy.storePath, ".dump"])
        #expect(!dump.out.contains("sk-proxy-test-secret"))
    }

    @Test func curlWholeResponseIsRecordedAndOtherPathsPassThroughUnrecorded() throws {
        let proxy = try ProxyProcess(upstream: server)
        let body = #"{"model":"smollm2","messages":[{"role":"user","content":"Say hi"}],"max_tokens":8}"#
        let whole = try curl(["-H", "Content-Type: application/json", "-d", body, proxy.openAIBaseURL + "/chat/completions"])
        let models = try curl([proxy.openAIBaseURL + "/models"])
        // `/v1/models` carries the server's clock ("created"), so two fetches can differ by a
        // second; `/props` is the same on every fetch, so it is the byte-for-byte witness.
        let props = try curl([proxy.baseURL + "/props"])
        let direct = try curl([server + "/props"])
        #expect(proxy.stop() == 0)

        let answer = try #require(try JSONSerialization.jsonObject(with: Data(whole.out.utf8)) as? [String: Any])
        let usage = try #require(answer["usage"] as? [String: Any])
        let choice = try #require((answer["choices"] as? [[String: Any]])?.first)
        let rows = try storeRows(proxy.storePath, "select * from request")
        #expect(rows.count == 1, "neither the models listing nor the props is a model request")
        let row = try #require(rows.first)
        #expect(row["output_tokens"] as? Int == usage["completion_tokens"] as? Int)
        #expect(row["input_tokens"] as? Int == usage["prompt_tokens"] as? Int)
        #expect(row["finish_reason"] as? String == choice["finish_reason"] as? String)
        #expect(row["response_id"] as? String == answer["id"] as? String)
        #expect(row["streamed"] as? Int == 0)
        let listing = try #require(try JSONSerialization.jsonObject(with: Data(models.out.utf8)) as? [String: Any])
        #expect((listing["data"] as? [Any])?.isEmpty == false, "the models listing reached the client")
        #expect(!props.out.isEmpty && props.out == direct.out, "a passed-through body is the upstream's, byte for byte")
    }

    @Test func openAISDKSeesWhatTheStoreHolds() throws {
        let proxy = try ProxyProcess(upstream: server)
        let seen = try PythonClients.run("openai_chat.py", [proxy.openAIBaseURL])
        #expect(proxy.stop() == 0)
        let plain = try #require(seen["plain"] as? [String: Any])
        let streamed = try #require(seen["streamed"] as? [String: Any])
        let all = try storeRows(proxy.storePath, "select * from request order by ts")
        try #require(all.count == 3, "the whole turn, the warm-up stream, the streamed turn")
        let rows = [all[0], all[2]]
        #expect(all[1]["session_id"] as? Int != rows[0]["session_id"] as? Int, "the warm-up is a conversation of its own")
        for (row, saw) in zip(rows, [plain, streamed]) {
            #expect(row["finish_reason"] as? String == saw["finish_reason"] as? String)
            #expect(row["output_tokens"] as? Int == saw["output_tokens"] as? Int)
            #expect(row["input_tokens"] as? Int == saw["input_tokens"] as? Int)
        }
        // The second turn extends the first: one conversation, two turns, the history reused.
        #expect(rows[0]["session_id"] as? Int == rows[1]["session_id"] as? Int)
        #expect(rows[0]["turn_id"] as? Int != rows[1]["turn_id"] as? Int)
        #expect(rows[1]["reused_prefix_entries"] as? Int == 1)
        #expect(rows[1]["streamed"] as? Int == 1)
        // Time to first token, the proxy's against the SDK's own (from its call to the first delta).
        let proxyTTFT = try #require(rows[1]["ttft"] as? Int)
        let sdkTTFT = try #require(streamed["ttft_ns"] as? Int)
        // The SDK's wait holds the proxy's and more: its own request building, two loopback hops and
        // its parsing of the stream (measured 1-11 ms on this machine, more under load). The proxy's
        // own added latency is measured in benchmarks/proxy-overhead.sh, not here.
        #expect(sdkTTFT - proxyTTFT > -1_000_000 && sdkTTFT - proxyTTFT < 25_000_000,
                "proxy \(proxyTTFT) ns, SDK \(sdkTTFT) ns")
    }

    /// An SDK stream without `include_usage`: the proxy records its token counts, and the SDK sees
    /// the chunks it sees without the proxy (none with usage, none without choices).
    @Test func openAISDKStreamWithoutUsageIsRecordedWithTokens() throws {
        let direct = try PythonClients.run("openai_stream_without_usage.py", [server + "/v1"])
        let proxy = try ProxyProcess(upstream: server)
        let seen = try PythonClients.run("openai_stream_without_usage.py", [proxy.openAIBaseURL])
        #expect(proxy.stop() == 0)
        let directChunks = try #require(direct["chunks"] as? [[String: Any]])
        let seenChunks = try #require(seen["chunks"] as? [[String: Any]])
        #expect(!directChunks.isEmpty)
        #expect(!seenChunks.isEmpty)
        #expect(seenChunks.allSatisfy { $0["usage"] as? Bool == false })
        // Each chunk has the one choice, through the proxy as directly: no usage-only chunk reached the SDK.
        #expect(directChunks.allSatisfy { $0["choices"] as? Int == 1 && $0["usage"] as? Bool == false })
        #expect(seenChunks.allSatisfy { $0["choices"] as? Int == 1 })

        let whole = try #require(seen["whole"] as? [String: Any])
        let rows = try storeRows(proxy.storePath, "select * from request where streamed = 1")
        let row = try #require(rows.first)
        #expect(rows.count == 1)
        // Whether the model reaches the cap of 5 depends on the tokens this machine's model writes;
        // what the proxy records must agree with what the SDK saw either way.
        let output = try #require(row["output_tokens"] as? Int)
        #expect((1...5).contains(output), "max_tokens 5")
        #expect(row["input_tokens"] as? Int == whole["input_tokens"] as? Int)
        #expect(row["finish_reason"] as? String == seen["finish_reason"] as? String)
        if seen["finish_reason"] as? String == "length" { #expect(output == 5, "cut at the cap: \(seen)") }
        #expect(row["error"] as? String == nil)
    }

    /// The legacy completions API (`client.completions.create`), whole and streamed with a suffix,
    /// as code-completion clients call it: each is a request the store holds as the SDK saw it, and
    /// the SDK sees the chunks it sees without the proxy.
    @Test func openAISDKCompletionsAreRecorded() throws {
        let direct = try PythonClients.run("openai_completions.py", [server + "/v1"])
        let proxy = try ProxyProcess(upstream: server, arguments: ["--capture-payloads"])
        let seen = try PythonClients.run("openai_completions.py", [proxy.openAIBaseURL])
        #expect(proxy.stop() == 0)
        #expect(seen["chunks_with_usage"] as? Int == direct["chunks_with_usage"] as? Int)
        let plain = try #require(seen["plain"] as? [String: Any])
        let streamed = try #require(seen["streamed"] as? [String: Any])
        let rows = try storeRows(proxy.storePath, "select * from request order by ts")
        try #require(rows.count == 2, "the whole completion and the streamed one")
        for (row, saw) in zip(rows, [plain, streamed]) {
            #expect(row["provider"] as? String == "openai")
            #expect(row["model"] as? String == "smollm2")
            #expect(row["finish_reason"] as? String == saw["finish_reason"] as? String)
            #expect(row["output_tokens"] as? Int == saw["output_tokens"] as? Int)
            #expect(row["input_tokens"] as? Int == saw["input_tokens"] as? Int)
            #expect(row["max_tokens"] as? Int == 8)
            #expect(row["server_prompt_dur"] as? Int != nil, "llama.cpp's timings")
            #expect(row["error"] as? String == nil)
            #expect(try responseTexts(proxy.storePath, of: row) == [saw["text"] as? String])
        }
        #expect(rows[0]["streamed"] as? Int == 0)
        #expect(rows[0]["ttft"] as? Int == nil, "a whole response has no first token")
        #expect(rows[1]["streamed"] as? Int == 1)
        #expect((rows[1]["ttft"] as? Int ?? 0) > 0)
        #expect(rows[1]["transcript_entries"] as? Int == 2, "the suffix and the prompt")
        #expect(rows[0]["session_id"] as? Int != rows[1]["session_id"] as? Int, "no history: two sessions")
        let prompts = try storeRows(proxy.storePath, "select text from payload where kind = 'prompt' order by ts")
        let expected = ["The three primary colours are", "def add(a, b):\n    return"]
        #expect(prompts.map { $0["text"] as? String } == expected)
    }

    /// llama.cpp's native completion API (`POST /completion`), whole and streamed, as its own
    /// clients call it: the store holds what curl saw.
    @Test func llamaNativeCompletionsAreRecorded() throws {
        let proxy = try ProxyProcess(upstream: server, arguments: ["--capture-payloads"])
        var seen: [(text: String, last: [String: Any])] = []
        for stream in [false, true] {
            let body = #"{"prompt":"The three primary colours are","n_predict":6,"stream":\#(stream)}"#
            let url = proxy.baseURL + "/completion"
            let result = try curl(["-H", "Content-Type: application/json", "-d", body, url])
            #expect(result.status == 0)
            // A stream's events, or the whole answer.
            let events = result.out.split(separator: "\n").filter { $0.hasPrefix("data: ") }
            let texts = stream ? events.map { String($0.dropFirst(6)) } : [result.out]
            let objects = try texts.map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
            let text = objects.map { $0["content"] as? String ?? "" }.joined()
            seen.append((text, try #require(objects.last)))
        }
        #expect(proxy.stop() == 0)
        let rows = try storeRows(proxy.storePath, "select * from request order by ts")
        try #require(rows.count == 2, "the whole completion and the streamed one")
        for (row, saw) in zip(rows, seen) {
            #expect(row["provider"] as? String == "llama.cpp")
            #expect(row["response_model"] as? String == saw.last["model"] as? String)
            #expect(row["input_tokens"] as? Int == saw.last["tokens_evaluated"] as? Int)
            #expect(row["output_tokens"] as? Int == saw.last["tokens_predicted"] as? Int)
            let cut = saw.last["stop_type"] as? String == "limit"
            #expect(row["finish_reason"] as? String == (cut ? "length" : "stop"))
            #expect(row["max_tokens"] as? Int == 6)
            #expect(row["server_prompt_dur"] as? Int != nil, "llama.cpp's timings")
            #expect(row["error"] as? String == nil)
            #expect(try responseTexts(proxy.storePath, of: row) == [saw.text])
        }
        #expect(rows[0]["streamed"] as? Int == 0)
        #expect(rows[0]["ttft"] as? Int == nil, "a whole response has no first token")
        #expect(rows[1]["streamed"] as? Int == 1)
        #expect((rows[1]["ttft"] as? Int ?? 0) > 0)
    }

    /// Model requests whose bodies the proxy cannot read reach the server all the same, and the
    /// client gets its answer; the store holds no request for them but counts them, so the report
    /// says that the trace is incomplete. A JSON object without the API's input is no generation
    /// (Ollama loads a model so): forwarded, and neither recorded nor counted.
    @Test func unreadableRequestsAreForwardedAndCounted() throws {
        let proxy = try ProxyProcess(upstream: server)
        let bodies = [
            ("/chat/completions", "{not json"), ("/completions", #"{"model":"smollm2","prompt":"cut"#),
            ("/completions", #"{"model":"smollm2"}"#),
        ]
        for (path, body) in bodies {
            let arguments = [
                "-o", "/dev/null", "-w", "%{http_code}", "-H", "Content-Type: application/json", "-d", body,
            ]
            let direct = try curl(arguments + [server + "/v1" + path])
            let proxied = try curl(arguments + [proxy.openAIBaseURL + path])
            #expect(proxied.out == direct.out && direct.out.hasPrefix("4"), "\(path): \(proxied.out), \(direct.out)")
        }
        #expect(proxy.stop() == 0)
        #expect(try storeRows(proxy.storePath, "select * from request").isEmpty)
        let dropped = try storeRows(
            proxy.storePath, "select sink, reason, sum(count) as n from dropped group by sink, reason")
        #expect(dropped.count == 1)
        #expect(dropped.first?["sink"] as? String == "proxy")
        #expect(dropped.first?["reason"] as? String == "unreadable_request")
        #expect(dropped.first?["n"] as? Int == 2)
        let summary = try runProgram(try builtProgram("trace-report"), ["summary", proxy.storePath])
        #expect(summary.out.contains("no requests recorded (2 events were dropped)"), "\(summary.out)")
    }

    @Test func anthropicSDKSeesWhatTheStoreHolds() throws {
        let proxy = try ProxyProcess(upstream: server)
        let seen = try PythonClients.run("anthropic_chat.py", [proxy.baseURL])
        #expect(proxy.stop() == 0)
        let rows = try storeRows(proxy.storePath, "select * from request order by ts")
        try #require(rows.count == 2)
        for (row, saw) in zip(rows, [seen["plain"], seen["streamed"]].compactMap { $0 as? [String: Any] }) {
            #expect(row["provider"] as? String == "anthropic")
            #expect(row["finish_reason"] as? String == saw["stop_reason"] as? String)
            #expect(row["output_tokens"] as? Int == saw["output_tokens"] as? Int)
            #expect(row["error"] as? String == nil)
        }
        #expect(rows[0]["session_id"] as? Int == rows[1]["session_id"] as? Int)
        #expect((rows[1]["ttft"] as? Int ?? 0) > 0)
    }
}
