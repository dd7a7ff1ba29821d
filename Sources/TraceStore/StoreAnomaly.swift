/// A numeric column of a store that holds values no recording writes: numbers outside the
/// column's ``PlausibleRange``, fractions, text or blobs. ``StoreReader`` reads them as the nearest
/// plausible value (text as unknown) and reports the column with this, so an analysis shows what
/// it worked around instead of trapping on it.
public struct StoreAnomaly: Sendable, Hashable, CustomStringConvertible {
    /// The store's file, as given.
    public var path: String
    public var table: String
    public var column: String
    /// What the column may hold.
    public var plausible: ClosedRange<Int64>
    /// Numbers outside ``plausible``, each read as the nearest bound.
    public var outOfRange: Int64
    /// The lowest and the highest of them below and above the range, as SQLite prints them.
    public var lowest: String?
    public var highest: String?
    /// Fractions within the range, read rounded.
    public var fractions: Int64
    /// Text or blob values, read as unknown (NULL). Never shown: they may be anything.
    public var notNumbers: Int64

    public init(
        path: String, table: String, column: String, plausible: ClosedRange<Int64>, outOfRange: Int64,
        lowest: String? = nil, highest: String? = nil, fractions: Int64 = 0, notNumbers: Int64 = 0
    ) {
        self.path = path
        self.table = table
        self.column = column
        self.plausible = plausible
        self.outOfRange = outOfRange
        self.lowest = lowest
        self.highest = highest
        self.fractions = fractions
        self.notNumbers = notNumbers
    }

    /// The plausible range for people: `0 to 2^60`.
    public var plausibleText: String { PlausibleRange.describe(plausible) }

    /// One sentence: `run.sqlite: request.dur holds 1 value outside 0 to 2^60
    /// (9223372036854775807), read as the nearest bound`.
    public var description: String {
        func values(_ count: Int64) -> String { count == 1 ? "1 value" : "\(count) values" }
        var parts: [String] = []
        if outOfRange > 0 {
            let seen = [lowest, highest].compactMap { $0 }.joined(separator: ", ")
            parts.append("\(values(outOfRange)) outside \(plausibleText)"
                + (seen.isEmpty ? "" : " (\(seen))") + ", read as the nearest bound")
        }
        if fractions > 0 { parts.append("\(values(fractions)) with a fraction, read rounded") }
        if notNumbers > 0 { parts.append("\(values(notNumbers)) not a number, read as unknown") }
        return "\(path): \(table).\(column) holds " + parts.joined(separator: "; ")
    }
}

extension StoreReader {
    /// The columns that hold values no recording writes, each with a count of every such value.
    ///
    /// Reads check values as they happen, at the cost of a comparison; by default only the columns
    /// where a read met one are counted, with one query per table. `everyColumn` counts every
    /// INTEGER column of every table instead, for a caller that loads the whole store anyway: so
    /// a value in a row no query returned (a `run_id` that matches no run) is reported too.
    public func anomalies(everyColumn: Bool = false) throws(StoreError) -> [StoreAnomaly] {
        let columns = everyColumn ? try integerColumns() : database.implausibleColumns.withLock { $0 }
        var byTable: [String: [String]] = [:]
        for origin in columns { byTable[origin.table, default: []].append(origin.column) }
        var anomalies: [StoreAnomaly] = []
        for table in byTable.keys.sorted() {
            let names = byTable[table]!.sorted()
            var aggregates: [String] = []
            for name in names {
                let range = PlausibleRange.of(column: name)
                let column = Self.quotedName(name)
                let (low, high) = (range.lowerBound, range.upperBound)
                let number = "typeof(\(column)) IN ('integer', 'real')"
                aggregates += [
                    "count(*) FILTER (WHERE \(number) AND (\(column) < \(low) OR \(column) > \(high)))",
                    "min(\(column)) FILTER (WHERE \(number) AND \(column) < \(low))",
                    "max(\(column)) FILTER (WHERE \(number) AND \(column) > \(high))",
                    "count(*) FILTER (WHERE typeof(\(column)) = 'real' AND \(column) BETWEEN \(low) AND \(high))",
                    "count(*) FILTER (WHERE typeof(\(column)) IN ('text', 'blob'))",
                ]
            }
            let sql = "SELECT " + aggregates.joined(separator: ", ") + " FROM " + Self.quotedName(table)
            try database.prepare(sql, persistent: false).forEachRow { row in
                for (offset, name) in names.enumerated() {
                    let first = offset * 5
                    let anomaly = StoreAnomaly(
                        path: path, table: table, column: name, plausible: PlausibleRange.of(column: name),
                        outOfRange: row.int64(first), lowest: row.optionalString(first + 1),
                        highest: row.optionalString(first + 2), fractions: row.int64(first + 3),
                        notNumbers: row.int64(first + 4))
                    if anomaly.outOfRange + anomaly.fractions + anomaly.notNumbers > 0 { anomalies.append(anomaly) }
                }
            }
        }
        return anomalies
    }

    /// Every column declared INTEGER, of every table.
    private func integerColumns() throws(StoreError) -> Set<StoreColumn> {
        var columns: Set<StoreColumn> = []
        try database.prepare(
            """
            SELECT m.name, p.name FROM sqlite_schema AS m, pragma_table_info(m.name) AS p
            WHERE m.type = 'table' AND upper(p.type) = 'INTEGER'
            """, persistent: false
        ).forEachRow { row in columns.insert(StoreColumn(table: row.string(0), column: row.string(1))) }
        return columns
    }

    /// `name` as an SQL identifier.
    private static func quotedName(_ name: String) -> String {
        "\"" + name.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }
}
