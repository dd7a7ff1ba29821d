import Foundation
import LTTngRecording
import SessionTraceLTTng

#if canImport(Glibc)
import Glibc
#endif

/// Runs `body` while an LTTng snapshot session, which the bench starts and destroys itself, enables
/// every `session_trace` event of this process. Events go to LTTng's ring buffer in memory and
/// nothing is written to disk, so what the bench times is the cost of emitting, not of the disk.
func withSnapshotSession<Result>(_ body: () throws -> Result) throws -> Result {
    let daemon = try LTTngControl.ensureSessionDaemon()
    defer { daemon.stop() }
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("trace-bench-lttng-\(getpid())").path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let session = try LTTngControl.Session.create(
        outputDirectory: directory, snapshot: true, recordsProcessID: false)
    defer { try? session.destroy() }
    try session.start(until: { LTTngSink().isEnabled(.instant) })
    let result = try body()
    try session.stop()
    return result
}
