import Foundation
import SessionTrace
import SessionTraceTesting
import Synchronization
import TestSupport
import Testing
import TraceScenarios
import TraceStore

@testable import TraceAnalysis
@testable import TraceReportCLI

func scenarioPath(_ scenario: Scenario) -> String {
    packageRoot.appendingPathComponent("tracefiles/scenarios/\(scenario.fileName)").path
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
func builtBinary() throws -> String { try builtProgram("trace-report") }

/// Writes a store through the real tracer and sink; `body` records with the clock set by hand.
/// The clock of a test store: 5 s after boot, moved by hand.
func storeClock() -> TestClock { TestClock(at: 5_000_000_000, wallClock: 1_780_000_000_000_000_000) }

func makeStore(_ path: String, label: String = "test", _ body: (Tracer, TestClock) -> Void) throws {
    let sink = try StoreSink(path: path)
    let clock = storeClock()
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
