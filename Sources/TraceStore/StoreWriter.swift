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
    /// Every run this writer wrote a `run` record of: `close()` marks them closed (`run_closed`).
    private var runsWritten: Set<Int64> = []

    /// How long one attempt to take the write lock waits for other writers.
    static let busyTimeoutMilliseconds: Int32 = 2_000
    /// Attempts to begin a transaction before its events are counted as dropped (`busy`).
    static let busyAttempts = 5

    private struct Statements {
        /// One insert per event kind, by ``TraceEventKind/rawValue``.
        let inserts: [PreparedInsert]
        let begin, commit, rollback: Statement
    }

    /// A table's INSERT and where each named parameter sits, found once when it is prepared, so
    /// that a row binds by index: no name is looked up, nothing is allocated per event.
    private struct PreparedInsert {
        let statement: Statement
        /// The index of `:run_id`, 0 for the `run` table, which has no stamped run id.
        let runIDIndex: Int32
        /// The index of each field's `:<column>`, in field-table order.
        let fieldIndexes: [Int32]

        init(_ table: StoreTable, database: SQLiteDatabase) throws(StoreError) {
            let prepared = try database.prepare(table.insertStatement)
            statement = prepared
            runIDIndex = table.stampsRunID ? prepared.parameterIndex("run_id") : 0
            fieldIndexes = table.fields.map { prepared.parameterIndex($0.column) }
        }
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
        // The runs of a store written before `run_closed` existed were closed as far as anyone knows.
        var markOlderRuns = ""
        if let existingVersion {
            try Self.migrate(database, from: existingVersion)
            if try database.columns(of: "run_closed").isEmpty {
                markOlderRuns = "INSERT OR IGNORE INTO run_closed (run_id) SELECT run_id FROM run;"
            }
        }
        try database.execute(
            """
            \(StoreSchema.writerPragmas)
            PRAGMA application_id = \(StoreSchema.applicationID);
            PRAGMA user_version = \(StoreSchema.version);
            BEGIN IMMEDIATE;
            \(StoreSchema.createStatements)
            INSERT OR IGNORE INTO meta (key, value) VALUES ('schema_version', \(StoreSchema.version));
            INSERT OR IGNORE INTO meta (key, value) VALUES ('tool_version', '\(sessionTraceVersion)');
            INSERT OR IGNORE INTO meta (key, value) VALUES ('created_at', \(Self.wallClockNanoseconds()));
            \(markOlderRuns)
            COMMIT;
            """)
        var inserts: [PreparedInsert] = []
        for table in StoreSchema.tables { inserts.append(try PreparedInsert(table, database: database)) }
        statements = Statements(
            inserts: inserts,
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
        let insert = statements.inserts[event.kind.rawValue]
        switch event {
        case .run(let record):
            currentRunID = record.runID
            runsWritten.insert(record.runID)
            try write(record, insert)
        case .session(let record): try write(record, insert)
        case .request(let record): try write(record, insert)
        case .toolCall(let record): try write(record, insert)
        case .handoff(let record): try write(record, insert)
        case .interval(let record): try write(record, insert)
        case .instant(let record): try write(record, insert)
        case .chunk(let record): try write(record, insert)
        case .payload(let record): try write(record, insert)
        case .dropped(let record): try write(record, insert)
        }
    }

    /// Writes one request as one row, as `insert(.request(request))` does.
    func insert(request: RequestRecord) throws(StoreError) {
        guard let statements else { throw closedError }
        try write(request, statements.inserts[TraceEventKind.request.rawValue])
    }

    func insertDropped(_ record: DroppedRecord) throws(StoreError) {
        guard let statements else { throw closedError }
        try write(record, statements.inserts[TraceEventKind.dropped.rawValue])
    }

    /// Binds every field of `record` through its table, and the current run, and steps.
    @inline(__always)
    private func write<Record: TableRecord>(_ record: Record, _ insert: PreparedInsert) throws(StoreError) {
        let statement = insert.statement
        if insert.runIDIndex > 0 { statement.bind(insert.runIDIndex, currentRunID) }
        for (offset, field) in Record.table.fields.enumerated() {
            statement.bind(insert.fieldIndexes[offset], field.get(record))
        }
        try statement.run()
    }

    /// Finishes the file for readers: checkpoints the WAL into it and leaves WAL mode, so a
    /// closed store is one self-contained file that read-only openers leave without `-wal`/`-shm`.
    /// Marks the runs it wrote as closed first, so a reader can tell them from a run that crashed.
    func close() {
        guard statements != nil else { return }
        rollback()
        statements = nil
        if !runsWritten.isEmpty {
            let now = Self.wallClockNanoseconds()
            let rows = runsWritten.sorted().map { "(\($0), \(now))" }.joined(separator: ", ")
            try? database.execute("INSERT OR REPLACE INTO run_closed (run_id, wall_clock) VALUES \(rows)")
        }
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

    /// Brings an existing store up to this version in one transaction: adds each column of the
    /// field tables that a table of the file lacks (version 2 added columns to version 1's
    /// `request` and `tool_call`; a field added since adds its column the same way), and records
    /// the version.
    private static func migrate(_ database: SQLiteDatabase, from version: Int64) throws(StoreError) {
        var statements = ["BEGIN IMMEDIATE;"]
        for table in StoreSchema.tables {
            let existing = try database.columns(of: table.name)
            guard !existing.isEmpty else { continue }  // a new table: createStatements makes it whole
            for column in table.columns where !existing.contains(column.name) {
                statements.append(table.addColumnStatement(column))
            }
        }
        guard statements.count > 1 || version < StoreSchema.version else { return }
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
