import CSQLite
import SessionTrace

#if canImport(Glibc)
import Glibc
#endif

/// A run as the store holds it.
public typealias StoredRun = RunRecord

/// Reads a SessionTrace store for analysis, without ever writing to it.
///
/// The file is opened read-only, and reading it creates no file beside it and leaves every byte
/// as it was: a store closed by its ``StoreSink`` is one self-contained file, and a copy with its
/// `-wal` log but no `-shm` index is read whole, log included, in a read-only directory too.
///
/// ```swift
/// let store = try StoreReader(path: "run.sqlite")
/// for request in try store.requests() { print(request.model, request.timeToFirstToken ?? 0) }
/// try store.query("SELECT model, avg(ttft) FROM request GROUP BY model") { row in
///     print(row.string(0), row.double(1))
/// }
/// ```
public struct StoreReader: Sendable {
    /// The store's file, as given.
    public let path: String
    /// `meta.schema_version` of the file.
    public let schemaVersion: Int64
    let database: SQLiteDatabase

    /// Opens the store at `path` read-only and checks that this version can read it.
    ///
    /// - Throws: ``StoreError``: `.fileNotFound`, `.notAStore` (not a database, empty, no schema
    ///   version), `.corrupt` (truncated or damaged), `.newerSchema`.
    public init(path: String) throws(StoreError) {
        try Self.checkFile(path)
        database = try Self.openReadOnly(path)
        self.path = path
        let tables = try Self.tableCount(database, named: "meta")
        guard tables > 0 else {
            let any = try Self.tableCount(database, named: nil)
            throw .notAStore(
                path: path,
                reason: any == 0
                    ? "an empty SQLite database" : "a SQLite database without SessionTrace's meta table")
        }
        schemaVersion = try Self.schemaVersion(database)
        guard schemaVersion <= StoreSchema.version else {
            throw .newerSchema(path: path, found: schemaVersion, supported: StoreSchema.version)
        }
    }

    /// Streams the rows of `sql` to `body`, one at a time, reading columns by index.
    ///
    /// For analyses that aggregate in SQL; `arguments` bind to `?` parameters in order.
    /// The connection is read-only: a statement that writes fails.
    public func query(
        _ sql: String, _ arguments: [StoreValue] = [], _ body: (Row) -> Void
    ) throws(StoreError) {
        let statement = try database.prepare(sql, persistent: false)
        for (offset, argument) in arguments.enumerated() {
            statement.bind(Int32(offset + 1), argument)
        }
        try statement.forEachRow { row in body(row) }
    }

    /// Every run, by start time.
    public func runs() throws(StoreError) -> [StoredRun] {
        try select(
            """
            SELECT run_id, ts, wall_clock_start, host, command_line, git_revision, label, tool_version
            FROM run ORDER BY ts, run_id
            """, runID: nil
        ) { row in
            RunRecord(
                runID: row.int64(0), ts: row.int64(1), wallClockStart: row.int64(2), host: row.string(3),
                commandLine: row.string(4), gitRevision: row.optionalString(5), label: row.optionalString(6),
                toolVersion: row.string(7))
        }
    }

    /// Sessions, by start time; of run `runID` only if given.
    public func sessions(runID: Int64? = nil) throws(StoreError) -> [SessionRecord] {
        let sql = "SELECT session_id, ts, dur, label FROM session"
        return try select(sql, runID: runID, order: "session_id") { row in
            SessionRecord(sessionID: row.int64(0), ts: row.int64(1), dur: row.int64(2), label: row.string(3))
        }
    }

    /// Requests, by start time; of run `runID` only if given.
    public func requests(runID: Int64? = nil) throws(StoreError) -> [RequestRecord] {
        try select(
            """
            SELECT request_id, session_id, parent_id, ts, dur, ttft, profile, provider, model, input_tokens,
                cached_input_tokens, output_tokens, prompt_bytes, transcript_entries, reused_prefix_entries,
                finish_reason, error, server_prompt_tokens, server_cached_tokens, server_prompt_dur,
                server_predicted_tokens, server_predicted_dur,
                \(StoreSchema.addedColumns("request", schemaVersion: schemaVersion))
            FROM request
            """, runID: runID, order: "request_id"
        ) { row in
            let timings: ServerTimings? =
                row.isNull(17)
                ? nil
                : ServerTimings(
                    promptTokens: row.int64(17), cachedTokens: row.int64(18), promptDuration: row.int64(19),
                    predictedTokens: row.int64(20), predictedDuration: row.int64(21))
            return RequestRecord(
                requestID: row.int64(0), sessionID: row.optionalInt64(1), parentID: row.optionalInt64(2),
                ts: row.int64(3), dur: row.int64(4), timeToFirstToken: row.optionalInt64(5),
                profile: row.string(6), provider: row.string(7), model: row.string(8),
                inputTokens: row.optionalInt64(9), cachedInputTokens: row.optionalInt64(10),
                outputTokens: row.optionalInt64(11), promptBytes: row.int64(12),
                transcriptEntries: row.int64(13), reusedPrefixEntries: row.int64(14),
                finishReason: row.optionalString(15), error: row.optionalString(16), serverTimings: timings,
                turnID: row.optionalInt64(22), instructionsFingerprint: row.optionalString(23),
                toolsFingerprint: row.optionalString(24), cacheWriteTokens: row.optionalInt64(25),
                responseID: row.optionalString(26), responseModel: row.optionalString(27),
                serverAddress: row.optionalString(28), serverPort: row.optionalInt64(29),
                streamed: row.optionalInt64(30).map { $0 != 0 }, maxTokens: row.optionalInt64(31),
                temperature: row.optionalDouble(32))
        }
    }

