import SessionTrace

/// One table of the store, derived from its record's field table: a column per field, in the
/// table's order, and the two columns the store adds.
///
/// - `<table>_id` is the key: the record's own id where its first field is that id, or else a
///   row number SQLite assigns (`chunk`, `dropped`), in arrival order.
/// - `run_id`, after the key, is the run whose `run` record the writer received last; the `run`
///   table's key is that id already.
///
/// Rows keyed by a record's id are written with `INSERT OR REPLACE`, so a later record of the
/// same id replaces the earlier row: the middleware re-records a session as it grows.
package struct StoreTable: Sendable {
    /// One column as the DDL declares it.
    package struct Column: Sendable, Hashable {
        package var name: String
        package var type: String
        package var notNull: Bool
        package var primaryKey: Bool
    }

    package let name: String
    package let fields: [FieldSpec]

    /// The key column: `<table>_id`.
    package var keyColumn: String { name + "_id" }
    /// Whether the key is the record's first field, rather than a row number SQLite assigns.
    package var keyIsRecordID: Bool { fields.first?.column == keyColumn }
    /// Whether the writer stamps a `run_id` column of its own (every table but `run`).
    package var stampsRunID: Bool { keyColumn != "run_id" }

    /// Every column, in the order the DDL declares them.
    package var columns: [Column] {
        var columns: [Column] = []
        var rest = fields[...]
        if keyIsRecordID, let key = rest.popFirst() {
            columns.append(Column(name: key.column, type: Self.sqlType(key.kind), notNull: false, primaryKey: true))
        } else {
            columns.append(Column(name: keyColumn, type: "INTEGER", notNull: false, primaryKey: true))
        }
        if stampsRunID { columns.append(Column(name: "run_id", type: "INTEGER", notNull: false, primaryKey: false)) }
        for field in rest {
            columns.append(
                Column(name: field.column, type: Self.sqlType(field.kind), notNull: !field.isOptional, primaryKey: false))
        }
        return columns
    }

    /// `CREATE TABLE IF NOT EXISTS` with every column.
    package var createStatement: String {
        let lines = columns.map { column in
            "    \(column.name) \(column.type)" + (column.primaryKey ? " PRIMARY KEY" : column.notNull ? " NOT NULL" : "")
        }
        return "CREATE TABLE IF NOT EXISTS \(name) (\n" + lines.joined(separator: ",\n") + "\n);"
    }

    /// The INSERT of one row, each value bound by name: `:run_id` and `:<column>` per field.
    package var insertStatement: String {
        let names = (stampsRunID ? ["run_id"] : []) + fields.map(\.column)
        let verb = keyIsRecordID ? "INSERT OR REPLACE" : "INSERT"
        return "\(verb) INTO \(name) (\(names.joined(separator: ", "))) VALUES ("
            + names.map { ":" + $0 }.joined(separator: ", ") + ")"
    }

    /// The `ALTER TABLE` that adds `column` to a store made before it existed; without NOT NULL,
    /// which SQLite refuses on an added column, so old rows read NULL.
    func addColumnStatement(_ column: Column) -> String {
        "ALTER TABLE \(name) ADD COLUMN \(column.name) \(column.type);"
    }

    /// The store type of a field's kind: metadata and sketches are stored as text.
    static func sqlType(_ kind: FieldKind) -> String {
        switch kind {
        case .integer, .bool: "INTEGER"
        case .real: "REAL"
        case .text, .metadata, .sketch: "TEXT"
        }
    }
}
