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
    /// Whether another process had the store open when this reader opened it: a writer still
    /// recording, or another reader. See ``StoreReader/isOpenInAnotherProcess(_:)``.
    public let wasOpenElsewhere: Bool
    let database: SQLiteDatabase

    /// Opens the store at `path` read-only and checks that this version can read it.
    ///
    /// - Throws: ``StoreError``: `.fileNotFound`, `.notAStore` (not a database, empty, no schema
    ///   version), `.corrupt` (truncated or damaged), `.newerSchema`.
    public init(path: String) throws(StoreError) {
        try Self.checkFile(path)
        // Before SQLite opens the file: closing a descriptor of the index releases every lock
        // this process holds on it, the connection's included.
        wasOpenElsewhere = Self.isOpenInAnotherProcess(path)
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
        try records(runID: nil)
    }

    /// Sessions, by start time; of run `runID` only if given.
    public func sessions(runID: Int64? = nil) throws(StoreError) -> [SessionRecord] {
        try records(runID: runID)
    }

    /// Requests, by start time; of run `runID` only if given.
    public func requests(runID: Int64? = nil) throws(StoreError) -> [RequestRecord] {
        try records(runID: runID)
    }

    /// Tool calls, by start time; of run `runID` only if given.
    public func toolCalls(runID: Int64? = nil) throws(StoreError) -> [ToolCallRecord] {
        try records(runID: runID)
    }

    /// Handoffs, by time; of run `runID` only if given.
    public func handoffs(runID: Int64? = nil) throws(StoreError) -> [HandoffRecord] {
        try records(runID: runID)
    }

    /// Intervals, by start time; of run `runID` only if given.
    public func intervals(runID: Int64? = nil) throws(StoreError) -> [IntervalRecord] {
        try records(runID: runID)
    }

    /// Instants, by time; of run `runID` only if given.
    public func instants(runID: Int64? = nil) throws(StoreError) -> [InstantRecord] {
        try records(runID: runID)
    }

    /// Streamed chunks, by time; of run `runID` only if given.
    public func chunks(runID: Int64? = nil) throws(StoreError) -> [ChunkRecord] {
        try records(runID: runID)
    }

    /// Captured (redacted) payloads, by time; of run `runID` only if given.
    public func payloads(runID: Int64? = nil) throws(StoreError) -> [PayloadRecord] {
        try records(runID: runID)
    }

    /// Counts of events that sinks could not record, in the order written; of run `runID` only if given.
    public func dropped(runID: Int64? = nil) throws(StoreError) -> [DroppedRecord] {
        try records(runID: runID)
    }

    /// Every record of `Record`'s table, restricted to `runID` when given, ordered by `ts` then the
    /// table's key (the order written, for `chunk` and `dropped`). A column the file's table lacks
    /// (a store older than the field) reads as NULL.
    private func records<Record: TableRecord>(runID: Int64?) throws(StoreError) -> [Record] {
        let table = StoreSchema.table(Record.table.kind)
        let present = try database.columns(of: table.name)
        let columns = table.fields.map { present.contains($0.column) ? $0.column : "NULL" }
        var text = "SELECT \(columns.joined(separator: ", ")) FROM \(table.name)"
        if runID != nil { text += " WHERE run_id = ?1" }
        text += " ORDER BY ts, \(table.keyColumn)"
        let statement = try database.prepare(text, persistent: false)
        if let runID { statement.bind(1, runID) }
        var records: [Record] = []
        try statement.forEachRow { row in
            records.append(Record.table.record { offset, spec in row.value(offset, spec) })
        }
        return records
    }

    /// Streams the records of the kinds `selection` names to `body`, with their run's id, one row
    /// at a time and in no set order: a fold over a store of any size costs the memory of one
    /// record. Only the selected columns are read (``FieldSelection``); the others read as unknown.
    package func forEachRecord(
        selecting selection: FieldSelection, _ body: (TraceEvent, _ runID: Int64) -> Void
    ) throws(StoreError) {
        for kind in TraceEventKind.allCases {
            guard let fields = selection[kind] else { continue }
            switch kind {
            case .run: try forEach(RunRecord.self, fields) { body(.run($0), $1) }
            case .session: try forEach(SessionRecord.self, fields) { body(.session($0), $1) }
            case .request: try forEach(RequestRecord.self, fields) { body(.request($0), $1) }
            case .toolCall: try forEach(ToolCallRecord.self, fields) { body(.toolCall($0), $1) }
            case .handoff: try forEach(HandoffRecord.self, fields) { body(.handoff($0), $1) }
            case .interval: try forEach(IntervalRecord.self, fields) { body(.interval($0), $1) }
            case .instant: try forEach(InstantRecord.self, fields) { body(.instant($0), $1) }
            case .chunk: try forEach(ChunkRecord.self, fields) { body(.chunk($0), $1) }
            case .payload: try forEach(PayloadRecord.self, fields) { body(.payload($0), $1) }
            case .dropped: try forEach(DroppedRecord.self, fields) { body(.dropped($0), $1) }
            }
        }
    }

    /// Every record of `Record`'s table with its run's id, reading only the `selected` columns and
    /// the first.
    private func forEach<Record: TableRecord>(
        _: Record.Type, _ selected: Set<String>, _ body: (Record, Int64) -> Void
    ) throws(StoreError) {
        let table = StoreSchema.table(Record.table.kind)
        let present = try database.columns(of: table.name)
        // Only the fields read are set, each from its own column; the rest keep the blank record's
        // unknown values. Per row, no field's spec is copied: a million rows cost the selected
        // columns alone.
        let read = zip(table.fields, Record.table.fields).enumerated().compactMap { offset, pair in
            (offset == 0 || selected.contains(pair.0.column)) && present.contains(pair.0.column)
                ? (column: pair.0.column, kind: pair.1.spec.kind, field: pair.1) : nil
        }
        let run = table.stampsRunID ? "run_id" : table.keyColumn
        let statement = try database.prepare(
            "SELECT \(run), \(read.map(\.column).joined(separator: ", ")) FROM \(table.name)", persistent: false)
        let blank = Record.table.blank
        try statement.forEachRow { row in
            var record = blank
            for index in read.indices { read[index].field.set(&record, row.value(index + 1, read[index].kind)) }
            body(record, row.int64(0))
        }
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

extension Row {
    /// Column `index` as the value of a field of `spec`'s kind; NULL reads as null, except
    /// metadata, which reads as empty.
    func value(_ index: Int, _ spec: FieldSpec) -> FieldValue { value(index, spec.kind) }

    /// Column `index` read as a field of `kind`.
    func value(_ index: Int, _ kind: FieldKind) -> FieldValue {
        switch kind {
        case .integer: optionalInt64(index).map(FieldValue.integer) ?? .null
        case .real: optionalDouble(index).map(FieldValue.real) ?? .null
        case .text: optionalString(index).map(FieldValue.text) ?? .null
        case .bool: optionalInt64(index).map { FieldValue.bool($0 != 0) } ?? .null
        case .metadata: .metadata(optionalString(index).flatMap(TraceMetadata.init(jsonObject:)) ?? [:])
        case .sketch: optionalString(index).flatMap(StoreSchema.decodeSketch).map(FieldValue.sketch) ?? .null
        }
    }
}

extension StoreReader {
    /// Reads every page of the file and throws `.corrupt` at the first damage (SQLite's
    /// `PRAGMA quick_check`), for a reader that does not itself read every table and index: a
    /// damaged page that no query of it touches is found all the same. Costs one read of the
    /// file: 0.9 s for a store of a million requests (183 MB) on a 2-core machine.
    public func checkPages() throws(StoreError) {
        var problem: String?
        try database.prepare("PRAGMA quick_check(1)", persistent: false).forEachRow { row in
            let text = row.string(0)
            if text != "ok" { problem = text }
        }
        guard let problem else { return }
        // SQLite's report reads "*** in database main ***\nPage 7: btreeInitPage() returns error
        // code 11"; the page's number is what a person can use.
        let page = problem.split(whereSeparator: \.isNewline).lazy.compactMap { line -> Int? in
            guard line.hasPrefix("Page ") else { return nil }
            return Int(line.dropFirst(5).prefix { $0.isNumber })
        }.first
        throw .corrupt(path: path, reason: page.map { "page \($0) of the file is damaged" } ?? "a page of the file is damaged")
    }
}
