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

    let nullTracer = Tracer(sink: NullSink(), label: "trace-bench")
    let noSink = measure(events: events) { count in
        for _ in 0..<count { nullTracer.instant("bench") }
    }
    rows.append(BenchmarkRow(metric: "emit.nosink", value: noSink, unit: BenchmarkRow.callerCost))

    let lttngTracer = Tracer(sink: LTTngSink(), label: "trace-bench")
    if LTTngSink().isEnabled(.instant) {
        printError("trace-bench: session_trace:instant is already enabled by another session")
    }
    let disabled = measure(events: events) { count in
        for _ in 0..<count { lttngTracer.instant("bench") }
    }
    rows.append(BenchmarkRow(metric: "emit.lttng.disabled", value: disabled, unit: BenchmarkRow.callerCost))

    let daemon = try LTTngControl.ensureSessionDaemon()
    defer { daemon.stop() }
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("trace-bench-\(getpid())").path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let session = try LTTngControl.Session.create(
        outputDirectory: directory, snapshot: true, recordsProcessID: false)
    defer { try? session.destroy() }
    try session.start(until: { LTTngSink().isEnabled(.instant) })
    // Alternate C and Swift repetitions, so both see the same machine load.
    let enabled = measureInterleaved(
        events: events,
        [
            { count in st_reference_instant_loop(Int64(count)) },
            { count in for _ in 0..<count { lttngTracer.instant("bench") } },
        ])
    try session.stop()
    rows.append(BenchmarkRow(metric: "c.lttng.enabled", value: enabled[0], unit: BenchmarkRow.callerCost))
    rows.append(
        BenchmarkRow(
            metric: "emit.lttng.enabled", value: enabled[1], unit: BenchmarkRow.callerCost,
            reference: "c.lttng.enabled", referenceValue: enabled[0]))
    return rows
}

/// Median nanoseconds of the caller's CPU time per event of `body(events)` over `repetitions`,
/// after a warm-up.
func measure(events: Int, repetitions: Int = 11, _ body: (Int) -> Void) -> Double {
    withoutActuallyEscaping(body) { measureInterleaved(events: events, repetitions: repetitions, [$0])[0] }
}

/// Like ``measure(events:repetitions:_:)`` for several bodies, run in turn each repetition.
func measureInterleaved(events: Int, repetitions: Int = 11, _ bodies: [(Int) -> Void]) -> [Double] {
    for body in bodies { body(max(1, events / 10)) }
    var samples = Array(repeating: [Double](), count: bodies.count)
    for _ in 0..<repetitions {
        for (index, body) in bodies.enumerated() {
            let start = threadCPUNanoseconds()
            body(events)
            samples[index].append(Double(threadCPUNanoseconds() - start) / Double(events))
        }
    }
    return samples.map { $0.sorted()[$0.count / 2] }
}
