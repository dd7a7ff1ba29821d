import Foundation
import SessionTrace
import SessionTraceTesting
import TestSupport
import Testing

@testable import TraceStore

/// What a reader does with stores no closed sink left: values no recording writes, and a copy
/// made while a sink wrote (a `-wal` log beside it, no `-shm`).
@Suite("StoreReader on unusual stores")
struct StoreReaderSafetyTests {
    /// A store of `count` requests, closed.
    private func makeStore(_ path: String, count: Int) throws {
        let sink = try StoreSink(path: path)
        let tracer = Tracer(sink: sink, clock: steppingClock(), label: "safety")
        for _ in 0..<count {
            tracer.record(.request(fullRequest(id: tracer.makeID(), sessionID: nil, ts: tracer.now())), kind: .request)
        }
        sink.close()
    }

    private func sqlite(_ path: String, _ sql: String) throws {
        let result = try runProgram("/usr/bin/sqlite3", [path, sql])
        try #require(result.status == 0, "sqlite3: \(result.err)")
    }

    @Test func implausibleValuesAreReadAsTheNearestPlausibleOneAndReported() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("run.sqlite")
        try makeStore(path, count: 4)
        try sqlite(
            path,
            """
            UPDATE request SET dur = 9223372036854775807, input_tokens = 'many', output_tokens = 7.5,
                temperature = 9e999 WHERE request_id = (SELECT min(request_id) FROM request);
            UPDATE request SET ts = -1e300, cached_input_tokens = x'00ff'
                WHERE request_id = (SELECT max(request_id) FROM request);
            """)
        let reader = try StoreReader(path: path)
        let requests = try reader.requests().sorted { $0.requestID < $1.requestID }
        let first = try #require(requests.first)
        let last = try #require(requests.last)
        #expect(first.dur == PlausibleRange.duration.upperBound)
        #expect(first.inputTokens == nil)
        #expect(first.outputTokens == 8)
        #expect(first.temperature == nil)
        #expect(last.ts == 0)
        #expect(last.cachedInputTokens == nil)
        #expect(requests.dropFirst().allSatisfy { $0.dur == 900_000_000 })

        let anomalies = Dictionary(uniqueKeysWithValues: try reader.anomalies().map { ($0.column, $0) })
        #expect(
            Set(anomalies.keys) == ["dur", "input_tokens", "output_tokens", "ts", "cached_input_tokens", "temperature"])
        #expect(anomalies["dur"]?.outOfRange == 1)
        #expect(anomalies["dur"]?.highest == "9223372036854775807")
        #expect(
            anomalies["dur"]?.description
                == "\(path): request.dur holds 1 value outside 0 to 2^60 (9223372036854775807), "
                + "read as the nearest bound")
        #expect(anomalies["ts"]?.lowest == "-1.0e+300")
        #expect(
            anomalies["temperature"]?.description
                == "\(path): request.temperature holds 1 value not a finite number, read as unknown")
        #expect(anomalies["output_tokens"]?.fractions == 1)
        #expect(anomalies["input_tokens"]?.notNumbers == 1)
        #expect(anomalies["cached_input_tokens"]?.notNumbers == 1)
    }

    @Test func everyColumnIsCountedOnlyWhenAsked() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("run.sqlite")
        try makeStore(path, count: 3)
        try sqlite(path, "UPDATE request SET prompt_bytes = -5, run_id = 1e19")
        let reader = try StoreReader(path: path)
        #expect(try reader.anomalies().isEmpty, "nothing read yet")
        #expect(try reader.anomalies(everyColumn: true).map { "\($0.table).\($0.column)" }
            == ["request.prompt_bytes", "request.run_id"])
        #expect(try StoreReader(path: path).requests().allSatisfy { $0.promptBytes == 0 })
    }

    @Test func aRecordedStoreHasNoAnomalies() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("run.sqlite")
        try makeStore(path, count: 50)
        let reader = try StoreReader(path: path)
        _ = try reader.requests()
        #expect(try reader.anomalies(everyColumn: true).isEmpty)
    }

    /// A copy taken while a sink wrote holds its newest rows in the `-wal` log only; SQLite would
    /// create `-shm` beside it to read them.
    @Test func aStoreCopiedWithItsLogButNoIndexIsReadWholeAndNothingAppears() throws {
        let directory = try TemporaryDirectory()
        let live = directory.path("live.sqlite")
        let sink = try StoreSink(path: live)
        let tracer = Tracer(sink: sink, clock: steppingClock(), label: "copied")
        for _ in 0..<120 {
            tracer.record(.request(fullRequest(id: tracer.makeID(), sessionID: nil, ts: tracer.now())), kind: .request)
        }
        sink.flush()
        let copy = try TemporaryDirectory()
        let logOnly = try TemporaryDirectory()
        for (name, target) in [("store.sqlite", copy), ("store.sqlite", logOnly)] {
            try FileManager.default.copyItem(atPath: live, toPath: target.path(name))
        }
        try FileManager.default.copyItem(atPath: live + "-wal", toPath: copy.path("store.sqlite-wal"))
        sink.close()

        let path = copy.path("store.sqlite")
        let before = (try fileBytes(path), try fileBytes(path + "-wal"))
        do {
            let reader = try StoreReader(path: path)
            #expect(try reader.requests().count == 120)
            #expect(try reader.runs().first?.label == "copied")
        }
        #expect(try fileNames(in: copy) == ["store.sqlite", "store.sqlite-wal"])
        #expect(try fileBytes(path) == before.0)
        #expect(try fileBytes(path + "-wal") == before.1)
        // Without its log the same file holds none of the rows: the reader did read the log.
        let withoutLog = try? StoreReader(path: logOnly.path("store.sqlite")).requests().count
        #expect(withoutLog ?? 0 == 0)
    }
}
