import Foundation
import SessionTrace
import TestSupport
import Testing

@testable import TraceStore

@Suite("Store indexes and views")
struct StoreIndexAndViewTests {
    static let minute: Int64 = 60_000_000_000
    static let runStart: Int64 = 5_000_000_000
    static let wallClockStart: Int64 = 1_750_000_000_000_000_000

    /// One run, one session, three requests over two minutes (one reports no cache figures), a
    /// tool call, an interval inside another and a payload.
    static func recordRun(at path: String) throws {
        let sink = try StoreSink(path: path)
        let runID: Int64 = 7 << 32
        sink.record(.run(RunRecord(
            runID: runID, ts: runStart, wallClockStart: wallClockStart, host: "ci-1", commandLine: "planner",
            label: "nightly")))
        sink.record(.session(SessionRecord(sessionID: runID | 1, ts: runStart, dur: 3 * minute, label: "planner")))
        let requests: [(Int64, Int64, Int64?, Int64?)] = [
            (2, runStart + 10_000_000_000, 100, 0),
            (3, runStart + 50_000_000_000, 200, 150),
            (4, runStart + minute + 5_000_000_000, 400, nil),
        ]
        for (sequence, ts, input, cached) in requests {
            sink.record(.request(RequestRecord(
                requestID: runID | sequence, sessionID: runID | 1, ts: ts, dur: 1_000_000_000,
                profile: "economy", model: "smollm2", inputTokens: input, cachedInputTokens: cached,
                turnID: runID | 9)))
        }
        sink.record(.toolCall(ToolCallRecord(
            toolCallID: runID | 5, requestID: runID | 3, sessionID: runID | 1, ts: runStart + 51_000_000_000,
            dur: 2_000_000, name: "weather", argumentsFingerprint: "ab", argumentsBytes: 10, outputBytes: 20)))
        sink.record(.interval(IntervalRecord(intervalID: runID | 6, ts: runStart, dur: minute, name: "PlanDay")))
        sink.record(.interval(IntervalRecord(
            intervalID: runID | 8, parentID: runID | 6, ts: runStart + 1, dur: 10, name: "Step")))
        sink.close()
    }

    /// Each row of `sql` over a freshly recorded run, as `line` writes it.
    static func rows(_ sql: String, _ line: (Row) -> String) throws -> [String] {
        let directory = try TemporaryDirectory()
        let path = directory.path("run.sqlite")
        try recordRun(at: path)
        var rows: [String] = []
        try StoreReader(path: path).query(sql) { rows.append(line($0)) }
        return rows
    }

    /// `name`'s SQL in `sqlite_schema`, nil when the store has no such object.
    static func schemaObject(_ name: String, in reader: StoreReader) throws -> String? {
        var sql: String?
        try reader.query("SELECT sql FROM sqlite_schema WHERE name = ?", [.text(name)]) { sql = $0.string(0) }
        return sql
    }

    static let indexes = ["request_run", "request_ts", "payload_parent", "interval_parent", "tool_call_session"]
    static let views = ["request_detail", "tool_call_detail", "cache_hit_by_minute"]

    @Test("the lookups by run, time, parent and session use an index", arguments: [
        ("SELECT * FROM request WHERE run_id = 1", "request_run"),
        ("SELECT * FROM request WHERE ts BETWEEN 1 AND 2", "request_ts"),
        ("SELECT * FROM payload WHERE parent_id = 1", "payload_parent"),
        ("SELECT * FROM interval WHERE parent_id = 1", "interval_parent"),
        ("SELECT * FROM tool_call WHERE session_id = 1", "tool_call_session"),
    ])
    func lookupsUseTheirIndex(sql: String, index: String) throws {
        let plan = try Self.rows("EXPLAIN QUERY PLAN " + sql) { $0.string(3) }
        #expect(plan.contains { $0.contains("USING INDEX \(index)") }, "\(plan)")
    }

