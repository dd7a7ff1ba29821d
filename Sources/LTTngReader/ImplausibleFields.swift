import TraceModel
import TraceStore

/// The numbers of an LTTng trace that no recording writes, gathered as ``StoreReader`` gathers a
/// store's (see ``StoreAnomaly``): an integer field outside its column's ``PlausibleRange`` reads
/// as the nearest bound, a real that is not finite as unknown, and each field is reported, so a
/// trace reads as safely as the store of the same run and gives the same notes.
///
/// Fields are named as the store names their columns: `request.dur`, `tool_call.output_bytes`.
/// A class: the decoder's field readers count into it while they build one record.
final class ImplausibleFields {
    private struct Field: Hashable {
        var table: String
        var column: String
    }

    private struct Tally {
        var plausible: String
        var outOfRange: Int64 = 0
        var lowest: Int64?
        var highest: Int64?
        var notNumbers: Int64 = 0
    }

    private var tallies: [Field: Tally] = [:]

    /// Counts `value`, which lies outside `range`, and returns the nearest bound.
    func outOfRange(_ value: Int64, _ range: ClosedRange<Int64>, table: String, column: String) -> Int64 {
        let field = Field(table: table, column: column)
        var tally = tallies[field] ?? Tally(plausible: PlausibleRange.describe(range))
        tally.outOfRange += 1
        if value < range.lowerBound {
            tally.lowest = min(tally.lowest ?? value, value)
        } else {
            tally.highest = max(tally.highest ?? value, value)
        }
        tallies[field] = tally
        return PlausibleRange.nearest(value, in: range)
    }

    /// Counts `value`, which is not finite; it reads as unknown. NaN is not counted: SQLite stores
    /// it as NULL, so the store of the same run holds an unknown value there, not an anomaly.
    func notFinite(_ value: Double, table: String, column: String) {
        if value.isNaN { return }
        tallies[Field(table: table, column: column), default: Tally(plausible: "finite numbers")].notNumbers += 1
    }

    /// The fields that held such values, by table and column as ``StoreReader/anomalies(everyColumn:)``
    /// orders them; `path` is the trace's folder.
    func anomalies(path: String) -> [StoreAnomaly] {
        tallies.sorted { ($0.key.table, $0.key.column) < ($1.key.table, $1.key.column) }.map { field, tally in
            StoreAnomaly(
                path: path, table: field.table, column: field.column, plausible: tally.plausible,
                outOfRange: tally.outOfRange, lowest: tally.lowest.map(String.init),
                highest: tally.highest.map(String.init), notNumbers: tally.notNumbers)
        }
    }
}