    /// Tool calls, by start time; of run `runID` only if given.
    public func toolCalls(runID: Int64? = nil) throws(StoreError) -> [ToolCallRecord] {
        try select(
            """
            SELECT tool_call_id, request_id, session_id, ts, dur, name, call_id, arguments_fingerprint,
                arguments_bytes, output_bytes, outcome, error,
                \(StoreSchema.addedColumns("tool_call", schemaVersion: schemaVersion))
            FROM tool_call
            """, runID: runID, order: "tool_call_id"
        ) { row in
            ToolCallRecord(
                toolCallID: row.int64(0), requestID: row.optionalInt64(1), sessionID: row.optionalInt64(2),
                ts: row.int64(3), dur: row.int64(4), name: row.string(5), callID: row.optionalString(6),
                argumentsFingerprint: row.string(7), argumentsBytes: row.int64(8), outputBytes: row.int64(9),
                outcome: row.string(10), error: row.optionalString(11),
                outputFingerprint: row.optionalString(12),
                outputSketch: row.optionalString(13).flatMap(StoreSchema.decodeSketch))
        }
    }

    /// Handoffs, by time; of run `runID` only if given.
    public func handoffs(runID: Int64? = nil) throws(StoreError) -> [HandoffRecord] {
        try select(
            "SELECT handoff_id, session_id, ts, kind, from_value, to_value FROM handoff",
            runID: runID, order: "handoff_id"
        ) { row in
            HandoffRecord(
                handoffID: row.int64(0), sessionID: row.optionalInt64(1), ts: row.int64(2),
                kind: row.string(3), from: row.string(4), to: row.string(5))
        }
    }

    /// Intervals, by start time; of run `runID` only if given.
    public func intervals(runID: Int64? = nil) throws(StoreError) -> [IntervalRecord] {
        try select(
            "SELECT interval_id, parent_id, session_id, ts, dur, name, metadata, error FROM interval",
            runID: runID, order: "interval_id"
        ) { row in
            IntervalRecord(
                intervalID: row.int64(0), parentID: row.optionalInt64(1), sessionID: row.optionalInt64(2),
                ts: row.int64(3), dur: row.int64(4), name: row.string(5),
                metadata: TraceMetadata(jsonObject: row.string(6)) ?? [:], error: row.optionalString(7))
        }
    }

    /// Instants, by time; of run `runID` only if given.
    public func instants(runID: Int64? = nil) throws(StoreError) -> [InstantRecord] {
        try select(
            "SELECT instant_id, parent_id, ts, name, metadata FROM instant", runID: runID, order: "instant_id"
        ) { row in
            InstantRecord(
                instantID: row.int64(0), parentID: row.optionalInt64(1), ts: row.int64(2),
                name: row.string(3),
                metadata: TraceMetadata(jsonObject: row.string(4)) ?? [:])
        }
    }

    /// Streamed chunks, by time; of run `runID` only if given.
    public func chunks(runID: Int64? = nil) throws(StoreError) -> [ChunkRecord] {
        try select("SELECT request_id, ts, tokens FROM chunk", runID: runID, order: "chunk_id") { row in
            ChunkRecord(requestID: row.int64(0), ts: row.int64(1), tokens: row.int64(2))
        }
    }

    /// Captured (redacted) payloads, by time; of run `runID` only if given.
    public func payloads(runID: Int64? = nil) throws(StoreError) -> [PayloadRecord] {
        try select(
            "SELECT payload_id, parent_id, ts, kind, text FROM payload", runID: runID, order: "payload_id"
        ) { row in
            PayloadRecord(
                payloadID: row.int64(0), parentID: row.optionalInt64(1), ts: row.int64(2),
                kind: PayloadRecord.Kind(rawValue: row.string(3)) ?? .prompt, text: row.string(4))
        }
    }

