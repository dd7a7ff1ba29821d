import Foundation
import SessionTrace
import Synchronization
import Testing
import TraceScenarios
import TraceStore

@testable import TraceAnalysis
@testable import TraceReportCLI

/// The package's root, found from this file, so tests reach `tracefiles/` and the built binary.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

func scenarioPath(_ scenario: Scenario) -> String {
    packageRoot.appendingPathComponent("tracefiles/scenarios/\(scenario.fileName)").path
}

/// A fresh directory under the system's temporary directory, removed when the value goes away.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("TraceAnalysisTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// A clock the test moves by hand.
final class ManualClock: TraceClock {
    private let time = Mutex<Int64>(5_000_000_000)
    func now() -> Int64 { time.withLock { $0 } }
    func wallClockNow() -> Int64 { 1_780_000_000_000_000_000 }
    func set(_ value: Int64) { time.withLock { $0 = value } }
}

/// Runs `trace-report` in process and returns status, standard output and standard error.
func report(_ arguments: [String], environment: [String: String] = [:], terminal: Bool = false)
    -> (status: ReportExitStatus, out: String, err: String)
{
    let out = Mutex("")
    let err = Mutex("")
    let context = CommandContext(environment: environment, outputIsTerminal: terminal) { text in
        out.withLock { $0 += text }
    }
    let status = TraceReport.main(arguments, context: context) { text in err.withLock { $0 += text } }
    return (status, out.withLock { $0 }, err.withLock { $0 })
}

/// The built `trace-report`, which `swift test` builds with the package.
func builtBinary() throws -> String {
    let path = packageRoot.appendingPathComponent(".build/debug/trace-report").path
    try #require(FileManager.default.isExecutableFile(atPath: path), "build trace-report first: swift build")
    return path
}

/// Runs a program and returns its exit status, standard output and standard error; `signal` is the
/// signal that ended it, if one did (then `status` is that signal's number).
func runProgram(_ path: String, _ arguments: [String], environment: [String: String]? = nil)
    throws -> (status: Int32, out: String, err: String, signal: Int32?)
{
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: outData, as: UTF8.self),
            String(decoding: errData, as: UTF8.self),
            process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil)
}

/// Writes a store through the real tracer and sink; `body` records with the clock set by hand.
func makeStore(_ path: String, label: String = "test", _ body: (Tracer, ManualClock) -> Void) throws {
    let sink = try StoreSink(path: path)
    let clock = ManualClock()
    let tracer = Tracer(sink: sink, clock: clock, label: label, commandLine: "test")
    body(tracer, clock)
    sink.close()
}

@discardableResult
func request(
    _ tracer: Tracer, session: Int64?, at ts: Int64, dur: Int64 = 500_000_000, ttft: Int64? = 100_000_000,
    error: String? = nil, entries: Int64 = 2, reused: Int64 = 0, input: Int64? = 100, cached: Int64? = 0,
    profile: String = "economy", model: String = "m"
) -> RequestRecord {
    let record = RequestRecord(
        requestID: tracer.makeID(), sessionID: session, ts: ts, dur: dur, timeToFirstToken: ttft, profile: profile,
        provider: "llama.cpp", model: model, inputTokens: input, cachedInputTokens: cached, outputTokens: 21,
        promptBytes: 400, transcriptEntries: entries, reusedPrefixEntries: reused, error: error)
    tracer.record(.request(record), kind: .request)
    return record
}

func sqlite(_ path: String, _ sql: String) throws {
    let result = try runProgram("/usr/bin/sqlite3", [path, sql])
    try #require(result.status == 0, "sqlite3 failed: \(result.err)")
}

/// Parses JSON text with Foundation, as a consumer of `--json` would.
func parseJSON(_ text: String) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
    return try #require(object as? [String: Any])
}
