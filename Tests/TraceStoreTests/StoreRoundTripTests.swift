import Foundation
import SessionTrace
import SessionTraceTesting
import TestSupport
import Testing

@testable import TraceStore

@Suite("Store round trip")
struct StoreRoundTripTests {
    /// Records one event of every kind through a tracer into a real store and a memory sink at once,
    /// then checks the store gives back exactly what the memory sink saw.
    @Test func everyRecordKindComesBackFieldForField() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("run.sqlite")
        let store = try StoreSink(path: path)
        let memory = MemorySink()
        let tracer = Tracer(
            sink: MultiplexSink([memory, store]), clock: steppingClock(), label: "round-trip",
            commandLine: "planner-demo --day 2025-06-01", gitRevision: "abc1234",
            payloadRedaction: { $0.replacingOccurrences(of: "secret", with: "[redacted]") })

        let sessionID = tracer.makeID()
        let requestID = tracer.makeID()
        tracer.record(
            .request(fullRequest(id: requestID, sessionID: sessionID, ts: tracer.now())), kind: .request)
        // Optional fields left nil must come back nil, not 0 or "".
        tracer.record(
            .request(RequestRecord(requestID: tracer.makeID(), ts: tracer.now(), dur: 5)), kind: .request)
        tracer.record(
            .request(
                RequestRecord(
                    requestID: tracer.makeID(), sessionID: sessionID, ts: tracer.now(), dur: 7,
                    error: "connection reset", serverTimings: nil)), kind: .request)
        tracer.record(
            .toolCall(
                ToolCallRecord(
                    toolCallID: tracer.makeID(), requestID: requestID, sessionID: sessionID, ts: tracer.now(),
                    dur: 3_000_000, name: "searchCalendar", callID: "call_1",
                    argumentsFingerprint: "9f86d081",
                    argumentsBytes: 57, argumentsSketch: [3, 0x4000_0009, 0x8000_0000], outputBytes: 1_024,
                    outcome: .error, error: "timeout",
                    outputFingerprint: "cbf29ce484222325", outputSketch: [0, 1, 4_294_967_295])),
            kind: .toolCall)
        tracer.record(
            .toolCall(
                ToolCallRecord(
                    toolCallID: tracer.makeID(), ts: tracer.now(), dur: 1, name: "noop",
                    argumentsFingerprint: "", argumentsBytes: 0, outputBytes: 0)),
            kind: .toolCall)
        tracer.record(
            .handoff(
                HandoffRecord(
                    handoffID: tracer.makeID(), sessionID: sessionID, ts: tracer.now(), kind: "profile",
                    from: "economy", to: "quality")), kind: .handoff)
        tracer.record(
            .handoff(
                HandoffRecord(
                    handoffID: tracer.makeID(), sessionID: nil, ts: tracer.now(), kind: "model",
                    from: "", to: "smollm2")), kind: .handoff)
        tracer.withInterval(
            "PlanDay",
            metadata: [
                "requestLength": 42, "mode": "economy \"quoted\"\n\u{1}ünï ☃ 🚀", "ratio": 0.25, "hit": true,
                "big": 1e300, "negative": -7, "whole": 2.0,
            ]
        ) { _ in
            tracer.instant("CacheMiss", metadata: ["entries": 3, "reason": "tools changed"])
            tracer.instant("Checkpoint")
            struct PlannerFailed: Error {}
            _ = try? tracer.withInterval("Inner") { _ in throw PlannerFailed() }
        }
        tracer.record(.chunk(ChunkRecord(requestID: requestID, ts: tracer.now(), tokens: 1)), kind: .chunk)
        tracer.record(.chunk(ChunkRecord(requestID: requestID, ts: tracer.now(), tokens: 4)), kind: .chunk)
        for kind in PayloadRecord.Kind.allCases {
            tracer.capturePayload(kind, "the secret plan for \(kind.rawValue)", parentID: requestID)
        }
        tracer.record(
            .dropped(DroppedRecord(ts: tracer.now(), sinkName: "lttng", reason: "buffer_full", count: 12)),
            kind: .dropped)
        await tracer.withSession("planner") { _ in
            tracer.instant("InSession")
        }
        store.close()

