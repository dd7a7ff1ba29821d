import CLTTngUST
import Foundation
import LTTngRecording
import Redaction
import SessionTrace
import SessionTraceLTTng
import TraceStore

#if canImport(Glibc)
import Glibc
#endif

/// `emit.lttng+store`: ns per request record on the caller's thread with both real sinks on at
/// once, an enabled LTTng snapshot session and a SQLite store, as `planner-demo --lttng` runs;
/// `emit.lttng.request`, the same records into LTTng alone, judged against `c.lttng.request`, the
/// same events from a C loop, shows how the cost splits. `emit.lttng.redacting` and
/// `emit.store.redacting`: the caller's cost with a payload redaction (`Redactor.standard`), which
/// LTTng runs on the caller's thread and the store on its writer thread. `emit.lttng.in-turn`,
/// `emit.store.in-turn` and `emit.lttng+store.in-turn`: LTTng alone, the store alone and both, their
/// bursts taken in turn.
func combinedBenchmarks(events: Int) throws -> [BenchmarkRow] {
    let daemon = try LTTngControl.ensureSessionDaemon()
    defer { daemon.stop() }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trace-bench-both-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let session = try LTTngControl.Session.create(
        outputDirectory: directory.appendingPathComponent("lttng").path, snapshot: true,
        recordsProcessID: false)
    defer { try? session.destroy() }
    try session.start(until: { LTTngSink().isEnabled(.instant) })
    let tracer = Tracer(sink: LTTngSink(), label: "trace-bench")
    let lttngOnly = measureInterleaved(
        events: events,
        [
            { count in st_reference_request_loop(Int64(count)) },
            { count in
                // Each record reads the clock, as the C loop does for each event.
                for _ in 0..<count {
                    tracer.record(request: benchmarkRequest(id: tracer.makeID(), ts: tracer.now()))
                }
            },
        ])
    let store = try StoreSink(path: directory.appendingPathComponent("store.sqlite").path)
    let cost = callerCost(of: MultiplexSink([LTTngSink(), store]), events: events)
    store.close()
    try LossyRun.check(store, metric: "emit.lttng+store")
    // `emit.store` times bursts into one store back to back, its best case; here LTTng alone, the
    // store alone and both take their bursts in turn, and both are judged against the two alone.
    let alone = try StoreSink(path: directory.appendingPathComponent("alone.sqlite").path)
    let together = try StoreSink(path: directory.appendingPathComponent("together.sqlite").path)
    let inTurn = callerCosts(of: [LTTngSink(), alone, MultiplexSink([LTTngSink(), together])], events: events)
    alone.close()
    together.close()
    try LossyRun.check(alone, metric: "emit.store.in-turn")
    try LossyRun.check(together, metric: "emit.lttng+store.in-turn")
    // With payload redaction on: LTTng writes at once, so the caller redacts; the store redacts on
    // its writer thread.
    let redact: @Sendable (String) -> String = { Redactor.standard.redact($0).text }
    let lttngRedacting = callerCost(of: LTTngSink(), events: events, payloadRedaction: redact)
    let redactingStore = try StoreSink(path: directory.appendingPathComponent("redacting.sqlite").path)
    let storeRedacting = callerCost(of: redactingStore, events: events, payloadRedaction: redact)
    redactingStore.close()
    try LossyRun.check(redactingStore, metric: "emit.store.redacting")
    try session.stop()
    return [
        BenchmarkRow(metric: "c.lttng.request", value: lttngOnly[0], unit: "ns/event"),
        BenchmarkRow(
            metric: "emit.lttng.request", value: lttngOnly[1], unit: "ns/event", reference: "c.lttng.request",
            referenceValue: lttngOnly[0]),
        BenchmarkRow(metric: "emit.lttng+store", value: cost, unit: "ns/event"),
        BenchmarkRow(metric: "emit.lttng.in-turn", value: inTurn[0], unit: "ns/event"),
        BenchmarkRow(metric: "emit.store.in-turn", value: inTurn[1], unit: "ns/event"),
        BenchmarkRow(
            metric: "emit.lttng+store.in-turn", value: inTurn[2], unit: "ns/event",
            reference: "emit.lttng.in-turn+emit.store.in-turn", referenceValue: inTurn[0] + inTurn[1]),
        BenchmarkRow(metric: "emit.lttng.redacting", value: lttngRedacting, unit: "ns/event"),
        BenchmarkRow(metric: "emit.store.redacting", value: storeRedacting, unit: "ns/event"),
    ]
}
