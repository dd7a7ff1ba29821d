extension Int64 {
    /// `self + other`, held at `.max` or `.min` where the sum would overflow.
    ///
    /// Every stored value is read within its ``PlausibleRange``, so one addition of two cannot
    /// overflow; a sum over many rows (model time, tokens, drop counts) can, and is taken with this.
    package func saturatingAdd(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}

extension Sequence {
    /// The sum of `value` over the elements, held at the bounds of `Int64` instead of trapping.
    package func saturatingSum(_ value: (Element) -> Int64) -> Int64 {
        reduce(0) { $0.saturatingAdd(value($1)) }
    }
}