        let events = memory.recorded
        let reader = try StoreReader(path: path)
        #expect(reader.schemaVersion == StoreSchema.version)
        #expect(try reader.runs() == events.compactMap { if case .run(let r) = $0 { r } else { nil } })
        #expect(
            try reader.sessions() == events.compactMap { if case .session(let r) = $0 { r } else { nil } })
        #expect(
            try reader.requests() == events.compactMap { if case .request(let r) = $0 { r } else { nil } })
        #expect(
            try reader.toolCalls() == events.compactMap { if case .toolCall(let r) = $0 { r } else { nil } })
        #expect(
            try reader.handoffs() == events.compactMap { if case .handoff(let r) = $0 { r } else { nil } })
        // Intervals end inner-first; the store orders them by start time.
        #expect(
            try reader.intervals()
                == events.compactMap { if case .interval(let r) = $0 { r } else { nil } }.sorted {
                    $0.ts < $1.ts
                })
        #expect(
            try reader.instants() == events.compactMap { if case .instant(let r) = $0 { r } else { nil } })
        #expect(try reader.chunks() == events.compactMap { if case .chunk(let r) = $0 { r } else { nil } })
        #expect(
            try reader.payloads() == events.compactMap { if case .payload(let r) = $0 { r } else { nil } })
        #expect(try reader.dropped() == events.compactMap { if case .dropped(let r) = $0 { r } else { nil } })

        // Spot checks that the comparisons above compared something.
        let runs = try reader.runs()
        #expect(runs.count == 1)
        #expect(runs.first?.runID == tracer.runID)
        #expect(runs.first?.label == "round-trip")
        #expect(try reader.requests().count == 3)
        #expect(try reader.intervals().count == 2)
        #expect(
            try reader.payloads().allSatisfy { $0.text.contains("[redacted]") && !$0.text.contains("secret") }
        )
        #expect(try reader.intervals().first { $0.name == "Inner" }?.error?.contains("PlannerFailed") == true)
    }

    @Test func everyRowCarriesTheRunIDOfItsTracer() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("run.sqlite")
        let sink = try StoreSink(path: path)
        let first = Tracer(sink: sink, clock: steppingClock())
        first.record(.request(RequestRecord(requestID: first.makeID(), ts: 1, dur: 1)), kind: .request)
        first.record(.chunk(ChunkRecord(requestID: 1, ts: 2, tokens: 1)), kind: .chunk)
        let second = Tracer(sink: sink, clock: steppingClock())
        second.record(.request(RequestRecord(requestID: second.makeID(), ts: 3, dur: 1)), kind: .request)
        second.instant("Later")
        sink.close()

        let reader = try StoreReader(path: path)
        var mismatches: Int64 = -1
        try reader.query(
            """
            SELECT (SELECT count(*) FROM request WHERE run_id != (request_id & ~0xFFFFFFFF))
                 + (SELECT count(*) FROM instant WHERE run_id != (instant_id & ~0xFFFFFFFF))
            """
        ) { row in mismatches = row.int64(0) }
        #expect(mismatches == 0)
        #expect(try reader.requests(runID: first.runID).count == 1)
        #expect(try reader.requests(runID: second.runID).count == 1)
        #expect(try reader.chunks(runID: first.runID).count == 1)
        #expect(try reader.chunks(runID: second.runID).isEmpty)
        #expect(try reader.runs().map(\.runID).sorted() == [first.runID, second.runID].sorted())
    }

    /// The middleware re-records a session as it grows; the store keeps the latest record.
    @Test func aLaterRecordOfTheSameIDReplacesTheEarlier() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("run.sqlite")
        let sink = try StoreSink(path: path)
        sink.record(.session(SessionRecord(sessionID: 7, ts: 100, dur: 10, label: "planner")))
        sink.record(.session(SessionRecord(sessionID: 7, ts: 100, dur: 25, label: "planner")))
        sink.record(.request(RequestRecord(requestID: 8, sessionID: 7, ts: 101, dur: 1, outputTokens: 1)))
        sink.record(.request(RequestRecord(requestID: 8, sessionID: 7, ts: 101, dur: 2, outputTokens: 9)))
        sink.close()

        let reader = try StoreReader(path: path)
        #expect(try reader.sessions() == [SessionRecord(sessionID: 7, ts: 100, dur: 25, label: "planner")])
        #expect(try reader.requests().map(\.outputTokens) == [9])
    }

    @Test func requestStatAddsGenerationRateAndCacheHitRatio() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("run.sqlite")
        let sink = try StoreSink(path: path)
        let request = fullRequest(id: 1, sessionID: nil, ts: 0)
        sink.record(.request(request))
        sink.record(.request(RequestRecord(requestID: 2, ts: 5, dur: 10)))
        sink.close()

        let reader = try StoreReader(path: path)
        var rows: [(Double?, Double?)] = []
        let sql = "SELECT tokens_per_second, cache_hit_ratio FROM request_stat ORDER BY request_id"
        try reader.query(sql) { row in
            rows.append((row.optionalDouble(0), row.optionalDouble(1)))
        }
        #expect(rows.count == 2)
        let rate = try #require(rows.first?.0)
        #expect(abs(rate - request.tokensPerSecond!) < 1e-9)
        #expect(rows.first?.1 == 384.0 / 512.0)
        #expect(rows.last?.0 == nil && rows.last?.1 == nil)
    }

    @Test func queryBindsArgumentsAndNamesColumns() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("run.sqlite")
        let sink = try StoreSink(path: path)
        for id in 1...10 {
            sink.record(
                .request(
                    RequestRecord(requestID: Int64(id), ts: Int64(id), dur: 1, model: id % 2 == 0 ? "a" : "b")
                ))
        }
        sink.close()

        let reader = try StoreReader(path: path)
        var names: [String] = []
        var counts: [Int64] = []
        try reader.query(
            "SELECT model, count(*) AS n FROM request WHERE model = ? AND ts > ? GROUP BY model", ["a", 4]
        ) { row in
            names = (0..<row.columnCount).map(row.columnName)
            counts.append(row.int64(1))
        }
        #expect(names == ["model", "n"])
        #expect(counts == [3])
        #expect(throws: StoreError.self) { try reader.query("SELECT nope FROM request") { _ in } }
        // The connection is read-only: writing through it fails and changes nothing.
        #expect(throws: StoreError.self) { try reader.query("DELETE FROM request") { _ in } }
        #expect(try reader.requests().count == 10)
    }
}

