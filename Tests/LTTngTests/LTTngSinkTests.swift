import AllocationCounter
import Foundation
import LTTngReader
@testable import LTTngRecording
import SessionTrace
import SessionTraceLTTng
import SessionTraceTesting
import TestSupport
import Testing
import TraceAnalysis
import TraceModel

/// The LTTng sink against the real LTTng: a session daemon, a recording session, and the reader.
///
/// Serialized: the tests share this process's tracepoints, and one enables them.
@Suite("LTTng sink", .serialized)
struct LTTngSinkTests {
    /// Other sessions on the machine (another user's, another test run's) may record this
    /// process too, so what is enabled is compared with what `lttng list` says those sessions ask.
    @Test("a kind is enabled exactly while some session records this process's session_trace events")
    func enabledExactlyWhileASessionRecords() throws {
        let daemon = try LTTngControl.ensureSessionDaemon()
        defer { daemon.stop() }
        let sink = LTTngSink()
        let others = try Self.otherSessionsRecordingThisProcess()
        // A tracer reads the tracepoint's state word itself (`enabledWord`): it must agree.
        let tracer = Tracer(sink: sink)
        let agree = { (kind: TraceEventKind) in
            sink.enabledWord(kind)?.isSet == sink.isEnabled(kind) && tracer.isEnabled(kind) == sink.isEnabled(kind)
        }
        for kind in TraceEventKind.allCases {
            #expect(sink.isEnabled(kind) == !others.isEmpty, "\(kind.name); other sessions: \(others)")
            #expect(agree(kind), "\(kind.name)")
        }
        let output = try TemporaryDirectory()
        let session = try LTTngControl.Session.create(outputDirectory: output.path("trace"))
        do {
            try session.start(until: { sink.isEnabled(.request) })
            for kind in TraceEventKind.allCases {
                #expect(sink.isEnabled(kind), "\(kind.name) in our session")
                #expect(agree(kind), "\(kind.name) in our session")
            }
            try session.stop()
        } catch {
            try? session.destroy()
            throw error
        }
        try session.destroy()
        let deadline = ContinuousClock.now + .seconds(10)
        while sink.isEnabled(.request) != !others.isEmpty, ContinuousClock.now < deadline { usleep(10_000) }
        for kind in TraceEventKind.allCases {
            #expect(sink.isEnabled(kind) == !others.isEmpty, "\(kind.name) after ours; other sessions: \(others)")
            #expect(agree(kind), "\(kind.name) after ours")
        }
    }

    /// A tracer reads each kind's own tracepoint state: a session that enables one tracepoint
    /// enables that kind alone, and the sink emits that kind alone.
    @Test("each kind's enabled word is its own tracepoint's")
    func eachKindHasItsOwnWord() throws {
        let daemon = try LTTngControl.ensureSessionDaemon()
        defer { daemon.stop() }
        let sink = LTTngSink()
        let tracer = Tracer(sink: sink)
        guard try Self.otherSessionsRecordingThisProcess().isEmpty else { return }
        let oneOfEach: [TraceEvent] = [
            .run(RunRecord(runID: 1, ts: 1, wallClockStart: 1, host: "h", commandLine: "c", label: "l")),
            .session(SessionRecord(sessionID: 2, ts: 2, dur: 2, label: "s")),
            .request(RequestRecord(requestID: 3, ts: 3, dur: 3)),
            .toolCall(
                ToolCallRecord(
                    toolCallID: 4, ts: 4, dur: 4, name: "t", argumentsFingerprint: "f", argumentsBytes: 0,
                    outputBytes: 0)),
            .handoff(HandoffRecord(handoffID: 5, sessionID: nil, ts: 5, kind: "model", from: "a", to: "b")),
            .interval(IntervalRecord(intervalID: 6, ts: 6, dur: 6, name: "i")),
            .instant(InstantRecord(instantID: 7, ts: 7, name: "i")),
            .chunk(ChunkRecord(requestID: 3, ts: 8, tokens: 8)),
            .payload(PayloadRecord(payloadID: 9, parentID: nil, ts: 9, kind: .prompt, text: "p")),
            .dropped(DroppedRecord(ts: 10, sinkName: "store", reason: "queue full", count: 10)),
        ]
        #expect(Set(oneOfEach.map(\.kind)) == Set(TraceEventKind.allCases))
        for kind in TraceEventKind.allCases {
            let directory = try TemporaryDirectory()
            let session = try LTTngControl.Session.create(
                outputDirectory: directory.path("trace"), events: "session_trace:\(kind.name)")
            defer { try? session.destroy() }
            try session.start(until: { sink.isEnabled(kind) })
            let enabled = TraceEventKind.allCases.filter { sink.enabledWord($0)?.isSet == true }
            #expect(enabled == [kind])
            #expect(TraceEventKind.allCases.filter { tracer.isEnabled($0) } == [kind])
            for event in oneOfEach { sink.record(event) }
            try session.stop()
            let recorded = try LTTngTrace.load(path: directory.path("trace")).runs.flatMap(\.events)
            #expect(recorded.map(\.kind) == [kind], "with only session_trace:\(kind.name) enabled")
        }
    }

