import Foundation
import SessionTrace
import SessionTraceTesting
import TestSupport
import Testing
import TraceStore

@testable import TraceAnalysis

/// A store with known values, written through the real `Tracer` and `StoreSink`, for checking
/// what each export carries. With `secrets`, labels, errors, metadata and payloads hold an email
/// address, an OpenAI-style key or a JWT, placed so the redaction counts are known.
struct KnownStore {
    static let wallClockStart: Int64 = 1_780_000_000_000_000_000
    static let runStart: Int64 = 5_000_000_000
    static let openAIKey = "sk-proj-Xq3vT9bK2mN8pL4rW7yZ1aC5dF6gH0jJ"
    static let jwt =
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwi"
        + "aWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
    static let emails = ["ana@example.org", "bob@example.com", "carol@example.net", "dave@example.org"]
    /// Every secret the store holds, none of which may appear in an export.
    static let secrets = emails + [openAIKey, jwt]
    /// What the redactor must report for the store with secrets.
    static let secretCounts = ["email": 4, "openai_key": 2, "jwt": 1]

    let path: String
    var session: SessionRecord!
    var interval: IntervalRecord!
    var first: RequestRecord!
    var second: RequestRecord!
    var toolCall: ToolCallRecord!
    /// Rows in the store, table by table: what a JSON Lines export has one line for each of.
    var recordCount = 0

    init(path: String, secrets: Bool) throws {
        self.path = path
        let sink = try StoreSink(path: path)
        let clock = storeClock()
        clock.set(Self.runStart)
        let tracer = Tracer(
            sink: sink, clock: clock, label: secrets ? "nightly for \(Self.emails[0])" : "nightly",
            commandLine: "planner-demo --fast")
        let ms: Int64 = 1_000_000
        let s = Self.runStart
        session = SessionRecord(
            sessionID: tracer.makeID(), ts: s, dur: 3_000 * ms,
            label: secrets ? "planner \(Self.openAIKey)" : "planner")
        interval = IntervalRecord(
            intervalID: tracer.makeID(), parentID: session.sessionID, sessionID: session.sessionID, ts: s,
            dur: 2_900 * ms, name: "PlanDay",
            metadata: ["requestLength": 42, "owner": secrets ? .string(Self.emails[3]) : "team"])
        first = RequestRecord(
            requestID: tracer.makeID(), sessionID: session.sessionID, parentID: interval.intervalID,
            ts: s + 100 * ms, dur: 1_000 * ms, timeToFirstToken: 250 * ms, profile: "economy",
            provider: "openai",
            model: "gpt-test", inputTokens: 500, cachedInputTokens: 300, outputTokens: 41, promptBytes: 2_000,
            transcriptEntries: 3, reusedPrefixEntries: 1, finishReason: "tool_calls",
            serverTimings: ServerTimings(
                promptTokens: 200, cachedTokens: 300, promptDuration: 80 * ms, predictedTokens: 41,
                predictedDuration: 700 * ms))
        toolCall = ToolCallRecord(
            toolCallID: tracer.makeID(), requestID: first.requestID, sessionID: session.sessionID,
            ts: s + 1_200 * ms, dur: 300 * ms, name: "searchNotes", callID: "call_7",
            argumentsFingerprint: "de8087d81190c16c", argumentsBytes: 20, outputBytes: 100,
            outcome: secrets ? .error : .ok, error: secrets ? "no notes for \(Self.emails[2])" : nil,
            outputFingerprint: secrets ? nil : "0123456789abcdef", outputSketch: secrets ? nil : [1, 0xdead_beef])
        second = RequestRecord(
            requestID: tracer.makeID(), sessionID: session.sessionID, parentID: interval.intervalID,
            ts: s + 1_600 * ms, dur: 1_200 * ms, timeToFirstToken: 200 * ms, profile: "economy",
            provider: "openai", model: "gpt-test-mini", inputTokens: 700, cachedInputTokens: 0,
            outputTokens: 10,
            promptBytes: 2_600, transcriptEntries: 5, reusedPrefixEntries: 0,
            error: secrets ? "401 from server for token \(Self.jwt)" : "timed out")
        let handoff = HandoffRecord(
            handoffID: tracer.makeID(), sessionID: session.sessionID, ts: s + 1_550 * ms, kind: "model",
            from: "gpt-test", to: "gpt-test-mini")
        let instant = InstantRecord(
            instantID: tracer.makeID(), parentID: interval.intervalID, ts: s + 1_580 * ms, name: "cacheMiss",
            metadata: ["entries": 5])
        let prompt =
            secrets
            ? #"{"messages":[{"role":"user","content":"mail \#(Self.emails[1]) with key \#(Self.openAIKey)"}]}"#
            : #"{"messages":[{"role":"user","content":"plan my day"}]}"#
        let payloads = [
            PayloadRecord(
                payloadID: tracer.makeID(), parentID: first.requestID, ts: s + 100 * ms, kind: .prompt,
                text: prompt),
            PayloadRecord(
                payloadID: tracer.makeID(), parentID: toolCall.toolCallID, ts: s + 1_200 * ms,
                kind: .toolArguments, text: #"{"query":"launch"}"#),
        ]
        let chunkTimes: [Int64] = [350, 600, 900, 1_100]
        let requestID: Int64 = first.requestID
        let chunks: [ChunkRecord] = chunkTimes.map { time in
            ChunkRecord(requestID: requestID, ts: s + time * ms, tokens: 10)
        }
        var events: [TraceEvent] = [.interval(interval), .request(first), .toolCall(toolCall)]
        events += [.handoff(handoff), .instant(instant), .request(second), .session(session)]
        events += payloads.map { TraceEvent.payload($0) }
        events += chunks.map { TraceEvent.chunk($0) }
        events.append(
            .dropped(DroppedRecord(ts: s + 3_000 * ms, sinkName: "lttng", reason: "buffer_full", count: 2)))
        for event in events { tracer.record(event, kind: event.kind) }
        sink.close()
        recordCount = 1 + events.count
    }
}

/// The permission bits of the file at `path`.
func permissions(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return try #require(attributes[.posixPermissions] as? Int)
}

/// The number of rows of every table of a store, counted by the sqlite3 program.
func storeRowCount(_ path: String) throws -> Int {
    let tables = [
        "run", "session", "request", "tool_call", "handoff", "interval", "instant", "chunk", "payload",
        "dropped",
    ]
    let sql = "SELECT " + tables.map { "(SELECT count(*) FROM \($0))" }.joined(separator: " + ")
    let result = try runProgram("/usr/bin/sqlite3", [path, sql])
    try #require(result.status == 0, "sqlite3 failed: \(result.err)")
    return try #require(Int(result.out.trimmingCharacters(in: .whitespacesAndNewlines)))
}
