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
    public static let version: Int64 = 2

    /// Columns that version 2 added to version 1's tables, with their types. A version-1 store
    /// gains them (all NULL) when a writer opens it; readers of a version-1 file read NULL.
    static let addedInVersion2: [(table: String, column: String, type: String)] = [
        ("request", "turn_id", "INTEGER"),
        ("request", "instructions_fingerprint", "TEXT"),
        ("request", "tools_fingerprint", "TEXT"),
        ("request", "cache_write_tokens", "INTEGER"),
        ("request", "response_id", "TEXT"),
        ("request", "response_model", "TEXT"),
        ("request", "server_address", "TEXT"),
        ("request", "server_port", "INTEGER"),
        ("request", "streamed", "INTEGER"),
        ("request", "max_tokens", "INTEGER"),
        ("request", "temperature", "REAL"),
        ("tool_call", "output_fingerprint", "TEXT"),
        ("tool_call", "output_sketch", "TEXT"),
    ]

    /// `PRAGMA application_id`, so `file(1)` and tools can tell a store from other SQLite files.
    static let applicationID: Int32 = 0x5354_5243  // "STRC"

    /// The tables, indexes and views of the current version; every statement is idempotent.
    ///
    /// A writer runs them each time it opens a store, after any migration, so a store written
    /// before an index or view existed gains it then; a reader opens read-only and adds nothing.
    static let createStatements = """
        CREATE TABLE IF NOT EXISTS meta (
            key TEXT PRIMARY KEY,
            value
        );
        CREATE TABLE IF NOT EXISTS run (
            run_id INTEGER PRIMARY KEY,
            ts INTEGER NOT NULL,
            wall_clock_start INTEGER NOT NULL,
            host TEXT NOT NULL,
            command_line TEXT NOT NULL,
            git_revision TEXT,
            label TEXT,
            tool_version TEXT NOT NULL
        );
        CREATE TABLE IF NOT EXISTS session (
            session_id INTEGER PRIMARY KEY,
            run_id INTEGER,
            ts INTEGER NOT NULL,
            dur INTEGER NOT NULL,
            label TEXT NOT NULL
        );
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
        CREATE TABLE IF NOT EXISTS tool_call (
            tool_call_id INTEGER PRIMARY KEY,
            run_id INTEGER,
            request_id INTEGER,
            session_id INTEGER,
            ts INTEGER NOT NULL,
            dur INTEGER NOT NULL,
            name TEXT NOT NULL,
            call_id TEXT,
            arguments_fingerprint TEXT NOT NULL,
            arguments_bytes INTEGER NOT NULL,
            output_bytes INTEGER NOT NULL,
            outcome TEXT NOT NULL,
            error TEXT,
            output_fingerprint TEXT,
            output_sketch TEXT
        );
        CREATE TABLE IF NOT EXISTS handoff (
            handoff_id INTEGER PRIMARY KEY,
            run_id INTEGER,
            session_id INTEGER,
            ts INTEGER NOT NULL,
            kind TEXT NOT NULL,
            from_value TEXT NOT NULL,
            to_value TEXT NOT NULL
        );
        CREATE TABLE IF NOT EXISTS interval (
            interval_id INTEGER PRIMARY KEY,
            run_id INTEGER,
            parent_id INTEGER,
            session_id INTEGER,
            ts INTEGER NOT NULL,
            dur INTEGER NOT NULL,
            name TEXT NOT NULL,
            metadata TEXT NOT NULL,
            error TEXT
        );
        CREATE TABLE IF NOT EXISTS instant (
            instant_id INTEGER PRIMARY KEY,
            run_id INTEGER,
            parent_id INTEGER,
            ts INTEGER NOT NULL,
            name TEXT NOT NULL,
            metadata TEXT NOT NULL
        );
        CREATE TABLE IF NOT EXISTS chunk (
            chunk_id INTEGER PRIMARY KEY,
            run_id INTEGER,
            request_id INTEGER NOT NULL,
            ts INTEGER NOT NULL,
            tokens INTEGER NOT NULL
        );
        CREATE TABLE IF NOT EXISTS payload (
            payload_id INTEGER PRIMARY KEY,
            run_id INTEGER,
            parent_id INTEGER,
            ts INTEGER NOT NULL,
            kind TEXT NOT NULL,
            text TEXT NOT NULL
        );
        CREATE TABLE IF NOT EXISTS dropped (
            dropped_id INTEGER PRIMARY KEY,
            run_id INTEGER,
            ts INTEGER NOT NULL,
            sink TEXT NOT NULL,
            reason TEXT NOT NULL,
            count INTEGER NOT NULL
        );
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

    // One INSERT per table, parameters in column order. Rows keyed by a record's id replace an
    // earlier row of the same id: the middleware re-records a session as it grows.

    static let insertRun = """
        INSERT OR REPLACE INTO run (run_id, ts, wall_clock_start, host, command_line, git_revision,
            label, tool_version) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
        """
    static let insertSession = """
        INSERT OR REPLACE INTO session (session_id, run_id, ts, dur, label) VALUES (?1, ?2, ?3, ?4, ?5)
        """
    static let insertRequest = """
        INSERT OR REPLACE INTO request (request_id, run_id, session_id, parent_id, ts, dur, ttft, profile,
            provider, model, input_tokens, cached_input_tokens, output_tokens, prompt_bytes,
            transcript_entries, reused_prefix_entries, finish_reason, error, server_prompt_tokens,
            server_cached_tokens, server_prompt_dur, server_predicted_tokens, server_predicted_dur, turn_id,
            instructions_fingerprint, tools_fingerprint, cache_write_tokens, response_id, response_model,
            server_address, server_port, streamed, max_tokens, temperature)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19,
            ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32, ?33, ?34)
        """
    static let insertToolCall = """
        INSERT OR REPLACE INTO tool_call (tool_call_id, run_id, request_id, session_id, ts, dur, name,
            call_id, arguments_fingerprint, arguments_bytes, output_bytes, outcome, error, output_fingerprint,
            output_sketch)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)
        """
    static let insertHandoff = """
        INSERT OR REPLACE INTO handoff (handoff_id, run_id, session_id, ts, kind, from_value, to_value)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
        """
    static let insertInterval = """
        INSERT OR REPLACE INTO interval (interval_id, run_id, parent_id, session_id, ts, dur, name,
            metadata, error) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
        """
    static let insertInstant = """
        INSERT OR REPLACE INTO instant (instant_id, run_id, parent_id, ts, name, metadata)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6)
        """
    static let insertChunk = """
        INSERT INTO chunk (run_id, request_id, ts, tokens) VALUES (?1, ?2, ?3, ?4)
        """
    static let insertPayload = """
        INSERT OR REPLACE INTO payload (payload_id, run_id, parent_id, ts, kind, text)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6)
        """
    static let insertDropped = """
        INSERT INTO dropped (run_id, ts, sink, reason, count) VALUES (?1, ?2, ?3, ?4, ?5)
        """

    /// The columns version 2 added, for a SELECT: their names, or NULLs in a version-1 store.
    static func addedColumns(_ table: String, schemaVersion: Int64) -> String {
        StoreSchema.addedInVersion2.filter { $0.table == table }
            .map { schemaVersion >= 2 ? $0.column : "NULL" }.joined(separator: ", ")
    }

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