@Suite("Store schema versions")
struct StoreSchemaVersionTests {
    /// A version-1 store, a real planner run as the first landing wrote it: no turn, fingerprint or
    /// response columns.
    static let versionOnePlannerRun = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("tracefiles/schema-1/planner-run.sqlite").path

    @Test func aVersionOneStoreReadsWithTheNewFieldsAbsent() throws {
        let reader = try StoreReader(path: Self.versionOnePlannerRun)
        try #require(reader.schemaVersion == 1)
        let requests = try reader.requests()
        #expect(!requests.isEmpty)
        #expect(requests.allSatisfy { $0.turnID == nil && $0.toolsFingerprint == nil && $0.responseID == nil })
        #expect(try reader.toolCalls().allSatisfy { $0.outputFingerprint == nil && $0.outputSketch == nil })
    }

    @Test func aWriterBringsAVersionOneStoreUpToDateAndKeepsItsRows() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("old.sqlite")
        try FileManager.default.copyItem(atPath: Self.versionOnePlannerRun, toPath: path)
        let before = try StoreReader(path: path).requests()

        let sink = try StoreSink(path: path)
        let tracer = Tracer(sink: sink, clock: steppingClock(), label: "appended")
        let added = fullRequest(id: tracer.makeID(), sessionID: nil, ts: tracer.now())
        tracer.record(.request(added), kind: .request)
        sink.close()

        let reader = try StoreReader(path: path)
        #expect(reader.schemaVersion == StoreSchema.version)
        let after = try reader.requests()
        #expect(after.count == before.count + 1)
        #expect(after.filter { $0.requestID != added.requestID } == before)
        #expect(after.first { $0.requestID == added.requestID } == added)
    }
}
