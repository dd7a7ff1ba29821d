import CSQLite
import SessionTrace
import Synchronization

/// SQLite's `SQLITE_TRANSIENT`, a C macro Swift cannot see: SQLite copies the bound bytes at once.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// An open SQLite connection, shared by the store's writer and reader; the thinnest wrapper that
/// turns result codes into ``StoreError``s naming the store's path.
///
/// `@unchecked Sendable`: the reader opens with `SQLITE_OPEN_FULLMUTEX`, so SQLite serializes
/// calls itself; the writer's connection (`SQLITE_OPEN_NOMUTEX`) is used by one thread at a time,
/// first the thread that opens it and then only the sink's writer thread.
final class SQLiteDatabase: @unchecked Sendable {
    let handle: OpaquePointer
    /// The path as the user gave it, for error messages.
    let path: String
    /// Columns where a read met an implausible value, for ``StoreReader/anomalies()``.
    let implausibleColumns = Mutex<Set<StoreColumn>>([])

    /// Opens `path` with `flags` through the VFS named `vfs` (SQLite's default if nil); fails
    /// with SQLite's own message.
    init(path: String, flags: Int32, vfs: String? = nil) throws(StoreError) {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, flags, vfs)
        guard code == SQLITE_OK, let handle else {
            let message =
                handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(handle)
            throw StoreError.cannotOpen(path: path, reason: message)
        }
        self.handle = handle
        self.path = path
    }

    private var isClosed = false

    deinit {
        close()
    }

    /// Closes the connection; statements still alive are finalized when they go (`close_v2`).
    func close() {
        guard !isClosed else { return }
        isClosed = true
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements whose rows, if any, are not needed.
    func execute(_ sql: String) throws(StoreError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        if code != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_free(message)
            throw StoreError(path: path, code: code, message: text)
        }
    }

    /// Compiles `sql` once, for statements run many times (`SQLITE_PREPARE_PERSISTENT`).
    func prepare(_ sql: String, persistent: Bool = true) throws(StoreError) -> Statement {
        var statement: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let code = sqlite3_prepare_v3(handle, sql, -1, flags, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw error(code)
        }
        return Statement(statement, database: self)
    }

    /// The columns `table` has in the file; none where the file has no such table.
    func columns(of table: String) throws(StoreError) -> Set<String> {
        let statement = try prepare("SELECT name FROM pragma_table_info(?1)", persistent: false)
        statement.bind(1, table)
        var names: Set<String> = []
        try statement.forEachRow { row in names.insert(row.string(0)) }
        return names
    }

    /// The connection's current error as a ``StoreError``.
    func error(_ code: Int32) -> StoreError {
        StoreError(path: path, code: code, message: String(cString: sqlite3_errmsg(handle)))
    }
}

/// One prepared statement; reused after `reset`, so each row costs its binds and one step.
final class Statement {
    let handle: OpaquePointer
    let database: SQLiteDatabase

    /// How each result column is read, worked out once per statement.
    private(set) lazy var checks = ColumnChecks(statement: handle, database: database)

    init(_ handle: OpaquePointer, database: SQLiteDatabase) {
        self.handle = handle
        self.database = database
    }

    deinit {
        sqlite3_finalize(handle)
    }

    @inline(__always)
    func bind(_ index: Int32, _ value: Int64) {
        sqlite3_bind_int64(handle, index, value)
    }

