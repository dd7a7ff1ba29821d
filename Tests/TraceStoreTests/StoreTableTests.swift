import Foundation
import SessionTrace
import TestSupport
import Testing

@testable import TraceStore

/// The store's tables as the field tables derive them: the same columns as the hand-written
/// schema of version 2 had, in the same order, and an insert that binds each column by name.
@Suite("Store tables from the field tables")
struct StoreTableTests {
    /// A planner run recorded by the version-2 writer whose DDL was written by hand.
    static let handWrittenSchemaStore = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("tracefiles/planner/run-1.sqlite").path

    @Test func theRequestTableIsVersionTwosRequestTable() {
        #expect(
            StoreSchema.table(.request).createStatement == """
                CREATE TABLE IF NOT EXISTS request (
                    request_id INTEGER PRIMARY KEY,
                    run_id INTEGER,
                    session_id INTEGER,
                    parent_id INTEGER,
                    ts INTEGER NOT NULL,
                    dur INTEGER NOT NULL,
                    ttft INTEGER,
                    profile TEXT NOT NULL,
                    provider TEXT NOT NULL,
                    model TEXT NOT NULL,
                    input_tokens INTEGER,
                    cached_input_tokens INTEGER,
                    output_tokens INTEGER,
                    prompt_bytes INTEGER NOT NULL,
                    transcript_entries INTEGER NOT NULL,
                    reused_prefix_entries INTEGER NOT NULL,
                    finish_reason TEXT,
                    error TEXT,
                    server_prompt_tokens INTEGER,
                    server_cached_tokens INTEGER,
                    server_prompt_dur INTEGER,
                    server_predicted_tokens INTEGER,
                    server_predicted_dur INTEGER,
                    turn_id INTEGER,
                    instructions_fingerprint TEXT,
                    tools_fingerprint TEXT,
                    cache_write_tokens INTEGER,
                    response_id TEXT,
                    response_model TEXT,
                    server_address TEXT,
                    server_port INTEGER,
                    streamed INTEGER,
                    max_tokens INTEGER,
                    temperature REAL
                );
                """)
    }

    /// `chunk` and `dropped` have no id of their own: SQLite numbers their rows, and a row is
    /// appended, never replaced.
    @Test func aRecordWithoutAnIdGetsARowNumberAndAPlainInsert() {
        #expect(
            StoreSchema.table(.chunk).createStatement == """
                CREATE TABLE IF NOT EXISTS chunk (
                    chunk_id INTEGER PRIMARY KEY,
                    run_id INTEGER,
                    request_id INTEGER NOT NULL,
                    ts INTEGER NOT NULL,
                    tokens INTEGER NOT NULL
                );
                """)
        #expect(
            StoreSchema.table(.chunk).insertStatement
                == "INSERT INTO chunk (run_id, request_id, ts, tokens) VALUES (:run_id, :request_id, :ts, :tokens)")
        #expect(
            StoreSchema.table(.handoff).insertStatement
                == "INSERT OR REPLACE INTO handoff (run_id, handoff_id, session_id, ts, kind, from_value, to_value) "
                + "VALUES (:run_id, :handoff_id, :session_id, :ts, :kind, :from_value, :to_value)")
        #expect(
            StoreSchema.table(.run).insertStatement
                == "INSERT OR REPLACE INTO run (run_id, ts, wall_clock_start, host, command_line, git_revision, "
                + "label, tool_version) VALUES (:run_id, :ts, :wall_clock_start, :host, :command_line, "
                + ":git_revision, :label, :tool_version)")
    }

    /// Every table of a new store has the columns (name, type, NOT NULL, key) of the same table
    /// in a store written by the hand-written version-2 schema, in the same order.
    @Test(arguments: TraceEventKind.allCases)
    func aNewStoresTablesAreThoseOfAVersionTwoStore(kind: TraceEventKind) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("new.sqlite")
        try StoreWriter(path: path).close()
        let old = try Self.columns(of: kind.name, in: StoreReader(path: Self.handWrittenSchemaStore))
        #expect(old.count > 2)
        #expect(try Self.columns(of: kind.name, in: StoreReader(path: path)) == old)
    }

    /// A checked-in store reads whole through the derived reader: each request as the store's
    /// own columns give it.
    @Test func aCheckedInStoreReadsAsItsColumnsSay() throws {
        let reader = try StoreReader(path: Self.handWrittenSchemaStore)
        let requests = try reader.requests()
        var models: [String] = []
        var tokens: [Int64?] = []
        try reader.query("SELECT model, output_tokens FROM request ORDER BY ts, request_id") { row in
            models.append(row.string(0))
            tokens.append(row.optionalInt64(1))
        }
        #expect(!requests.isEmpty)
        #expect(requests.map(\.model) == models)
        #expect(requests.map(\.outputTokens) == tokens)
    }

    static func columns(of table: String, in reader: StoreReader) throws -> [String] {
        var columns: [String] = []
        try reader.query(#"SELECT name, type, "notnull", pk FROM pragma_table_info(?1) ORDER BY cid"#, [.text(table)]) {
            row in
            columns.append("\(row.string(0)) \(row.string(1)) notnull=\(row.int64(2)) pk=\(row.int64(3))")
        }
        return columns
    }
}
