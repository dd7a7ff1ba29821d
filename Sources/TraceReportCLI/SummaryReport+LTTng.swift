import LTTngReader
import SessionTrace
import TraceAnalysis
import TraceModel
import TraceStore

extension SummaryReport {
    /// Aggregates the LTTng trace at or below the folder `path` as it is read, decoding only
    /// ``fieldsRead``; with the notes on implausible values in those fields.
    public static func compute(
        lttngTrace path: String, prices: PriceTable? = nil
    ) throws(LTTngTraceError) -> (report: SummaryReport, anomalies: [StoreAnomaly]) {
        let stream = try LTTngRecordStream(path: path, selection: fieldsRead)
        return (try compute(stream: stream, prices: prices), stream.anomalies)
    }

    /// Aggregates the records of an LTTng trace as they are read, through the summary's one
    /// ``Fold``: the figures of ``compute(trace:)`` of the same trace without gathering it, so a
    /// million requests cost one pass and the memory of their figures, as a store costs.
    public static func compute(
        stream: LTTngRecordStream, prices: PriceTable? = nil
    ) throws(LTTngTraceError) -> SummaryReport {
        var fold = Fold(prices: prices)
        while case .record(let event, let runID, _) = try stream.next() { fold.add(event, runID: runID) }
        return fold.finish(path: stream.path)
    }
}
