/// One measured figure, with the reference it is judged against, measured in the same run.
struct BenchmarkRow: Sendable {
    var metric: String
    var value: Double
    var unit: String
    /// The reference metric's name, or nil where the target is absolute.
    var reference: String?
    var referenceValue: Double?
}

extension BenchmarkRow {
    /// The unit of what the caller pays: ns of its thread's CPU time per event (`threadCPUNanoseconds()`).
    static let callerCostUnit = "CPU ns/event"
}
