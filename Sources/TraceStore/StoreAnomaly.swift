/// A numeric column of a store that holds values no recording writes: numbers outside the
/// column's ``PlausibleRange``, fractions, infinities, text or blobs.
/// ``StoreReader`` reads them as the nearest plausible value (text as unknown) and reports the
/// column with this, so an analysis shows what it worked around instead of trapping on it.
public struct StoreAnomaly: Sendable, Hashable, CustomStringConvertible {
    /// The store's file, as given.
    public var path: String
    public var table: String
    public var column: String
    /// What the column may hold, for people: `0 to 2^60`, `finite numbers`.
    public var plausible: String
    /// Numbers outside ``plausible``, each read as the nearest bound.
    public var outOfRange: Int64
    /// The lowest and the highest of them below and above the range, as SQLite prints them.
    public var lowest: String?
    public var highest: String?
    /// Fractions within the range, read rounded.
    public var fractions: Int64
    /// Text, blobs and infinities, read as unknown (NULL). Never shown: text may be anything.
    public var notNumbers: Int64

    public init(
        path: String, table: String, column: String, plausible: String, outOfRange: Int64,
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

    /// One sentence: `run.sqlite: request.dur holds 1 value outside 0 to 2^60
    /// (9223372036854775807), read as the nearest bound`.
    public var description: String {
        func values(_ count: Int64) -> String { count == 1 ? "1 value" : "\(count) values" }
        var parts: [String] = []
        if outOfRange > 0 {
            let seen = [lowest, highest].compactMap { $0 }.joined(separator: ", ")
            parts.append("\(values(outOfRange)) outside \(plausible)"
                + (seen.isEmpty ? "" : " (\(seen))") + ", read as the nearest bound")
        }
        if fractions > 0 { parts.append("\(values(fractions)) with a fraction, read rounded") }
        if notNumbers > 0 { parts.append("\(values(notNumbers)) not a finite number, read as unknown") }
        return "\(path): \(table).\(column) holds " + parts.joined(separator: "; ")
    }
}

extension StoreReader {
    /// The columns that hold values no recording writes, each with a count of every such value.
    ///
    /// Reads check values as they happen, at the cost of a comparison; by default only the columns
    /// where a read met one are counted, with one query per table. `everyColumn` counts every
    /// numeric column of every table instead, for a caller that loads the whole store anyway: so
    /// a value in a row no query returned (a `run_id` that matches no run) is reported too.
    public func anomalies(everyColumn: Bool = false) throws(StoreError) -> [StoreAnomaly] {
        let columns = everyColumn ? try numericColumns() : database.implausibleColumns.withLock { $0 }
        var anomalies: [StoreAnomaly] = []
        for (table, members) in Dictionary(grouping: columns, by: \.table).sorted(by: { $0.key < $1.key }) {
            let members = members.sorted { $0.column < $1.column }
            guard try holdsImplausibleValue(table, members) else { continue }
            let sql = "SELECT " + members.map(Self.aggregates).joined(separator: ", ") + " FROM "
                + Self.quotedName(table)
            try database.prepare(sql, persistent: false).forEachRow { row in
                for (offset, member) in members.enumerated() {
                    let first = offset * 5
                    let anomaly = StoreAnomaly(
                        path: path, table: table, column: member.column, plausible: member.rule.plausible,
                        outOfRange: row.int64(first), lowest: row.optionalString(first + 1),
                        highest: row.optionalString(first + 2), fractions: row.int64(first + 3),
                        notNumbers: row.int64(first + 4))
                    if anomaly.outOfRange + anomaly.fractions + anomaly.notNumbers > 0 { anomalies.append(anomaly) }
                }
            }
        }
        return anomalies
    }

    /// Whether a row of `table` holds a value that the aggregates of `members` count: one scan
    /// that stops at the first such value and computes nothing, so a clean table (nearly every
    /// one) costs no aggregates.
    private func holdsImplausibleValue(_ table: String, _ members: [StoreColumn]) throws(StoreError) -> Bool {
        let test = members.map { "(\(Self.implausible($0)))" }.joined(separator: " OR ")
        var found = false
        try database.prepare(
            "SELECT EXISTS (SELECT 1 FROM \(Self.quotedName(table)) WHERE \(test))", persistent: false
        ).forEachRow { row in found = row.int64(0) != 0 }
        return found
    }

    /// A value of `member` that one of its aggregates counts. In an INTEGER column that is
    /// anything but NULL or an integer in range: text and blobs sort above every number, so
    /// `NOT BETWEEN` holds for them too; in a REAL column, what is not a finite number.
    private static func implausible(_ member: StoreColumn) -> String {
        let column = quotedName(member.column)
        switch member.rule {
        case .integer(let range):
            return "\(column) NOT BETWEEN \(range.lowerBound) AND \(range.upperBound)"
                + " OR typeof(\(column)) = 'real'"
        case .real:
            return notNumber(member)
        }
    }

    /// The values of `member` read as unknown: text and blobs, and infinities (9e999 in SQL) in a
    /// REAL column, which holds any finite number.
    private static func notNumber(_ member: StoreColumn) -> String {
        let column = quotedName(member.column)
        let text = "typeof(\(column)) IN ('text', 'blob')"
        guard case .real = member.rule else { return text }
        return text + " OR \(column) IN (9e999, -9e999)"
    }

    /// Five aggregates over `member`: how many numbers are outside its range, the lowest below
    /// and the highest above, how many have a fraction, and how many are not numbers.
    private static func aggregates(_ member: StoreColumn) -> String {
        let column = quotedName(member.column)
        let number = "typeof(\(column)) IN ('integer', 'real')"
        let (below, above, fraction): (String, String, String)
        switch member.rule {
        case .integer(let range):
            below = "\(column) < \(range.lowerBound)"
            above = "\(column) > \(range.upperBound)"
            fraction = "typeof(\(column)) = 'real' AND \(column) BETWEEN \(range.lowerBound) AND \(range.upperBound)"
        case .real:
            (below, above, fraction) = ("0", "0", "0")
        }
        return """
            count(*) FILTER (WHERE \(number) AND (\(below) OR \(above))), \
            min(\(column)) FILTER (WHERE \(number) AND \(below)), \
            max(\(column)) FILTER (WHERE \(number) AND \(above)), \
            count(*) FILTER (WHERE \(fraction)), \
            count(*) FILTER (WHERE \(notNumber(member)))
            """
    }

    /// Every column declared INTEGER or REAL, of every table.
    private func numericColumns() throws(StoreError) -> Set<StoreColumn> {
        var columns: Set<StoreColumn> = []
        try database.prepare(
            """
            SELECT m.name, p.name, p.type FROM sqlite_schema AS m, pragma_table_info(m.name) AS p
            WHERE m.type = 'table'
            """, persistent: false
        ).forEachRow { row in
            let name = row.string(1)
            guard let rule = PlausibleRange.rule(declaredType: row.string(2), column: name) else { return }
            columns.insert(StoreColumn(table: row.string(0), column: name, rule: rule))
        }
        return columns
    }

    /// `name` as an SQL identifier.
    private static func quotedName(_ name: String) -> String {
        "\"" + name.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }
}
