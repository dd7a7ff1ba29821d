/// How much two tool outputs overlap, estimated from their recorded MinHash sketches: the share of
/// positions at which the sketches agree, an estimate of the Jaccard similarity of the outputs'
/// word sets (see `docs/trace-report.md`).
enum SketchSimilarity {
    /// The estimate, from 0 (nothing shared) to 1; nil when either sketch is missing, empty, or
    /// of another length than the other.
    static func of(_ left: [UInt32]?, _ right: [UInt32]?) -> Double? {
        guard let left, let right, !left.isEmpty, left.count == right.count else { return nil }
        return Double(zip(left, right).filter { $0 == $1 }.count) / Double(left.count)
    }
}
