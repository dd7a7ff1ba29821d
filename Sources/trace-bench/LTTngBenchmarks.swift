import CLTTngUST
import Foundation
import LTTngRecording
import SessionTrace
import SessionTraceLTTng

#if canImport(Glibc)
import Glibc
#endif

/// The cost of one `tracer.instant("bench")`: with no sink, into LTTng with no session, and
/// into an enabled LTTng session next to the same events emitted from plain C.
///
/// The enabled session is a snapshot session the bench starts and destroys itself: events go
/// to LTTng's in-memory ring buffer and nothing is written to disk, so the figure is the cost
/// of emitting, not of the disk. It records only this process.
func lttngBenchmarks(events: Int) throws -> [BenchmarkRow] {
    var rows: [BenchmarkRow] = []
    let unit = BenchmarkRow.callerCostUnit
    func instants(_ tracer: Tracer) -> Bursts {
        Bursts { count in for _ in 0..<count { tracer.instant("bench") } }
    }

    // An instant no sink takes is a few instructions: one burst of all the events a round, so that
    // the clock reads around it do not weigh on the figure.
    let nullTracer = Tracer(sink: NullSink(), label: "trace-bench")
    let noSink = burstCosts([instants(nullTracer)], events: events, burst: events)[0].cpu
    rows.append(BenchmarkRow(metric: "emit.nosink", value: noSink, unit: unit))

    let lttngTracer = Tracer(sink: LTTngSink(), label: "trace-bench")
    if LTTngSink().isEnabled(.instant) {
        printError("trace-bench: session_trace:instant is already enabled by another session")
    }
    let disabled = burstCosts([instants(lttngTracer)], events: events, burst: events)[0].cpu
    rows.append(BenchmarkRow(metric: "emit.lttng.disabled", value: disabled, unit: unit))

    let daemon = try LTTngControl.ensureSessionDaemon()
    defer { daemon.stop() }
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("trace-bench-\(getpid())").path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let session = try LTTngControl.Session.create(
        outputDirectory: directory, snapshot: true, recordsProcessID: false)
    defer { try? session.destroy() }
    try session.start(until: { LTTngSink().isEnabled(.instant) })
    // C and Swift bursts in turn, so both see the same machine.
    let enabled = burstCosts(
        [
            Bursts { count in st_reference_instant_loop(Int64(count)) },
            instants(lttngTracer),
        ], events: events
    ).map(\.cpu)
    try session.stop()
    rows.append(BenchmarkRow(metric: "c.lttng.enabled", value: enabled[0], unit: unit))
    rows.append(
        BenchmarkRow(
            metric: "emit.lttng.enabled", value: enabled[1], unit: unit,
            reference: "c.lttng.enabled", referenceValue: enabled[0]))
    return rows
}