    /// Counts of events that sinks could not record, in the order written; of run `runID` only if given.
    public func dropped(runID: Int64? = nil) throws(StoreError) -> [DroppedRecord] {
        try select("SELECT ts, sink, reason, count FROM dropped", runID: runID, order: "dropped_id") { row in
            DroppedRecord(ts: row.int64(0), sink: row.string(1), reason: row.string(2), count: row.int64(3))
        }
    }

    /// Runs `sql` (a SELECT without WHERE or ORDER BY), restricted to `runID` when given, ordered by
    /// `ts` then `order`, and maps each row.
    private func select<Record>(
        _ sql: String, runID: Int64?, order: String? = nil, _ make: (Row) -> Record
    ) throws(StoreError) -> [Record] {
        var text = sql
        if runID != nil { text += " WHERE run_id = ?1" }
        if let order { text += " ORDER BY ts, \(order)" }
        let statement = try database.prepare(text, persistent: false)
        if let runID { statement.bind(1, runID) }
        var records: [Record] = []
        try statement.forEachRow { row in records.append(make(row)) }
        return records
    }

    // MARK: - Opening checks

    /// Opens `path` so that reading creates no file beside it and changes no byte of it.
    ///
    /// A store closed by its sink is one file, and SQLite reads it read-only as it is. A store
    /// with a `-wal` log but no `-shm` index (copied while a sink wrote, or after a crash) is the
    /// hard case: SQLite 3.40 reads the log only through the index, and creates `-shm` to hold it,
    /// which fails in a read-only directory; `immutable=1` would skip the log and lose its rows.
    /// So that case keeps the index in the connection's own memory, as SQLite does in exclusive
    /// locking mode, through the `unix-none` VFS, whose locks always succeed: the exclusive lock
    /// a read-only file descriptor cannot take. No writer has the file then (a writer always
    /// has `-shm`), and a read-only connection never checkpoints, so the log stays as it was.
    private static func openReadOnly(_ path: String) throws(StoreError) -> SQLiteDatabase {
        let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_FULLMUTEX
        guard access(path + "-wal", F_OK) == 0, access(path + "-shm", F_OK) != 0 else {
            return try SQLiteDatabase(path: path, flags: flags)
        }
        let database = try SQLiteDatabase(path: path, flags: flags, vfs: "unix-none")
        try database.execute("PRAGMA locking_mode = EXCLUSIVE")
        return database
    }

    /// Reads `meta.schema_version`; shared with the writer, which checks a file before appending.
    static func schemaVersion(_ database: SQLiteDatabase) throws(StoreError) -> Int64 {
        let statement = try database.prepare(
            "SELECT typeof(value), value FROM meta WHERE key = 'schema_version'", persistent: false)
        var version: Int64?
        try statement.forEachRow { row in
            if row.string(0) == "integer" { version = row.int64(1) }
        }
        guard let version, version >= 1 else {
            throw .notAStore(path: database.path, reason: "meta has no valid schema_version")
        }
        return version
    }

    private static func tableCount(_ database: SQLiteDatabase, named name: String?) throws(StoreError)
        -> Int64
    {
        let statement = try database.prepare(
            "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND (?1 IS NULL OR name = ?1)",
            persistent: false)
        statement.bind(1, name)
        var count: Int64 = 0
        try statement.forEachRow { row in count = row.int64(0) }
        return count
    }

    /// Checks the file before SQLite opens it: there, not empty, a SQLite database, and as long
    /// as its header says. SQLite reads a truncated file without complaint until it reaches a
    /// missing page, so a cut-off copy is caught here, with a clear message, instead.
    private static func checkFile(_ path: String) throws(StoreError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { throw .fileNotFound(path: path) }
            throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw .notAStore(path: path, reason: "not a regular file")
        }
        let size = Int64(info.st_size)
        guard size > 0 else { throw .notAStore(path: path, reason: "the file is empty") }

        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: 100)
        let count = header.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 100) }
        let magic = Array("SQLite format 3\0".utf8)
        guard count == 100, Array(header[0..<16]) == magic else {
            throw .notAStore(path: path, reason: "file is not a database")
        }
        func bigEndian(_ offset: Int, _ width: Int) -> Int64 {
            header[offset..<offset + width].reduce(0) { $0 << 8 | Int64($1) }
        }
        var pageSize = bigEndian(16, 2)
        if pageSize == 1 { pageSize = 65_536 }
        let pageCount = bigEndian(28, 4)
        // The header's page count is valid only if written by a SQLite that keeps it (3.7.0+),
        // marked by the two change counters agreeing; with a `-wal` beside the file, pages may
        // still be in the log, so the file's own size proves nothing.
        let countIsValid = bigEndian(24, 4) == bigEndian(92, 4) && pageCount > 0
        if countIsValid, access(path + "-wal", F_OK) != 0, size < pageCount * pageSize {
            throw .corrupt(path: path, reason: "truncated: \(size) of \(pageCount * pageSize) bytes")
        }
    }
}
