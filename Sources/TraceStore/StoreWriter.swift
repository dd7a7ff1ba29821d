import CSQLite
import SessionTrace

#if canImport(Glibc)
import Glibc
#endif

/// Writes trace events into a store file: WAL while writing, one prepared statement per table,
/// and transactions the caller batches with `begin()` and `commit()`.
///
/// Several writers, in one process or several, may share a file: each transaction takes the
/// write lock as it begins (`BEGIN IMMEDIATE`), and a writer that finds it taken waits for it
/// (SQLite's busy handler, ``busyTimeoutMilliseconds`` at a time, ``busyAttempts`` times) instead
/// of failing. Readers never wait, in WAL mode.
///
/// Not thread-safe: ``StoreSink`` gives it to its writer thread alone. `@unchecked Sendable` only
/// so that the sink can hand it over to that thread once.
final class StoreWriter: @unchecked Sendable {
    let path: String
    private let database: SQLiteDatabase
    private var statements: Statements?
    /// The run of the latest `run` record written; stamped on every row as `run_id`.
    private(set) var currentRunID: Int64?

    /// How long one attempt to take the write lock waits for other writers.
    static let busyTimeoutMilliseconds: Int32 = 2_000
    /// Attempts to begin a transaction before its events are counted as dropped (`busy`).
    static let busyAttempts = 5

    private struct Statements {
        let run, session, request, toolCall, handoff, interval, instant, chunk, payload, dropped: Statement
        let begin, commit, rollback: Statement
    }

    /// Opens the store at `path`, creating it readable by its owner only (mode 0600) if it does not
    /// exist, and the schema if the file is new.
    ///
    /// Fails if the file cannot be created, is not a SessionTrace store, or has a newer schema;
    /// a file that is not a store is left untouched.
    init(path: String) throws(StoreError) {
        self.path = path
        try Self.createFileIfMissing(path)
        database = try SQLiteDatabase(path: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX)
        sqlite3_busy_timeout(database.handle, Self.busyTimeoutMilliseconds)
        // Look before changing anything, so a file that is not a store stays byte for byte as it was.
        let existingVersion = try Self.checkExistingStore(database)
        if let existingVersion, existingVersion < StoreSchema.version {
            try Self.migrate(database, from: existingVersion)
        }
        try database.execute(
            """
            PRAGMA journal_mode = WAL;
            PRAGMA synchronous = NORMAL;
            PRAGMA application_id = \(StoreSchema.applicationID);
            PRAGMA user_version = \(StoreSchema.version);
            BEGIN IMMEDIATE;
            \(StoreSchema.createStatements)
            INSERT OR IGNORE INTO meta (key, value) VALUES ('schema_version', \(StoreSchema.version));
            INSERT OR IGNORE INTO meta (key, value) VALUES ('tool_version', '\(sessionTraceVersion)');
            INSERT OR IGNORE INTO meta (key, value) VALUES ('created_at', \(Self.wallClockNanoseconds()));
            COMMIT;
            """)
        statements = Statements(
            run: try database.prepare(StoreSchema.insertRun),
            session: try database.prepare(StoreSchema.insertSession),
            request: try database.prepare(StoreSchema.insertRequest),
            toolCall: try database.prepare(StoreSchema.insertToolCall),
            handoff: try database.prepare(StoreSchema.insertHandoff),
            interval: try database.prepare(StoreSchema.insertInterval),
            instant: try database.prepare(StoreSchema.insertInstant),
            chunk: try database.prepare(StoreSchema.insertChunk),
            payload: try database.prepare(StoreSchema.insertPayload),
            dropped: try database.prepare(StoreSchema.insertDropped),
            begin: try database.prepare("BEGIN IMMEDIATE"),
            commit: try database.prepare("COMMIT"),
            rollback: try database.prepare("ROLLBACK"))
    }

    /// Begins a transaction holding the write lock, waiting while other writers hold it.
    func begin() throws(StoreError) {
        guard let statements else { throw closedError }
        var attempt = 1
        while true {
            do {
                try statements.begin.run()
                return
            } catch where error.isBusy && attempt < Self.busyAttempts {
                attempt += 1
            }
        }
    }

    func commit() throws(StoreError) {
        guard let statements else { throw closedError }
        try statements.commit.run()
    }

