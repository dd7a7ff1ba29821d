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
    public static let version: Int64 = 1

    /// `PRAGMA application_id`, so `file(1)` and tools can tell a store from other SQLite files.
    static let applicationID: Int32 = 0x5354_5243  // "STRC"

    /// The tables, indexes and views of version 1; every statement is idempotent.
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
            server_predicted_dur INTEGER
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
            error TEXT
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
        CREATE VIEW IF NOT EXISTS request_stat AS
        SELECT
            request.*,
            CASE WHEN output_tokens > 1 AND ttft IS NOT NULL AND dur > ttft
                THEN (output_tokens - 1) / ((dur - ttft) / 1e9) END AS tokens_per_second,
            CASE WHEN input_tokens > 0 AND cached_input_tokens IS NOT NULL
                THEN CAST(cached_input_tokens AS REAL) / input_tokens END AS cache_hit_ratio
        FROM request;
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
            server_cached_tokens, server_prompt_dur, server_predicted_tokens, server_predicted_dur)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19,
            ?20, ?21, ?22, ?23)
        """
    static let insertToolCall = """
        INSERT OR REPLACE INTO tool_call (tool_call_id, run_id, request_id, session_id, ts, dur, name,
            call_id, arguments_fingerprint, arguments_bytes, output_bytes, outcome, error)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)
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
}
