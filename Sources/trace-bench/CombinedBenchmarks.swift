import Foundation
import Redaction
import SessionTrace
import SessionTraceLTTng
import TraceStore

#if canImport(Glibc)
import Glibc
#endif

/// Request records into LTTng and into a SQLite store, ns of the caller's CPU time per record: an
/// enabled LTTng snapshot session (`withSnapshotSession(_:)`) and a store, as `planner-demo --lttng`
/// runs.
///
/// - `c.lttng.request`: the same events from a C loop; `emit.lttng.request`: into LTTng alone,
///   judged against it.
/// - `emit.store.in-turn`: into a store alone; `emit.lttng+store`: into both, judged against the
///   two alone. All four take their bursts in turn (`burstCosts(_:events:burst:)`), so each sees the
///   machine as the others do; `emit.store` times bursts into one store back to back, its best
///   case.
/// - `emit.lttng+store.wall`: the same bursts in wall-clock time, against the two alone in
///   wall-clock time: with it the time the scheduler gave the store's writer on the caller's core.
/// - `emit.lttng.redacting` and `emit.store.redacting`: the caller's cost with a payload redaction
///   (`Redactor.standard`), which LTTng runs on the caller's thread and the store on its writer
///   thread.
func combinedBenchmarks(events: Int) throws -> [BenchmarkRow] {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("trace-bench-both-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try withSnapshotSession {
        let alone = try StoreSink(path: directory.appendingPathComponent("alone.sqlite").path)
        let together = try StoreSink(path: directory.appendingPathComponent("together.sqlite").path)
        let costs = burstCosts(
            [.cRequests(), .requests(into: LTTngSink()), .requests(into: alone),
             .requests(into: MultiplexSink([LTTngSink(), together]))], events: events)
        alone.close()
        together.close()
        try LossyRun.check(alone, metric: "emit.store.in-turn")
        try LossyRun.check(together, metric: "emit.lttng+store")
        let (c, lttng, store, both) = (costs[0], costs[1], costs[2], costs[3])
        // With payload redaction on: LTTng writes at once, so the caller redacts; the store redacts on
        // its writer thread.
        let redact: @Sendable (String) -> String = { Redactor.standard.redact($0).text }
        let lttngRedacting = callerCost(of: LTTngSink(), events: events, payloadRedaction: redact)
        let redactingStore = try StoreSink(path: directory.appendingPathComponent("redacting.sqlite").path)
        let storeRedacting = callerCost(of: redactingStore, events: events, payloadRedaction: redact)
        redactingStore.close()
        try LossyRun.check(redactingStore, metric: "emit.store.redacting")
        let unit = BenchmarkRow.callerCostUnit
        return [
            BenchmarkRow(metric: "c.lttng.request", value: c.cpu, unit: unit),
            BenchmarkRow(
                metric: "emit.lttng.request", value: lttng.cpu, unit: unit, reference: "c.lttng.request",
                referenceValue: c.cpu),
            BenchmarkRow(metric: "emit.store.in-turn", value: store.cpu, unit: unit),
            BenchmarkRow(
                metric: "emit.lttng+store", value: both.cpu, unit: unit,
                reference: "emit.lttng.request+emit.store.in-turn", referenceValue: lttng.cpu + store.cpu),
            BenchmarkRow(
                metric: "emit.lttng+store.wall", value: both.wall, unit: "wall ns/event",
                reference: "the two alone, wall", referenceValue: lttng.wall + store.wall),
            BenchmarkRow(metric: "emit.lttng.redacting", value: lttngRedacting, unit: unit),
            BenchmarkRow(metric: "emit.store.redacting", value: storeRedacting, unit: unit),
        ]
    }
}