    /// Whether a transaction is open; false after SQLite rolled one back on an error.
    var isInTransaction: Bool {
        statements != nil && sqlite3_get_autocommit(database.handle) == 0
    }

    /// Abandons the open transaction, if any; used after a failed commit.
    func rollback() {
        guard let statements, isInTransaction else { return }
        try? statements.rollback.run()
    }

    /// Writes one event as one row.
    func insert(_ event: TraceEvent) throws(StoreError) {
        guard let statements else { throw closedError }
        switch event {
        case .run(let record):
            currentRunID = record.runID
            let statement = statements.run
            statement.bind(1, record.runID)
            statement.bind(2, record.ts)
            statement.bind(3, record.wallClockStart)
            statement.bind(4, record.host)
            statement.bind(5, record.commandLine)
            statement.bind(6, record.gitRevision)
            statement.bind(7, record.label)
            statement.bind(8, record.toolVersion)
            try statement.run()
        case .session(let record):
            let statement = statements.session
            statement.bind(1, record.sessionID)
            statement.bind(2, currentRunID)
            statement.bind(3, record.ts)
            statement.bind(4, record.dur)
            statement.bind(5, record.label)
            try statement.run()
        case .request(let record):
            try insertRequest(record, statements.request)
        case .toolCall(let record):
            let statement = statements.toolCall
            statement.bind(1, record.toolCallID)
            statement.bind(2, currentRunID)
            statement.bind(3, record.requestID)
            statement.bind(4, record.sessionID)
            statement.bind(5, record.ts)
            statement.bind(6, record.dur)
            statement.bind(7, record.name)
            statement.bind(8, record.callID)
            statement.bind(9, record.argumentsFingerprint)
            statement.bind(10, record.argumentsBytes)
            statement.bind(11, record.outputBytes)
            statement.bind(12, record.outcome)
            statement.bind(13, record.error)
            statement.bind(14, record.outputFingerprint)
            statement.bind(15, record.outputSketch.map(StoreSchema.encodeSketch))
            try statement.run()
        case .handoff(let record):
            let statement = statements.handoff
            statement.bind(1, record.handoffID)
            statement.bind(2, currentRunID)
            statement.bind(3, record.sessionID)
            statement.bind(4, record.ts)
            statement.bind(5, record.kind)
            statement.bind(6, record.from)
            statement.bind(7, record.to)
            try statement.run()
        case .interval(let record):
            let statement = statements.interval
            statement.bind(1, record.intervalID)
            statement.bind(2, currentRunID)
            statement.bind(3, record.parentID)
            statement.bind(4, record.sessionID)
            statement.bind(5, record.ts)
            statement.bind(6, record.dur)
            statement.bind(7, record.name)
            statement.bind(8, record.metadata.jsonObject)
            statement.bind(9, record.error)
            try statement.run()
        case .instant(let record):
            let statement = statements.instant
            statement.bind(1, record.instantID)
            statement.bind(2, currentRunID)
            statement.bind(3, record.parentID)
            statement.bind(4, record.ts)
            statement.bind(5, record.name)
            statement.bind(6, record.metadata.jsonObject)
            try statement.run()
        case .chunk(let record):
            let statement = statements.chunk
            statement.bind(1, currentRunID)
            statement.bind(2, record.requestID)
            statement.bind(3, record.ts)
            statement.bind(4, record.tokens)
            try statement.run()
        case .payload(let record):
            let statement = statements.payload
            statement.bind(1, record.payloadID)
            statement.bind(2, currentRunID)
            statement.bind(3, record.parentID)
            statement.bind(4, record.ts)
            statement.bind(5, record.kind.rawValue)
            statement.bind(6, record.text)
            try statement.run()
        case .dropped(let record):
            try insertDropped(record)
        }
    }