    /// The active sessions other than ours with a `session_trace` rule that track this process.
    private static func otherSessionsRecordingThisProcess() throws -> [String] {
        let list = try LTTngControl.run("lttng", ["list"], check: false)
        let names = list.stdout.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ")
            guard words.count >= 3, words[0].hasSuffix(")"), line.contains("[active]") else { return nil }
            return String(words[1])
        }
        return try names.filter { name in
            let detail = try LTTngControl.run("lttng", ["list", name, "--userspace"], check: false).stdout
            let tracked = detail.split(separator: "\n").first { $0.contains("Virtual process IDs:") }?
                .split(separator: ":").last?.split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces) } ?? ["all"]
            let tracksUs = tracked.contains("all") || tracked.contains("\(getpid())")
            return tracksUs && detail.contains("session_trace") && detail.contains("[enabled]")
        }
    }

    @Test("every event kind and every field round-trips through LTTng and the trace reader")
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
        var expected: [TraceEvent] = []
        do {
            try session.start(until: { LTTngSink().isEnabled(.request) })
            expected = try await emitEveryKind()
            try session.stop()
        } catch {
            try? session.destroy()
            throw error
        }
        try session.destroy()

        let recorded = try LTTngTrace.load(path: directory).runs.flatMap(\.events)
        #expect(recorded.count == expected.count, "recorded: \(recorded.map(\.kind.name))")
        var unmatched = recorded
        for event in expected {
            guard let index = unmatched.firstIndex(of: event) else {
                let sameKind = unmatched.filter { $0.kind == event.kind }
                Issue.record("missing \(event); recorded \(sameKind)")
                continue
            }
            unmatched.remove(at: index)
        }
        #expect(unmatched.isEmpty, "unexpected events: \(unmatched)")
    }

    /// C reads a string up to its first NUL: a NUL inside a field must not cut the field there.
    @Test("a NUL inside a text field reaches the trace as a space")
    func nulInsideText() async throws {
        let daemon = try LTTngControl.ensureSessionDaemon()
        defer { daemon.stop() }
        let directory = try TemporaryDirectory()
        let session = try LTTngControl.Session.create(outputDirectory: directory.path("trace"))
        do {
            try session.start(until: { LTTngSink().isEnabled(.request) })
            LTTngSink().record(
                .request(RequestRecord(
                    requestID: 41, sessionID: nil, ts: 1_000, dur: 2_000, profile: "p", provider: "openai",
                    model: "small\u{0}model", error: "cut\u{0}here, and\u{0}\u{0}here: \(getpid())")))
            LTTngSink().record(
                .toolCall(ToolCallRecord(
                    toolCallID: 42, requestID: 41, sessionID: nil, ts: 1_500, dur: 100, name: "get\u{0}Weather",
                    callID: nil, argumentsFingerprint: "", argumentsBytes: 0, outputBytes: 0, outcome: .ok)))
            LTTngSink().record(.instant(InstantRecord(instantID: 43, ts: 1_600, name: "check\u{0}point \(getpid())")))
            try session.stop()
        } catch {
            try? session.destroy()
            throw error
        }
        try session.destroy()
        let runs = try LTTngTrace.load(path: directory.path("trace")).runs
        let request = try #require(runs.flatMap(\.requests).first)
        #expect(request.model == "small model")
        #expect(request.error == "cut here, and  here: \(getpid())")
        #expect(runs.flatMap(\.toolCalls).map(\.name) == ["get Weather"])
        #expect(runs.flatMap(\.instants).map(\.name) == ["check point \(getpid())"])
    }

    /// The sink's doc promises no allocation on the emit path: text goes to the tracepoint where
    /// Swift stores it. Counted by the test binary's own malloc (the AllocationCounter target).
    @Test("emitting a request, a tool call or an instant into an enabled session allocates nothing")
    func emitAllocatesNothing() throws {
        let daemon = try LTTngControl.ensureSessionDaemon()
        defer { daemon.stop() }
        let directory = try TemporaryDirectory()
        let session = try LTTngControl.Session.create(outputDirectory: directory.path("trace"))
        defer { try? session.destroy() }
        try session.start(until: { LTTngSink().isEnabled(.request) })
        // Strings made at run time, long enough to live on the heap, as a real program's are.
        let model = "SmolLM2-135M-Instruct-\(getpid())"
        let requestRecord = RequestRecord(
            requestID: 1, sessionID: 2, parentID: 3, ts: 4, dur: 5, timeToFirstToken: 6, profile: "economy",
            provider: "llama.cpp", model: model, inputTokens: 7, cachedInputTokens: 8, outputTokens: 9,
            promptBytes: 10, transcriptEntries: 11, reusedPrefixEntries: 12, finishReason: "stop",
            error: "the server closed the stream after \(model)",
            serverTimings: ServerTimings(
                promptTokens: 13, cachedTokens: 14, promptDuration: 15, predictedTokens: 16, predictedDuration: 17),
            turnID: 18, instructionsFingerprint: "a1b2c3d4e5f60718", toolsFingerprint: "0f1e2d3c4b5a6978",
            cacheWriteTokens: 19, responseID: "chatcmpl-\(model)", responseModel: model, serverAddress: "127.0.0.1",
            serverPort: 8080, streamed: true, maxTokens: 256, temperature: 0.5)
        let request = TraceEvent.request(requestRecord)
        let toolCall = TraceEvent.toolCall(
            ToolCallRecord(
                toolCallID: 20, requestID: 1, sessionID: 2, ts: 21, dur: 22, name: "getWeather-\(model)",
                callID: "call_abc", argumentsFingerprint: "sha256:0f1e", argumentsBytes: 23, argumentsSketch: [1, 2],
                outputBytes: 24, outcome: .ok, outputFingerprint: "77aa", outputSketch: [3, 4]))
        let sink = LTTngSink()
        let tracer = Tracer(sink: sink, label: "allocations")
        func allocations(_ body: () -> Void) -> Int {
            body()  // the first event of a thread may set up LTTng's per-thread state
            st_allocations_begin()
            for _ in 0..<100 { body() }
            return st_allocations_end()
        }
        // The counter counts: a fresh array is one allocation each time.
        #expect(allocations { blackHole([getpid()]) } == 100)
        #expect(allocations { sink.record(request) } == 0)
        #expect(allocations { tracer.record(request, kind: .request) } == 0)
        #expect(allocations { tracer.record(request: requestRecord) } == 0)
        var inPlace = requestRecord
        #expect(allocations { sink.recordInPlace(request: &inPlace) } == 0)
        #expect(allocations { sink.record(toolCall) } == 0)
        #expect(allocations { tracer.instant("checkpoint") } == 0)
        try session.stop()
        let recorded = try LTTngTrace.load(path: directory.path("trace")).runs.flatMap(\.events)
        // Four ways to emit a request, 101 times each: none was skipped.
        #expect(recorded.filter { $0.kind == .request }.count == 4 * 101)
    }

    @inline(never)
    private func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

    /// Emits every kind, through a tracer and as direct records, and returns what the reader
    /// should give back: every record as it was, with LTTng's -1 and "" read as nil again.
    private func emitEveryKind() async throws -> [TraceEvent] {
        let sink = LTTngSink()
        for kind in TraceEventKind.allCases {
            try #require(sink.isEnabled(kind), "\(kind.name) is not enabled after the session started")
        }
        var expected: [TraceEvent] = []
        // Stands still, so every `ts` the tracer writes is known in advance.
        let clock = TestClock(at: 1_000_000_007, wallClock: 1_700_000_000_123_456_789)
        let tracer = Tracer(
            sink: sink, clock: clock, label: "round-trip", commandLine: "trace-test --lttng \"quoted\"",
            gitRevision: "abc123def", payloadRedaction: { $0.replacingOccurrences(of: "secret", with: "[R]") })
        expected.append(
            .run(
                RunRecord(
                    runID: tracer.runID, ts: clock.now(), wallClockStart: 1_700_000_000_123_456_789,
                    host: hostName(), commandLine: "trace-test --lttng \"quoted\"", gitRevision: "abc123def",
                    label: "round-trip")))

        // Through the tracer: a session holding an interval holding an instant.
        var sessionID: Int64 = 0
        var intervalID: Int64 = 0
        await tracer.withSession("planner \"main\"") { _ in
            sessionID = TraceContext.current.sessionID ?? 0
            tracer.withInterval("PlanDay", metadata: ["requestLength": 42, "mode": "economy", "hit": true]) { _ in
                intervalID = TraceContext.current.parentID ?? 0
                tracer.instant("checkpoint", metadata: ["step": 3])
                tracer.capturePayload(.prompt, "the secret plan", parentID: intervalID)
            }
        }
        let ts = clock.now()
        expected.append(
            .instant(
                InstantRecord(
                    instantID: intervalID + 1, parentID: intervalID, ts: ts, name: "checkpoint",
                    metadata: ["step": 3])))
        expected.append(
            .payload(
                PayloadRecord(payloadID: intervalID + 2, parentID: intervalID, ts: ts, kind: .prompt,
                              text: "the [R] plan")))
        expected.append(
            .interval(
                IntervalRecord(
                    intervalID: intervalID, parentID: sessionID, sessionID: sessionID, ts: ts, dur: 0,
                    name: "PlanDay", metadata: ["requestLength": 42, "mode": "economy", "hit": true])))
        expected.append(.session(SessionRecord(sessionID: sessionID, ts: ts, dur: 0, label: "planner \"main\"")))

        // Direct records: every field set to a distinctive value, then every optional absent.
        let records: [TraceEvent] = [
            .request(
                RequestRecord(
                    requestID: 1001, sessionID: 1002, parentID: 1003, ts: 1004, dur: 1005, timeToFirstToken: 1006,
                    profile: "economy", provider: "openai", model: "SmolLM2-135M", inputTokens: 1007,
                    cachedInputTokens: 1008, outputTokens: 1009, promptBytes: 1010, transcriptEntries: 1011,
                    reusedPrefixEntries: 1012, finishReason: "stop", error: "timeout after 5 s",
                    serverTimings: ServerTimings(
                        promptTokens: 1013, cachedTokens: 1014, promptDuration: 1015, predictedTokens: 1016,
                        predictedDuration: 1017),
                    turnID: 1018, instructionsFingerprint: "a1b2c3d4e5f60718", toolsFingerprint: "0f1e2d3c4b5a6978",
                    cacheWriteTokens: 1019, responseID: "chatcmpl-1020", responseModel: "SmolLM2-135M-Instruct",
                    serverAddress: "127.0.0.1", serverPort: 1021, streamed: true, maxTokens: 1022,
                    temperature: 0.5)),
            .request(RequestRecord(requestID: 1101, ts: 1102, dur: 1103, streamed: false)),

            .toolCall(
                ToolCallRecord(
                    toolCallID: 2001, requestID: 2002, sessionID: 2003, ts: 2004, dur: 2005, name: "getWeather",
                    callID: "call_abc", argumentsFingerprint: "sha256:0f1e", argumentsBytes: 2006,
                    argumentsSketch: [9, 0x8000_0001], outputBytes: 2007, outcome: .error, error: "city not found", outputFingerprint: "77aa",
                    outputSketch: [7, 4_294_967_295])),
            .toolCall(
                ToolCallRecord(
                    toolCallID: 2101, ts: 2102, dur: 2103, name: "search", argumentsFingerprint: "sha256:aa",
                    argumentsBytes: 0, outputBytes: 2104)),
            .toolCall(
                ToolCallRecord(
                    toolCallID: 2201, ts: 2202, dur: 2203, name: "search", argumentsFingerprint: "sha256:bb",
                    argumentsBytes: 1, outputBytes: 2204)),
            .handoff(HandoffRecord(handoffID: 3001, sessionID: 3002, ts: 3003, kind: "model", from: "small",
                                   to: "large")),
            .handoff(HandoffRecord(handoffID: 3101, sessionID: nil, ts: 3102, kind: "profile", from: "",
                                   to: "economy")),
            .interval(
                IntervalRecord(
                    intervalID: 4001, parentID: 4002, sessionID: 4003, ts: 4004, dur: 4005, name: "Fetch",
                    metadata: ["ratio": 0.5], error: "cancelled")),
            .instant(InstantRecord(instantID: 5001, ts: 5002, name: "tick")),
            .chunk(ChunkRecord(requestID: 6001, ts: 6002, tokens: 6003)),
            // Text that a reader must take byte for byte.
            .payload(
                PayloadRecord(
                    payloadID: 7001, parentID: nil, ts: 7002, kind: .toolOutput,
                    text: "a \"quoted\", {braced} = [list]\\ line\nnext\ttab café ☕")),
            .dropped(DroppedRecord(ts: 8001, sinkName: "store", reason: "queue full", count: 8002)),
        ]
        // babeltrace2 reuses event objects once their batch is read: an empty string must not show
        // the text an earlier request left in the same field.
        var alternating: [TraceEvent] = []
        for index in Int64(0)..<64 {
            let named = index % 2 == 0
            let request = RequestRecord(
                requestID: 9000 + index, ts: 9000 + index, dur: 1, finishReason: named ? "tool_calls" : nil,
                toolsFingerprint: named ? "98222f27f0b7623d" : nil)
            alternating.append(.request(request))
        }
        for record in records + alternating { sink.record(record) }
        return expected + records + alternating
    }
}

extension RecordedRun {
    /// Every record of the run as an event, the run first.
    var events: [TraceEvent] {
        var events: [TraceEvent] = hasRunRecord ? [.run(run)] : []
        events += sessions.filter { recordedSessionIDs.contains($0.sessionID) }.map(TraceEvent.session)
        events += requests.map(TraceEvent.request) + toolCalls.map(TraceEvent.toolCall)
        events += handoffs.map(TraceEvent.handoff) + intervals.map(TraceEvent.interval)
        events += instants.map(TraceEvent.instant) + chunks.map(TraceEvent.chunk)
        events += payloads.map(TraceEvent.payload) + dropped.map(TraceEvent.dropped)
        return events
    }
}

/// The host name as `Tracer` reads it.
private func hostName() -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count) == 0 else { return "unknown" }
    return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
