import Foundation
import LTTngRecording
import SessionTrace
import SessionTraceLTTng
import Testing
import TestSupport

/// Records what `body` emits in this process to an LTTng trace in `directory`, with the session
/// daemon started for it if none runs (and stopped after, by PID).
func recordInProcess(
    to directory: String, events: String = "session_trace:*", channel: LTTngControl.Channel? = nil,
    _ body: () async throws -> Void
) async throws {
    let daemon = try LTTngControl.ensureSessionDaemon()
    defer { daemon.stop() }
    let session = try LTTngControl.Session.create(outputDirectory: directory, events: events, channel: channel)
    do {
        let sessionTraceEvents = events.hasPrefix("session_trace")
        // A daemon started just now may not know this process yet; a session started before it
        // registers records nothing of it (not even LTTng-UST's state dump).
        try LTTngControl.waitUntilRegistered()
        try session.start(until: sessionTraceEvents ? { LTTngSink().isEnabled(.request) } : nil)
        try await body()
        try session.stop()
    } catch {
        try? session.destroy()
        throw error
    }
    try session.destroy()
}

/// A few requests in one session through a tracer, as a traced program records them.
func emitSmallRun(requests: Int = 3, label: String = "small") async {
    let tracer = Tracer(sink: LTTngSink(), label: label)
    await tracer.withSession("chat") { _ in
        for index in 0..<requests {
            let id = tracer.makeID()
            LTTngSink().record(
                .request(
                    RequestRecord(
                        requestID: id, sessionID: TraceContext.current.sessionID, ts: tracer.now(),
                        dur: 1_000_000, timeToFirstToken: 300_000, profile: "default", provider: "openai",
                        model: "small", inputTokens: 100 + Int64(index), cachedInputTokens: 50, outputTokens: 9)))
        }
    }
}

/// Every file under `directory` with its bytes, to show a reader left the input as it was.
func contents(of directory: String) throws -> [String: Data] {
    var files: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: directory)
    while let name = enumerator?.nextObject() as? String {
        let path = directory + "/" + name
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: path))
        }
    }
    return files
}

/// The path of this package's test binary, to run one of its tests as a traced child process.
func testBinary() throws -> String {
    let folder = packageRoot.path + "/.build/debug"
    let name = try #require(
        try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasSuffix("PackageTests.xctest") })
    return folder + "/" + name
}

/// The stream files of the trace under `directory` (not metadata, not indexes), largest first.
func streamFiles(under directory: String) throws -> [String] {
    var files: [(String, Int)] = []
    let enumerator = FileManager.default.enumerator(atPath: directory)
    while let name = enumerator?.nextObject() as? String {
        let path = directory + "/" + name
        let last = (name as NSString).lastPathComponent
        guard last != "metadata", !name.contains("/index/"), !last.hasSuffix(".idx") else { continue }
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        guard attributes[.type] as? FileAttributeType == .typeRegular else { continue }
        files.append((path, (attributes[.size] as? Int) ?? 0))
    }
    return files.sorted { $0.1 > $1.1 }.map(\.0)
}

/// Waits until the output of a program started with `startProgram` holds `text`; fails if the
/// program ends first or after 60 s.
func waitFor(_ text: String, in output: TemporaryDirectory, while program: Process) async throws {
    let deadline = ContinuousClock.now + .seconds(60)
    while ContinuousClock.now < deadline {
        let printed = (try? String(contentsOfFile: output.path("out"), encoding: .utf8)) ?? ""
        if printed.contains(text) { return }
        guard program.isRunning else {
            let errors = (try? String(contentsOfFile: output.path("err"), encoding: .utf8)) ?? ""
            Issue.record("the program ended before printing '\(text)': \(errors)")
            throw CancellationError()
        }
        try await Task.sleep(for: .milliseconds(100))
    }
    let printed = (try? String(contentsOfFile: output.path("out"), encoding: .utf8)) ?? ""
    Issue.record("no '\(text)' within 60 s; the program printed: \(printed.suffix(600))")
    throw CancellationError()
}