    @inline(__always)
    private func insertRequest(_ record: RequestRecord, _ statement: Statement) throws(StoreError) {
        statement.bind(1, record.requestID)
        statement.bind(2, currentRunID)
        statement.bind(3, record.sessionID)
        statement.bind(4, record.parentID)
        statement.bind(5, record.ts)
        statement.bind(6, record.dur)
        statement.bind(7, record.timeToFirstToken)
        statement.bind(8, record.profile)
        statement.bind(9, record.provider)
        statement.bind(10, record.model)
        statement.bind(11, record.inputTokens)
        statement.bind(12, record.cachedInputTokens)
        statement.bind(13, record.outputTokens)
        statement.bind(14, record.promptBytes)
        statement.bind(15, record.transcriptEntries)
        statement.bind(16, record.reusedPrefixEntries)
        statement.bind(17, record.finishReason)
        statement.bind(18, record.error)
        let timings = record.serverTimings
        statement.bind(19, timings?.promptTokens)
        statement.bind(20, timings?.cachedTokens)
        statement.bind(21, timings?.promptDuration)
        statement.bind(22, timings?.predictedTokens)
        statement.bind(23, timings?.predictedDuration)
        statement.bind(24, record.turnID)
        statement.bind(25, record.instructionsFingerprint)
        statement.bind(26, record.toolsFingerprint)
        statement.bind(27, record.cacheWriteTokens)
        statement.bind(28, record.responseID)
        statement.bind(29, record.responseModel)
        statement.bind(30, record.serverAddress)
        statement.bind(31, record.serverPort)
        statement.bind(32, record.streamed.map { $0 ? Int64(1) : 0 })
        statement.bind(33, record.maxTokens)
        statement.bind(34, record.temperature)
        try statement.run()
    }

    func insertDropped(_ record: DroppedRecord) throws(StoreError) {
        guard let statement = statements?.dropped else { throw closedError }
        statement.bind(1, currentRunID)
        statement.bind(2, record.ts)
        statement.bind(3, record.sink)
        statement.bind(4, record.reason)
        statement.bind(5, record.count)
        try statement.run()
    }

    /// Finishes the file for readers: checkpoints the WAL into it and leaves WAL mode, so a
    /// closed store is one self-contained file that read-only openers leave without `-wal`/`-shm`.
    func close() {
        guard statements != nil else { return }
        rollback()
        statements = nil
        // Fails harmlessly (stays WAL) while another connection has the file open: at once, not
        // after waiting for other writers, which keep it open.
        sqlite3_busy_timeout(database.handle, 0)
        try? database.execute("PRAGMA journal_mode = DELETE")
        database.close()
    }

    private var closedError: StoreError {
        .sqlite(path: path, code: SQLITE_MISUSE, message: "the store writer is closed")
    }

    /// Creates `path` with mode 0600 before SQLite sees it; SQLite gives `-wal` and `-shm` the
    /// database file's mode, so they stay private too.
    private static func createFileIfMissing(_ path: String) throws(StoreError) {
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .cannotCreate(path: path, reason: String(cString: strerror(errno)))
        }
        Glibc.close(descriptor)
    }

    /// Brings an older store up to this version in one transaction: version 2 added columns.
    private static func migrate(_ database: SQLiteDatabase, from version: Int64) throws(StoreError) {
        var statements = ["BEGIN IMMEDIATE;"]
        if version < 2 {
            for (table, column, type) in StoreSchema.addedInVersion2 {
                statements.append("ALTER TABLE \(table) ADD COLUMN \(column) \(type);")
            }
        }
        statements.append("UPDATE meta SET value = \(StoreSchema.version) WHERE key = 'schema_version';")
        statements.append("COMMIT;")
        try database.execute(statements.joined(separator: "\n"))
    }

    /// Accepts an empty database or a SessionTrace store this version can write; returns the
    /// store's schema version, nil for an empty database.
    private static func checkExistingStore(_ database: SQLiteDatabase) throws(StoreError) -> Int64? {
        let path = database.path
        var tables: Set<String> = []
        let list = try database.prepare(
            "SELECT name FROM sqlite_schema WHERE type = 'table'", persistent: false)
        try list.forEachRow { row in tables.insert(row.string(0)) }
        if tables.isEmpty { return nil }
        guard tables.contains("meta") else {
            throw .notAStore(path: path, reason: "a SQLite database without SessionTrace's meta table")
        }
        let version = try StoreReader.schemaVersion(database)
        if version > StoreSchema.version {
            throw .newerSchema(path: path, found: version, supported: StoreSchema.version)
        }
        return version
    }

    private static func wallClockNanoseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }
}
