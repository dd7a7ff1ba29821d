/// The values a numeric column of a store holds when a recording wrote it, by the schema's naming
/// conventions. ``StoreReader`` reads anything else as the nearest plausible value and reports it
/// as a ``StoreAnomaly``, so arithmetic on what a store holds cannot overflow.
///
/// | columns | kind | plausible |
/// | --- | --- | --- |
/// | `ts`, `wall_clock_*` | time | 0 through 2^62 ns (146 years after the clock's zero) |
/// | `dur`, `ttft`, `*_dur` | duration | 0 through 2^60 ns (36 years) |
/// | `*_id` | identifier | any integer |
/// | every other integer column: tokens, bytes, entries, `count` | count | 0 through 2^53 |
///
/// With these bounds a time plus a duration, and the difference of two times, fit in 64 bits; a
/// count is exact as a `Double` and in JSON. Sums over many rows still need saturating arithmetic.
public enum PlausibleRange {
    /// `ts` and the wall-clock columns (`wall_clock_start`, `run_closed.wall_clock`), in nanoseconds.
    public static let time: ClosedRange<Int64> = 0...(1 << 62)
    /// `dur`, `ttft` and the server's `*_dur` columns, in nanoseconds.
    public static let duration: ClosedRange<Int64> = 0...(1 << 60)
    /// Token, byte, entry and drop counts.
    public static let count: ClosedRange<Int64> = 0...(1 << 53)
    /// Keys: any integer.
    public static let identifier: ClosedRange<Int64> = Int64.min...Int64.max

    /// The plausible values of the integer column named `column`, in any table.
    public static func of(column: String) -> ClosedRange<Int64> {
        switch column {
        case "ts": time
        case _ where column.hasPrefix("wall_clock"): time
        case "dur", "ttft": duration
        case _ where column.hasSuffix("_dur"): duration
        case _ where column.hasSuffix("_id"): identifier
        default: count
        }
    }

    /// `value` held within `range`.
    public static func nearest(_ value: Int64, in range: ClosedRange<Int64>) -> Int64 {
        min(max(value, range.lowerBound), range.upperBound)
    }

    /// `value` rounded and held within `range`; nil for NaN, which has no nearest value.
    public static func nearest(_ value: Double, in range: ClosedRange<Int64>) -> Int64? {
        guard !value.isNaN else { return nil }
        let rounded = value.rounded()
        if rounded <= Double(range.lowerBound) { return range.lowerBound }
        // Double(upperBound) may round up past it (2^63 - 1 becomes 2^63): compare first.
        if rounded >= Double(range.upperBound) { return range.upperBound }
        return Int64(rounded)
    }

    /// How a column declared `declaredType` and named `column` is read: an INTEGER column within
    /// its range, a REAL column as finite numbers; nil for any other column, read as it is.
    static func rule(declaredType: String, column: String) -> ColumnRule? {
        switch declaredType.uppercased() {
        case "INTEGER": .integer(of(column: column))
        case "REAL": .real
        default: nil
        }
    }

    /// `range` for people: `0 to 2^60`.
    public static func describe(_ range: ClosedRange<Int64>) -> String {
        func bound(_ value: Int64) -> String {
            if value == .min { return "-2^63" }
            if value == .max { return "2^63-1" }
            if value > 1024, value.nonzeroBitCount == 1 { return "2^\(value.trailingZeroBitCount)" }
            return String(value)
        }
        return "\(bound(range.lowerBound)) to \(bound(range.upperBound))"
    }
}

/// How ``Row`` reads a store's numeric column.
enum ColumnRule: Hashable, Sendable {
    /// Whole numbers within the range.
    case integer(ClosedRange<Int64>)
    /// Finite numbers.
    case real

    /// What the column may hold, for people.
    var plausible: String {
        switch self {
        case .integer(let range): PlausibleRange.describe(range)
        case .real: "finite numbers"
        }
    }
}