    @Test func requestDetailJoinsEachRequestToItsSessionAndRun() throws {
        let rows = try Self.rows(
            "SELECT request_id & 255, session_label, run_label, host, wall_clock_ts, input_tokens "
                + "FROM request_detail ORDER BY ts"
        ) { row in
            "\(row.int64(0)) \(row.string(1)) \(row.string(2)) \(row.string(3)) "
                + "\(row.int64(4) - Self.wallClockStart) \(row.int64(5))"
        }
        #expect(rows == [
            "2 planner nightly ci-1 10000000000 100",
            "3 planner nightly ci-1 50000000000 200",
            "4 planner nightly ci-1 65000000000 400",
        ])
    }

    @Test func toolCallDetailCarriesItsRequest() throws {
        let rows = try Self.rows(
            "SELECT name, request_id & 255, turn_id & 255, profile, model, request_ts, session_label "
                + "FROM tool_call_detail"
        ) { row in
            (0..<row.columnCount).map { row.string($0) }.joined(separator: " ")
        }
        #expect(rows == ["weather 3 9 economy smollm2 \(Self.runStart + 50_000_000_000) planner"])
    }

    @Test func cacheHitByMinuteSumsTheRequestsThatReportTheCache() throws {
        let rows = try Self.rows(
            "SELECT minute, wall_clock_ts, requests, input_tokens, cached_input_tokens, cache_hit_ratio "
                + "FROM cache_hit_by_minute ORDER BY minute"
        ) { row in
            [
                "\(row.int64(0))", "\(row.int64(1) - Self.wallClockStart)", "\(row.int64(2))",
                row.optionalInt64(3).map(String.init) ?? "NULL", row.optionalInt64(4).map(String.init) ?? "NULL",
                row.optionalDouble(5).map { String($0) } ?? "NULL",
            ].joined(separator: " ")
        }
        // Minute 0: 150 of 300 tokens cached. Minute 1: the one request reports no cache figures.
        #expect(rows == ["0 0 2 300 150 0.5", "1 60000000000 1 NULL NULL NULL"])
    }

    @Test func aWriterAddsThemToAStoreThatPredatesThemAndAReaderDoesNot() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("old.sqlite")
        try Self.recordRun(at: path)
        // The store as the previous version wrote it: version 2 without the new indexes and views.
        let drop = (Self.indexes.map { "DROP INDEX \($0);" } + Self.views.map { "DROP VIEW \($0);" })
        let dropped = try runProgram("/usr/bin/sqlite3", [path, drop.joined(separator: " ")])
        try #require(dropped.status == 0, "\(dropped.err)")
        let before = try fileBytes(path)

        let reader = try StoreReader(path: path)
        #expect(try Self.schemaObject("request_run", in: reader) == nil)
        #expect(try reader.requests().count == 3)
        #expect(try fileBytes(path) == before)

        try StoreSink(path: path).close()
        let reopened = try StoreReader(path: path)
        for name in Self.indexes + Self.views {
            #expect(try Self.schemaObject(name, in: reopened) != nil, "\(name)")
        }
        #expect(reopened.schemaVersion == StoreSchema.version)
        #expect(try reopened.requests().count == 3)
    }

    @Test func aWriterAddsThemWhenItMigratesAVersionOneStore() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("v1.sqlite")
        try FileManager.default.copyItem(atPath: StoreSchemaVersionTests.versionOnePlannerRun, toPath: path)
        #expect(try Self.schemaObject("request_detail", in: StoreReader(path: path)) == nil)
        try StoreSink(path: path).close()
        let reader = try StoreReader(path: path)
        var requests: Int64 = 0
        try reader.query("SELECT count(*) FROM request_detail WHERE session_label IS NOT NULL") {
            requests = $0.int64(0)
        }
        #expect(requests == Int64(try reader.requests().count))
        #expect(requests > 0)
    }
}
