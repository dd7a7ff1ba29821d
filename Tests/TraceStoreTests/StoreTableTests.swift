import Foundation
import SessionTrace
import TestSupport
import Testing

@testable import TraceStore

/// The store's tables as the field tables derive them: the columns the hand-written schema of
/// version 2 had, in the same order, and an insert that binds each column by name.
@Suite("Store tables from the field tables")
struct StoreTableTests {
    /// A planner run recorded by the version-2 writer whose DDL was written by hand.
    static let handWrittenSchemaStore = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("tracefiles/planner/run-1.sqlite").path

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
    /// in a store written by the hand-written version-2 schema, in the same order; a field added
    /// since may sit among them.
    @Test(arguments: TraceEventKind.allCases)
    func aNewStoresTablesHoldThoseOfAVersionTwoStore(kind: TraceEventKind) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("new.sqlite")
        try StoreWriter(path: path).close()
        let old = try Self.columns(of: kind.name, in: StoreReader(path: Self.handWrittenSchemaStore))
        let new = try Self.columns(of: kind.name, in: StoreReader(path: path))
        #expect(old.count > 2)
        #expect(new.filter(old.contains) == old)
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

    /// A store made before a field existed (here: one whose `temperature` column is dropped)
    /// reads the field as unknown, and gains its column when a writer opens it.
    @Test func aColumnTheFileLacksReadsNullAndIsAddedByTheNextWriter() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("old.sqlite")
        let first = RequestRecord(requestID: 1, ts: 10, dur: 20, model: "m", temperature: 0.5)
        let writer = try StoreWriter(path: path)
        try writer.insert(.request(first))
        writer.close()
        let database = try SQLiteDatabase(path: path, flags: 0x2)  // SQLITE_OPEN_READWRITE
        try database.execute("ALTER TABLE request DROP COLUMN temperature")
        database.close()

        var withoutTemperature = first
        withoutTemperature.temperature = nil
        #expect(try StoreReader(path: path).requests() == [withoutTemperature])

        let second = RequestRecord(requestID: 2, ts: 30, dur: 20, model: "m", temperature: 0.75)
        let reopened = try StoreWriter(path: path)
        try reopened.insert(.request(second))
        reopened.close()
        #expect(try StoreReader(path: path).requests() == [withoutTemperature, second])
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

/// `docs/schema.md` documents every column of every table under the table's heading.
@Suite("Schema document")
struct SchemaDocumentTests {
    static let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/schema.md").path

    @Test(arguments: TraceEventKind.allCases)
    func everyColumnIsDocumentedUnderItsTable(kind: TraceEventKind) throws {
        let documented = try Self.documentedColumns(String(contentsOfFile: Self.document, encoding: .utf8))
        let columns = StoreSchema.table(kind).columns.map(\.name)
        #expect(documented[kind.name] == columns)
    }

    @Test func theParserReadsColumnsSharingARow() {
        let text = """
            ### `chunk` — arrival of streamed output
            | column | type | meaning |
            | --- | --- | --- |
            | `chunk_id` | INTEGER PRIMARY KEY | |
            | `run_id`, `request_id` | INTEGER | |
            ### View `request_stat`
            | `tokens_per_second` | REAL | |
            """
        #expect(Self.documentedColumns(text) == ["chunk": ["chunk_id", "run_id", "request_id"]])
    }

    /// The columns each `### \\`table\\`` section's rows name in their first cell, in order.
    static func documentedColumns(_ text: String) -> [String: [String]] {
        var tables: [String: [String]] = [:]
        var current: String?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("### ") {
                let heading = line.dropFirst(4)
                current = heading.hasPrefix("`") ? heading.split(separator: "`").first.map(String.init) : nil
                continue
            }
            guard let table = current, line.hasPrefix("| `") else { continue }
            let cell = line.dropFirst(2).prefix { $0 != "|" }
            // Between backticks: the odd pieces.
            let pieces = cell.split(separator: "`", omittingEmptySubsequences: false)
            tables[table, default: []] += pieces.indices.filter { $0 % 2 == 1 }.map { String(pieces[$0]) }
        }
        return tables
    }
}
