import SessionTrace

/// The store's schema: one table per event kind, documented for users in `docs/schema.md`.
///
/// Perfetto's habits: singular snake_case tables named for the vocabulary, times as INTEGER
/// nanoseconds `ts`/`dur`, keys `<table>_id`. Ids come from the records and are unique across
/// runs, so several runs can share one file. Every table has `run_id`: the run whose `run`
/// record the writer received last (for ids made by `Tracer`, equal to `id & ~0xFFFFFFFF`).
///
/// Change the schema only together with ``version``, `docs/schema.md` and a migration.
public enum StoreSchema {
    /// The schema version this SessionTrace writes and reads (`meta.schema_version`).
    public static let version: Int64 = 3

    /// `PRAGMA application_id`, so `file(1)` and tools can tell a store from other SQLite files.
    static let applicationID: Int32 = 0x5354_5243  // "STRC"

    /// How a writer's connection writes: WAL, synced at checkpoints, statement journals in memory.
    ///
    /// `temp_store = MEMORY` keeps each insert's statement journal in memory. On disk (SQLite's
    /// default), a transaction of requests with a tracer's ids and timestamps spilled it to a
    /// temporary file, and each later row wrote about two pages there: some sixteen times the bytes
    /// of the store (`StoreWriterIOTests`). Package-wide so that `trace-bench`'s plain-SQLite
    /// reference writes as the store does.
    package static let writerPragmas =
        "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA temp_store = MEMORY;"

    /// The tables, indexes and views of the current version; every statement is idempotent.
    ///
    /// A writer runs them each time it opens a store, after any migration, so a store written
    /// before an index or view existed gains it then; a reader opens read-only and adds nothing.
    package static let createStatements = """
        CREATE TABLE IF NOT EXISTS meta (
            key TEXT PRIMARY KEY,
            value
        );
        \(runClosedStatement)
        \(tables.map(\.createStatement).joined(separator: "\n"))
        \(indexesAndViews)
        """

    /// The runs whose writer closed them (``StoreSink/close()``, at exit or on a terminating
    /// signal), with the wall-clock time it did; a run without a row here crashed or was killed,
    /// or is still being recorded. The writer's bookkeeping, not an event: no field table.
    static let runClosedStatement = """
        CREATE TABLE IF NOT EXISTS run_closed (
            run_id INTEGER PRIMARY KEY,
            wall_clock INTEGER
        );
        """

    /// The store's tables, one per event kind, derived from the records' field tables.
    package static let tables: [StoreTable] = TraceEventKind.allCases.map { StoreTable(name: $0.name, fields: $0.fieldSpecs) }

    /// The table of `kind`.
    package static func table(_ kind: TraceEventKind) -> StoreTable { tables[kind.rawValue] }

    /// Indexes and views, written by hand: they say how the store is queried, not what it holds.
    static let indexesAndViews = """
        CREATE INDEX IF NOT EXISTS request_session_ts ON request(session_id, ts);
        CREATE INDEX IF NOT EXISTS tool_call_request ON tool_call(request_id);
        CREATE INDEX IF NOT EXISTS chunk_request ON chunk(request_id);
        CREATE INDEX IF NOT EXISTS request_turn ON request(turn_id);
        CREATE INDEX IF NOT EXISTS request_run ON request(run_id);
        CREATE INDEX IF NOT EXISTS request_ts ON request(ts);
        CREATE INDEX IF NOT EXISTS tool_call_session ON tool_call(session_id);
        CREATE INDEX IF NOT EXISTS interval_parent ON interval(parent_id);
        CREATE INDEX IF NOT EXISTS payload_parent ON payload(parent_id);
        CREATE VIEW IF NOT EXISTS request_stat AS
        SELECT
            request.*,
            CASE WHEN output_tokens > 1 AND ttft IS NOT NULL AND dur > ttft
                THEN (output_tokens - 1) / ((dur - ttft) / 1e9) END AS tokens_per_second,
            CASE WHEN input_tokens > 0 AND cached_input_tokens IS NOT NULL
                THEN CAST(cached_input_tokens AS REAL) / input_tokens END AS cache_hit_ratio
        FROM request;
        CREATE VIEW IF NOT EXISTS request_detail AS
        SELECT
            request.*,
            session.label AS session_label,
            run.label AS run_label,
            run.host AS host,
            run.wall_clock_start + (request.ts - run.ts) AS wall_clock_ts
        FROM request
        LEFT JOIN session ON session.session_id = request.session_id
        LEFT JOIN run ON run.run_id = request.run_id;
        CREATE VIEW IF NOT EXISTS tool_call_detail AS
        SELECT
            tool_call.*,
            request.turn_id AS turn_id,
            request.profile AS profile,
            request.model AS model,
            request.ts AS request_ts,
            session.label AS session_label
        FROM tool_call
        LEFT JOIN request ON request.request_id = tool_call.request_id
        LEFT JOIN session ON session.session_id = tool_call.session_id;
        CREATE VIEW IF NOT EXISTS cache_hit_by_minute AS
        SELECT
            request.run_id AS run_id,
            (request.ts - run.ts) / 60000000000 AS minute,
            run.wall_clock_start + (request.ts - run.ts) / 60000000000 * 60000000000 AS wall_clock_ts,
            count(*) AS requests,
            sum(CASE WHEN request.cached_input_tokens IS NOT NULL THEN request.input_tokens END)
                AS input_tokens,
            sum(request.cached_input_tokens) AS cached_input_tokens,
            CAST(sum(request.cached_input_tokens) AS REAL)
                / sum(CASE WHEN request.cached_input_tokens IS NOT NULL THEN request.input_tokens END)
                AS cache_hit_ratio
        FROM request
        JOIN run ON run.run_id = request.run_id
        GROUP BY request.run_id, minute;
        """

    /// A tool output's similarity sketch as stored and exported: eight lowercase hex digits per
    /// value.
    public static func encodeSketch(_ sketch: [UInt32]) -> String {
        var text = ""
        text.reserveCapacity(sketch.count * 8)
        for value in sketch {
            let hex = String(value, radix: 16)
            text += String(repeating: "0", count: 8 - hex.count) + hex
        }
        return text
    }

    /// The sketch back from its stored text; nil when the text is not a whole number of values.
    static func decodeSketch(_ text: String) -> [UInt32]? {
        let digits = Array(text.utf8)
        guard digits.count % 8 == 0 else { return nil }
        var values: [UInt32] = []
        values.reserveCapacity(digits.count / 8)
        for start in stride(from: 0, to: digits.count, by: 8) {
            guard let value = UInt32(String(decoding: digits[start..<start + 8], as: UTF8.self), radix: 16)
            else { return nil }
            values.append(value)
        }
        return values
    }
}