    @inline(__always)
    func bind(_ index: Int32, _ value: Int64?) {
        if let value { sqlite3_bind_int64(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    @inline(__always)
    func bind(_ index: Int32, _ value: Double) {
        sqlite3_bind_double(handle, index, value)
    }

    @inline(__always)
    func bind(_ index: Int32, _ value: Double?) {
        if let value { sqlite3_bind_double(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    @inline(__always)
    func bind(_ index: Int32, _ value: String) {
        var value = value
        value.withUTF8 { bytes in
            // A non-nil pointer even for "", so the column holds '' and not NULL.
            let base = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
            _ = sqlite3_bind_text(handle, index, base, Int32(bytes.count), sqliteTransient)
        }
    }

    @inline(__always)
    func bind(_ index: Int32, _ value: String?) {
        if let value { bind(index, value) } else { sqlite3_bind_null(handle, index) }
    }

    /// The index of the named parameter `:name`; 0 (which binds nothing) where the statement
    /// has none. Looked up once, when a statement is prepared.
    func parameterIndex(_ name: String) -> Int32 {
        sqlite3_bind_parameter_index(handle, ":" + name)
    }

    /// Binds a field's value as its kind is stored: a flag as 0 or 1, metadata as its JSON object,
    /// a sketch as its hex digits.
    @inline(__always)
    func bind(_ index: Int32, _ value: FieldValue) {
        switch value {
        case .null: sqlite3_bind_null(handle, index)
        case .integer(let value): sqlite3_bind_int64(handle, index, value)
        case .real(let value): sqlite3_bind_double(handle, index, value)
        case .text(let value): bind(index, value)
        case .bool(let value): sqlite3_bind_int64(handle, index, value ? 1 : 0)
        case .metadata(let value): bind(index, value.jsonObject)
        case .sketch(let value): bind(index, StoreSchema.encodeSketch(value))
        }
    }

    func bind(_ index: Int32, _ value: StoreValue) {
        switch value {
        case .null: sqlite3_bind_null(handle, index)
        case .integer(let value): bind(index, value)
        case .real(let value): bind(index, value)
        case .text(let value): bind(index, value)
        }
    }

    /// Steps a statement that returns no rows, then resets it for the next use.
    @inline(__always)
    func run() throws(StoreError) {
        let code = sqlite3_step(handle)
        sqlite3_reset(handle)
        if code != SQLITE_DONE && code != SQLITE_ROW { throw database.error(code) }
    }

    /// Steps through every row, handing each to `body`; resets the statement afterwards.
    func forEachRow(_ body: (Row) throws(StoreError) -> Void) throws(StoreError) {
        defer { sqlite3_reset(handle) }
        let row = Row(statement: handle, checks: checks)
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_ROW {
                try body(row)
            } else if code == SQLITE_DONE {
                return
            } else {
                throw database.error(code)
            }
        }
    }
}

/// A value bound to a `?` parameter of ``StoreReader/query(_:_:_:)``.
public enum StoreValue: Sendable, Hashable, ExpressibleByIntegerLiteral, ExpressibleByStringLiteral,
    ExpressibleByFloatLiteral, ExpressibleByNilLiteral
{
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(stringLiteral value: String) { self = .text(value) }
    public init(floatLiteral value: Double) { self = .real(value) }
    public init(nilLiteral: ()) { self = .null }
}

/// The current row of a query, read by column index (0-based, in `SELECT` order).
///
/// Valid only inside the closure it is handed to: a row is a view on SQLite's cursor, not a copy,
/// so reading a million rows allocates nothing beyond the values taken out of them.
///
/// A column that is a store's INTEGER column (not an expression) is read within its
/// ``PlausibleRange``: a number outside it reads as the nearest bound, a fraction rounded, text
/// or a blob as NULL; a REAL column reads infinities, text and blobs as NULL.
/// ``StoreReader/anomalies()`` then reports the column. So no value a file holds makes arithmetic
/// on what was read overflow.
public struct Row {
    let statement: OpaquePointer
    let checks: ColumnChecks

    init(statement: OpaquePointer, checks: ColumnChecks) {
        self.statement = statement
        self.checks = checks
    }

    /// The number of columns in the result.
    public var columnCount: Int { Int(sqlite3_column_count(statement)) }

    /// The name of column `index`, as the query spells it.
    public func columnName(_ index: Int) -> String {
        String(cString: sqlite3_column_name(statement, Int32(index)))
    }

    /// True where column `index` is NULL, or not a number in a store's numeric column.
    public func isNull(_ index: Int) -> Bool {
        let column = Int32(index)
        switch sqlite3_column_type(statement, column) {
        case SQLITE_NULL: return true
        case SQLITE_TEXT, SQLITE_BLOB: return checks.rule(of: index) != nil
        case SQLITE_FLOAT: return checks.rule(of: index) == .real && !sqlite3_column_double(statement, column).isFinite
        default: return false
        }
    }

    /// Column `index` as an integer; NULL reads as 0, as in SQLite.
    public func int64(_ index: Int) -> Int64 {
        optionalInt64(index) ?? 0
    }

    /// Column `index` as an integer, or nil where it is NULL.
    public func optionalInt64(_ index: Int) -> Int64? {
        let column = Int32(index)
        let type = sqlite3_column_type(statement, column)
        if type == SQLITE_NULL { return nil }
        switch checks.rule(of: index) {
        case nil:
            return sqlite3_column_int64(statement, column)
        case .real:
            return optionalDouble(index).flatMap { PlausibleRange.nearest($0, in: PlausibleRange.identifier) }
        case .integer(let range):
            if type == SQLITE_INTEGER {
                let value = sqlite3_column_int64(statement, column)
                if range.contains(value) { return value }
                checks.flag(index)
                return PlausibleRange.nearest(value, in: range)
            }
            checks.flag(index)
            return type == SQLITE_FLOAT
                ? PlausibleRange.nearest(sqlite3_column_double(statement, column), in: range) : nil
        }
    }

    /// Column `index` as a double; NULL reads as 0, as in SQLite.
    public func double(_ index: Int) -> Double {
        optionalDouble(index) ?? 0
    }

    /// Column `index` as a double, or nil where it is NULL.
    public func optionalDouble(_ index: Int) -> Double? {
        let column = Int32(index)
        let type = sqlite3_column_type(statement, column)
        if type == SQLITE_NULL { return nil }
        switch checks.rule(of: index) {
        case nil:
            return sqlite3_column_double(statement, column)
        case .integer:
            return optionalInt64(index).map(Double.init)
        case .real:
            if type == SQLITE_INTEGER { return Double(sqlite3_column_int64(statement, column)) }
            let value = type == SQLITE_FLOAT ? sqlite3_column_double(statement, column) : Double.nan
            if value.isFinite { return value }
            checks.flag(index)
            return nil
        }
    }

    /// Column `index` as text; NULL reads as the empty string.
    public func string(_ index: Int) -> String {
        optionalString(index) ?? ""
    }

    /// Column `index` as text, or nil where it is NULL.
    public func optionalString(_ index: Int) -> String? {
        let column = Int32(index)
        guard let bytes = sqlite3_column_text(statement, column) else { return nil }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}

/// A numeric column of a store's table, and how it is read.
struct StoreColumn: Hashable, Sendable {
    var table: String
    var column: String
    var rule: ColumnRule
}

/// Which result columns of a statement are a store's numeric columns, and how they are read.
///
/// Worked out from SQLite's column metadata: a result column that names a table's column (directly
/// or through a view) has its declared type and origin; an expression has neither and is read
/// as SQLite gives it.
final class ColumnChecks {
    private let origins: [StoreColumn?]
    /// The rule of each origin, apart: reading one then copies no table or column name.
    private let rules: [ColumnRule?]
    private let database: SQLiteDatabase

    init(statement: OpaquePointer, database: SQLiteDatabase) {
        self.database = database
        origins = (0..<sqlite3_column_count(statement)).map { index in
            guard let declared = sqlite3_column_decltype(statement, index),
                let table = sqlite3_column_table_name(statement, index),
                let column = sqlite3_column_origin_name(statement, index)
            else { return nil }
            let name = String(cString: column)
            return PlausibleRange.rule(declaredType: String(cString: declared), column: name).map {
                StoreColumn(table: String(cString: table), column: name, rule: $0)
            }
        }
        rules = origins.map { $0?.rule }
    }

    @inline(__always)
    func rule(of index: Int) -> ColumnRule? {
        index < rules.count ? rules[index] : nil
    }

    /// Notes that column `index` held an implausible value.
    func flag(_ index: Int) {
        guard let origin = origins[index] else { return }
        _ = database.implausibleColumns.withLock { $0.insert(origin) }
    }
}

@available(*, unavailable, message: "a Row is a view on a cursor that lives only inside its closure")
extension Row: Sendable {}
