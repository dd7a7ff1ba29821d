import Foundation
import SessionTrace
import SessionTraceLTTng
import TraceStore

#if canImport(Glibc)
import Glibc
#endif

/// `emit.lttng+store`: ns per request record on the caller's thread with both real sinks on at
/// once, an enabled LTTng snapshot session and a SQLite store, as `planner-demo --lttng` runs.
func combinedBenchmarks(events: Int) throws -> [BenchmarkRow] {
    let daemon = try LTTngControl.ensureSessionDaemon()
    defer { daemon.stop() }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trace-bench-both-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let session = try LTTngControl.Session.create(
        outputDirectory: directory.appendingPathComponent("lttng").path, snapshot: true)
    defer { try? session.destroy() }
    try session.start()
    let store = try StoreSink(path: directory.appendingPathComponent("store.sqlite").path)
    let cost = callerCost(of: MultiplexSink([LTTngSink(), store]), events: events)
    reportDropped(store)
    store.close()
    try session.stop()
    return [BenchmarkRow(metric: "emit.lttng+store", value: cost, unit: "ns/event")]
}
