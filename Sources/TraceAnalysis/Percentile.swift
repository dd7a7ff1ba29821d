import Reproducible

/// Percentiles by the nearest-rank method, the one every report of this package uses.
///
/// For `n` values sorted ascending, the p-th percentile (0 < p ≤ 100) is the value at 1-based
/// rank `ceil(p / 100 × n)`: always one of the recorded values, never an interpolation. p50 of
/// `[10, 20, 30, 40]` is 20; p95 of 20 values is the 19th; p100 is the maximum. The same rule is
/// easy to state in SQL (`benchmarks/summary-vs-sqlite.sh` does), so results can be checked.
package enum Percentile {
    /// The 1-based nearest rank of the p-th percentile among `count` values.
    package static func rank(_ percentile: Double, count: Int) -> Int {
        precondition(percentile > 0 && percentile <= 100, "a percentile is in (0, 100]")
        guard count > 0 else { return 0 }
        // Integer arithmetic where p is whole, so p95 of 20 values is exactly rank 19.
        let scaled = percentile * Double(count) / 100
        let rounded = scaled.rounded()
        let rank = abs(scaled - rounded) < 1e-9 ? Int(rounded) : Int(scaled.rounded(.up))
        return min(max(rank, 1), count)
    }

    /// The p-th percentile of `values` (any order), or nil when there are none.
    package static func nearestRank<Value: Comparable>(_ percentile: Double, of values: [Value]) -> Value? {
        guard !values.isEmpty else { return nil }
        var copy = values
        return select(&copy, rank: rank(percentile, count: values.count))
    }

    /// The value of 1-based `rank` in `values`, in expected linear time (quickselect); reorders
    /// `values`. Summary reports use it instead of sorting, so a million requests cost no sort.
    package static func select<Value: Comparable>(_ values: inout [Value], rank: Int) -> Value {
        precondition(rank >= 1 && rank <= values.count)
        let target = rank - 1
        var low = 0
        var high = values.count - 1
        var generator = SplitMix64(seed: UInt64(values.count))
        while low < high {
            let pivot = values[Int.random(in: low...high, using: &generator)]
            // Three-way partition: [low, lt) < pivot, [lt, gt] == pivot, (gt, high] > pivot.
            var lt = low
            var index = low
            var gt = high
            while index <= gt {
                if values[index] < pivot {
                    values.swapAt(lt, index)
                    lt += 1
                    index += 1
                } else if pivot < values[index] {
                    values.swapAt(index, gt)
                    gt -= 1
                } else {
                    index += 1
                }
            }
            if target < lt {
                high = lt - 1
            } else if target > gt {
                low = gt + 1
            } else {
                return pivot
            }
        }
        return values[target]
    }
}
