import Foundation
import LTTngReader
import LTTngRecording
import SessionTrace
import SessionTraceLTTng
import TraceAnalysis
import TraceReportCLI
import TraceStore

#if canImport(Glibc)
import Glibc
#endif

/// Reading an LTTng trace back, against babeltrace2 reading the same trace, and importing it
/// into a store, against the store's own ingest rate of the same records; all in one run.
///
/// - `lttng.read.reference`: seconds for `babeltrace2 TRACE -c sink.utils.dummy`, the reference
///   reader: the same library decoding every event and discarding it.
/// - `lttng.summary`: seconds for `trace-report summary TRACE` (run in this process), judged against
///   the reference; goal ≤ 2×.
/// - `lttng.import`: records per second of `trace-report import --out STORE TRACE`, judged against
///   `store.ingest`, the store's rate for the same request records from a tracer; goal ≥ 1/1.2.
/// - `store.ingest`: request records per second a `StoreSink` writes, fed in bursts it drains
///   before the next (see ``losslessIngestRate(events:path:)``), alternating with import; the run
///   fails rather than judge import against a reference that dropped records.
///
/// The trace holds `events` request records (the request `store.ingest` writes), emitted by this
/// process through `LTTngSink` in bursts the consumer daemon drains, so LTTng discards none (the
/// bench checks). Each figure is the best of three runs.
///
/// - Parameter keptTrace: a folder to keep the trace in, for profiling it or measuring again: a
///   trace already there is read instead of recording a new one.
func lttngReadBenchmarks(events: Int, keptTrace: String? = nil) throws -> [BenchmarkRow] {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("trace-bench-read-\(getpid())").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let trace = keptTrace ?? directory + "/lttng"
    if !FileManager.default.fileExists(atPath: trace) { try recordRequests(events, to: trace) }

    let loaded = try LTTngTrace.load(path: trace, chunks: false)
    let recorded = loaded.requestCount
    let discarded = loaded.runs.reduce(0) { $0 + $1.droppedCount }
    if recorded != events || discarded > 0 {
        printError("trace-bench: the trace holds \(recorded) of \(events) requests, \(discarded) discarded")
    }

    let silent = CommandContext(environment: [:], outputIsTerminal: false, writeNote: { _ in }, write: { _ in })
    var reference = Double.infinity
    var summary = Double.infinity
    var importRate = 0.0
    var ingest = 0.0
    // Each reference runs right before what is judged against it, so both see the same load on the
    // CPUs and the disk.
    for attempt in 0..<3 {
        reference = min(reference, try seconds {
            let pid = try LTTngControl.spawn(
                "babeltrace2", [trace, "--component=sink.utils.dummy"], output: ("/dev/null", "/dev/null"))
            let status = LTTngControl.waitForExit(pid)
            if status != 0 { printError("trace-bench: babeltrace2 exited with status \(status)") }
        })
        summary = min(summary, seconds {
            let status = TraceReport.main(["summary", trace], context: silent, writeError: { printError($0) })
            if status != .success { printError("trace-bench: trace-report summary failed") }
        })
        ingest = max(ingest, try losslessIngestRate(events: events, path: directory + "/ingest-\(attempt).sqlite"))
        let store = directory + "/import-\(attempt).sqlite"
        let importSeconds = seconds {
            let status = TraceReport.main(
                ["import", "--out", store, trace], context: silent, writeError: { printError($0) })
            if status != .success { printError("trace-bench: trace-report import failed") }
        }
        importRate = max(importRate, Double(recorded) / importSeconds)
        try? FileManager.default.removeItem(atPath: store)
    }
    return [
        BenchmarkRow(metric: "lttng.read.reference", value: reference, unit: "s"),
        BenchmarkRow(
            metric: "lttng.summary", value: summary, unit: "s", reference: "lttng.read.reference",
            referenceValue: reference),
        BenchmarkRow(
            metric: "lttng.import", value: importRate, unit: "events/s", reference: "store.ingest",
            referenceValue: ingest),
        BenchmarkRow(metric: "store.ingest", value: ingest, unit: "events/s"),
    ]
}

/// Records `events` request records from this process into a new trace at `directory`.
private func recordRequests(_ events: Int, to directory: String) throws {
    let daemon = try LTTngControl.ensureSessionDaemon()
    defer { daemon.stop() }
    let session = try LTTngControl.Session.create(
        outputDirectory: directory, channel: LTTngControl.Channel(subbufferSize: "8M", subbufferCount: 8))
    do {
        try session.start(until: { LTTngSink().isEnabled(.request) })
        let tracer = Tracer(sink: LTTngSink(), label: "trace-bench")
        var emitted = 0
        while emitted < events {
            // A burst well inside one CPU's buffers, then time for the consumer daemon to drain it.
            let burst = min(50_000, events - emitted)
            for index in 0..<burst {
                tracer.record(request: benchmarkRequest(id: tracer.makeID(), ts: Int64(emitted + index)))
            }
            emitted += burst
            usleep(100_000)
        }
        try session.stop()
    } catch {
        try? session.destroy()
        throw error
    }
    try session.destroy()
}

/// Wall-clock seconds of `body`.
func seconds(_ body: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    try body()
    let elapsed = clock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}
