import Foundation
import SessionTrace
import SessionTraceLTTng
import Testing

/// The LTTng sink against the real LTTng: a session daemon, a recording session, babeltrace2.
///
/// Serialized: the tests share this process's tracepoints, and one enables them.
@Suite("LTTng sink", .serialized)
struct LTTngSinkTests {
    @Test("with no session enabled, every kind is disabled")
    func disabledWithoutSession() {
        let sink = LTTngSink()
        for kind in TraceEventKind.allCases {
            #expect(!sink.isEnabled(kind), "\(kind.name) is enabled with no session of ours running")
        }
    }

    @Test("every event kind and every field round-trips through LTTng and babeltrace2")
    func roundTrip() async throws {
        let daemon: LTTngControl.SessionDaemon
        do {
            daemon = try LTTngControl.ensureSessionDaemon()
        } catch {
            Issue.record("cannot run: no LTTng session daemon could be started: \(error)")
            return
        }
        defer { daemon.stop() }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("lttng-roundtrip-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }

        let session = try LTTngControl.Session.create(outputDirectory: directory)
        var expected: [(name: String, fields: [String: String])] = []
        do {
            try session.start()
            expected = try await emitEveryKind()
            try session.stop()
        } catch {
            try? session.destroy()
            throw error
        }
        try session.destroy()

        let lines = try LTTngControl.readTrace(at: directory)
        let recorded = lines.filter { $0.name.hasPrefix("session_trace:") }
        #expect(recorded.count == expected.count, "recorded: \(recorded.map(\.name))")
        var unmatched = recorded.map { line in
            (name: line.name, fields: line.fields.filter { $0.key != "cpu_id" })
        }
        for event in expected {
            let index = unmatched.firstIndex { $0.name == event.name && $0.fields == event.fields }
            guard let index else {
                let sameKind = unmatched.filter { $0.name == event.name }.map(\.fields)
                Issue.record("missing \(event.name) \(event.fields); recorded \(sameKind)")
                continue
            }
            unmatched.remove(at: index)
        }
        #expect(unmatched.isEmpty, "unexpected events: \(unmatched)")
    }

    /// Emits every kind, through a tracer and as direct records, and returns what babeltrace2
    /// should print for each: event name and every payload field, as text.
    private func emitEveryKind() async throws -> [(name: String, fields: [String: String])] {
        let sink = LTTngSink()
        for kind in TraceEventKind.allCases {
            try #require(sink.isEnabled(kind), "\(kind.name) is not enabled after the session started")
        }
        var expected: [(name: String, fields: [String: String])] = []
        let clock = FixedClock()
        let tracer = Tracer(
            sink: sink, clock: clock, label: "round-trip", commandLine: "trace-test --lttng \"quoted\"",
            gitRevision: "abc123def", payloadRedaction: { $0.replacingOccurrences(of: "secret", with: "[R]") })
        let host = hostName()
        expected.append(
            ("session_trace:run", [
                "run_id": "\(tracer.runID)", "ts": "\(clock.now())", "wall_clock_start": "1700000000123456789",
                "host": host, "command_line": "trace-test --lttng \"quoted\"", "git_revision": "abc123def",
                "label": "round-trip", "tool_version": sessionTraceVersion,
            ]))

        // Through the tracer: a session holding an interval holding an instant.
        var sessionID: Int64 = 0
        var intervalID: Int64 = 0
        await tracer.withSession("planner \"main\"") {
            sessionID = TraceContext.current.sessionID ?? 0
            tracer.withInterval("PlanDay", metadata: ["requestLength": 42, "mode": "economy", "hit": true]) {
                intervalID = TraceContext.current.parentID ?? 0
                tracer.instant("checkpoint", metadata: ["step": 3])
                tracer.capturePayload(.prompt, "the secret plan", parentID: intervalID)
            }
        }
        let ts = "\(clock.now())"
        expected.append(
            ("session_trace:instant", [
                "instant_id": "\(intervalID + 1)", "parent_id": "\(intervalID)", "ts": ts, "name": "checkpoint",
                "metadata": #"{"step":3}"#,
            ]))
        expected.append(
            ("session_trace:payload", [
                "payload_id": "\(intervalID + 2)", "parent_id": "\(intervalID)", "ts": ts, "kind": "prompt",
                "text": "the [R] plan",
            ]))
        expected.append(
            ("session_trace:interval", [
                "interval_id": "\(intervalID)", "parent_id": "\(sessionID)", "session_id": "\(sessionID)",
                "ts": ts, "dur": "0", "name": "PlanDay",
                "metadata": #"{"hit":true,"mode":"economy","requestLength":42}"#, "error": "",
            ]))
        expected.append(
            ("session_trace:session", [
                "session_id": "\(sessionID)", "ts": ts, "dur": "0", "label": "planner \"main\"",
            ]))

        // Direct records: every field set to a distinctive value, then every optional absent.
        let full = RequestRecord(
            requestID: 1001, sessionID: 1002, parentID: 1003, ts: 1004, dur: 1005, timeToFirstToken: 1006,
            profile: "economy", provider: "openai", model: "SmolLM2-135M", inputTokens: 1007,
            cachedInputTokens: 1008, outputTokens: 1009, promptBytes: 1010, transcriptEntries: 1011,
            reusedPrefixEntries: 1012, finishReason: "stop", error: "timeout after 5 s",
            serverTimings: ServerTimings(
                promptTokens: 1013, cachedTokens: 1014, promptDuration: 1015, predictedTokens: 1016,
                predictedDuration: 1017),
            turnID: 1018, instructionsFingerprint: "a1b2c3d4e5f60718", toolsFingerprint: "0f1e2d3c4b5a6978",
            cacheWriteTokens: 1019, responseID: "chatcmpl-1020", responseModel: "SmolLM2-135M-Instruct",
            serverAddress: "127.0.0.1", serverPort: 1021, streamed: true, maxTokens: 1022, temperature: 0.5)
        sink.record(.request(full))
        expected.append(
            ("session_trace:request", [
                "request_id": "1001", "session_id": "1002", "parent_id": "1003", "ts": "1004", "dur": "1005",
                "ttft": "1006", "profile": "economy", "provider": "openai", "model": "SmolLM2-135M",
                "input_tokens": "1007", "cached_input_tokens": "1008", "output_tokens": "1009",
                "prompt_bytes": "1010", "transcript_entries": "1011", "reused_prefix_entries": "1012",
                "finish_reason": "stop", "error": "timeout after 5 s", "server_prompt_tokens": "1013",
                "server_cached_tokens": "1014", "server_prompt_dur": "1015",
                "server_predicted_tokens": "1016", "server_predicted_dur": "1017", "turn_id": "1018",
                "instructions_fingerprint": "a1b2c3d4e5f60718", "tools_fingerprint": "0f1e2d3c4b5a6978",
                "cache_write_tokens": "1019", "response_id": "chatcmpl-1020",
                "response_model": "SmolLM2-135M-Instruct", "server_address": "127.0.0.1", "server_port": "1021",
                "streamed": "1", "max_tokens": "1022", "temperature": "0.5",
            ]))
        sink.record(.request(RequestRecord(requestID: 1101, ts: 1102, dur: 1103)))
        expected.append(
            ("session_trace:request", [
                "request_id": "1101", "session_id": "-1", "parent_id": "-1", "ts": "1102", "dur": "1103",
                "ttft": "-1", "profile": "", "provider": "", "model": "", "input_tokens": "-1",
                "cached_input_tokens": "-1", "output_tokens": "-1", "prompt_bytes": "0",
                "transcript_entries": "0", "reused_prefix_entries": "0", "finish_reason": "", "error": "",
                "server_prompt_tokens": "-1", "server_cached_tokens": "-1", "server_prompt_dur": "-1",
                "server_predicted_tokens": "-1", "server_predicted_dur": "-1", "turn_id": "-1",
                "instructions_fingerprint": "", "tools_fingerprint": "", "cache_write_tokens": "-1",
                "response_id": "", "response_model": "", "server_address": "", "server_port": "-1",
                "streamed": "-1", "max_tokens": "-1", "temperature": "-1",
            ]))

        sink.record(
            .toolCall(
                ToolCallRecord(
                    toolCallID: 2001, requestID: 2002, sessionID: 2003, ts: 2004, dur: 2005, name: "getWeather",
                    callID: "call_abc", argumentsFingerprint: "sha256:0f1e", argumentsBytes: 2006,
                    outputBytes: 2007, outcome: "error", error: "city not found", outputFingerprint: "77aa",
                    outputSketch: [7, 4_294_967_295])))
        expected.append(
            ("session_trace:tool_call", [
                "tool_call_id": "2001", "request_id": "2002", "session_id": "2003", "ts": "2004", "dur": "2005",
                "name": "getWeather", "call_id": "call_abc", "arguments_fingerprint": "sha256:0f1e",
                "arguments_bytes": "2006", "output_bytes": "2007", "outcome": "error", "error": "city not found",
                "output_fingerprint": "77aa", "_output_sketch_length": "2",
                "output_sketch": "[ [0] = 7, [1] = 4294967295 ]",
            ]))
        sink.record(
            .toolCall(
                ToolCallRecord(
                    toolCallID: 2101, ts: 2102, dur: 2103, name: "search", argumentsFingerprint: "sha256:aa",
                    argumentsBytes: 0, outputBytes: 2104)))
        expected.append(
            ("session_trace:tool_call", [
                "tool_call_id": "2101", "request_id": "-1", "session_id": "-1", "ts": "2102", "dur": "2103",
                "name": "search", "call_id": "", "arguments_fingerprint": "sha256:aa",
                "arguments_bytes": "0", "output_bytes": "2104", "outcome": "ok", "error": "",
                "output_fingerprint": "", "_output_sketch_length": "0", "output_sketch": "[ ]",
            ]))

        sink.record(.handoff(HandoffRecord(handoffID: 3001, sessionID: 3002, ts: 3003, kind: "model",
                                           from: "small", to: "large")))
        expected.append(
            ("session_trace:handoff", [
                "handoff_id": "3001", "session_id": "3002", "ts": "3003", "kind": "model", "from": "small",
                "to": "large",
            ]))
        sink.record(.handoff(HandoffRecord(handoffID: 3101, sessionID: nil, ts: 3102, kind: "profile",
                                           from: "", to: "economy")))
        expected.append(
            ("session_trace:handoff", [
                "handoff_id": "3101", "session_id": "-1", "ts": "3102", "kind": "profile", "from": "",
                "to": "economy",
            ]))

        sink.record(
            .interval(
                IntervalRecord(
                    intervalID: 4001, parentID: 4002, sessionID: 4003, ts: 4004, dur: 4005, name: "Fetch",
                    metadata: ["ratio": 0.5], error: "cancelled")))
        expected.append(
            ("session_trace:interval", [
                "interval_id": "4001", "parent_id": "4002", "session_id": "4003", "ts": "4004", "dur": "4005",
                "name": "Fetch", "metadata": #"{"ratio":0.5}"#, "error": "cancelled",
            ]))
        sink.record(.instant(InstantRecord(instantID: 5001, ts: 5002, name: "tick")))
        expected.append(
            ("session_trace:instant", [
                "instant_id": "5001", "parent_id": "-1", "ts": "5002", "name": "tick", "metadata": "{}",
            ]))

        sink.record(.chunk(ChunkRecord(requestID: 6001, ts: 6002, tokens: 6003)))
        expected.append(("session_trace:chunk", ["request_id": "6001", "ts": "6002", "tokens": "6003"]))

        // Text that babeltrace2 must escape, and text the line parser must not split on.
        let awkward = "a \"quoted\", {braced} = [list]\\ line\nnext\ttab café ☕"
        sink.record(.payload(PayloadRecord(payloadID: 7001, parentID: nil, ts: 7002, kind: .toolOutput,
                                           text: awkward)))
        expected.append(
            ("session_trace:payload", [
                "payload_id": "7001", "parent_id": "-1", "ts": "7002", "kind": "tool_output", "text": awkward,
            ]))

        sink.record(.dropped(DroppedRecord(ts: 8001, sink: "store", reason: "queue full", count: 8002)))
        expected.append(
            ("session_trace:dropped", ["ts": "8001", "sink": "store", "reason": "queue full", "count": "8002"]))
        return expected
    }
}

/// A clock that stands still, so every `ts` the tracer writes is known in advance.
private struct FixedClock: TraceClock {
    func now() -> Int64 { 1_000_000_007 }
    func wallClockNow() -> Int64 { 1_700_000_000_123_456_789 }
}

/// The host name as `Tracer` reads it.
private func hostName() -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count) == 0 else { return "unknown" }
    return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
