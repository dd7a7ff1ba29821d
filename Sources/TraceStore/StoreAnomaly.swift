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
    /// The columns whose values read so far were not plausible, each with a count of every such
    /// value in the column; empty for a store a recording wrote.
    ///
    /// Reads are checked as they happen, at the cost of a comparison; only a column found wanting
    /// is counted, with one more query.
    public func anomalies() throws(StoreError) -> [StoreAnomaly] {
        let columns = database.implausibleColumns.withLock { $0 }
            .sorted { ($0.table, $0.column) < ($1.table, $1.column) }
        var anomalies: [StoreAnomaly] = []
        for origin in columns {
            let range = PlausibleRange.of(column: origin.column)
            let table = Self.quotedName(origin.table)
            let column = Self.quotedName(origin.column)
            let number = "typeof(\(column)) IN ('integer', 'real')"
            let sql = """
                SELECT count(*) FILTER (WHERE \(number) AND (\(column) < ?1 OR \(column) > ?2)),
                    min(\(column)) FILTER (WHERE \(number) AND \(column) < ?1),
                    max(\(column)) FILTER (WHERE \(number) AND \(column) > ?2),
                    count(*) FILTER (WHERE typeof(\(column)) = 'real' AND \(column) BETWEEN ?1 AND ?2),
                    count(*) FILTER (WHERE typeof(\(column)) IN ('text', 'blob'))
                FROM \(table)
                """
            let statement = try database.prepare(sql, persistent: false)
            statement.bind(1, range.lowerBound)
            statement.bind(2, range.upperBound)
            try statement.forEachRow { row in
                let anomaly = StoreAnomaly(
                    path: path, table: origin.table, column: origin.column, plausible: range,
                    outOfRange: row.int64(0), lowest: row.optionalString(1), highest: row.optionalString(2),
                    fractions: row.int64(3), notNumbers: row.int64(4))
                if anomaly.outOfRange + anomaly.fractions + anomaly.notNumbers > 0 { anomalies.append(anomaly) }
            }
        }
        return anomalies
    }

    /// `name` as an SQL identifier.
    private static func quotedName(_ name: String) -> String {
        "\"" + name.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }
}
