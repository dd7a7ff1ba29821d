import Foundation
import SessionTrace
import SessionTraceTesting
import Synchronization
import TraceAnalysis
import TraceReportCLI
import TraceStore

/// The repository's root, from this file's path.
let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
}()

/// A file of the web viewer's source, `viewer/NAME`.
func viewerSource(_ name: String) throws -> String {
    try String(contentsOfFile: repositoryRoot + "/viewer/" + name, encoding: .utf8)
}

/// Where the tests leave their screenshots for people to look at.
let screenshotDirectory: String = {
    let path = repositoryRoot + "/.build/viewer-screenshots"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}()

/// Writes a store through the real `Tracer` and `StoreSink`, at times given in milliseconds after
/// the run's start.
final class StoreScript {
    static let origin: Int64 = 5_000_000_000_000
    let clock = TestClock(at: StoreScript.origin, wallClock: 1_780_000_000_000_000_000)
    let sink: StoreSink
    let tracer: Tracer

    init(path: String, label: String, capturePayloads: Bool = false) throws {
        sink = try StoreSink(path: path, capacity: 1 << 20)
        // Payloads kept as given: the export's own redaction is what the tests look at.
        var keep: (@Sendable (String) -> String)?
        if capturePayloads { keep = { text in text } }
        tracer = Tracer(sink: sink, clock: clock, label: label, commandLine: "ViewerTests", payloadRedaction: keep)
    }

    func at(_ milliseconds: Int64) -> Int64 { Self.origin + milliseconds * 1_000_000 }

    func session(_ label: String, from start: Int64, to end: Int64) -> Int64 {
        let id = tracer.makeID()
        endSession(id, label: label, from: start, to: end)
        return id
    }

    /// Records session `id`, made earlier with `tracer.makeID()`, as `Tracer.withSession` does when
    /// the session ends.
    func endSession(_ id: Int64, label: String, from start: Int64, to end: Int64) {
        tracer.record(.session(SessionRecord(sessionID: id, ts: at(start), dur: (end - start) * 1_000_000, label: label)),
                      kind: .session)
    }

    @discardableResult
    func request(
        session: Int64?, at start: Int64, dur: Int64, ttft: Int64, input: Int64 = 400, cached: Int64 = 300,
        output: Int64 = 41, promptBytes: Int64 = 1_600, entries: Int64 = 6, reused: Int64 = 4,
        model: String = "smollm2-135m", error: String? = nil, prompt: String? = nil
    ) -> Int64 {
        let id = tracer.makeID()
        tracer.record(
            .request(
                RequestRecord(
                    requestID: id, sessionID: session, parentID: session, ts: at(start), dur: dur * 1_000_000,
                    timeToFirstToken: ttft * 1_000_000, profile: "economy", provider: "llama.cpp", model: model,
                    inputTokens: input, cachedInputTokens: cached, outputTokens: output, promptBytes: promptBytes,
                    transcriptEntries: entries, reusedPrefixEntries: reused, finishReason: "stop", error: error)),
            kind: .request)
        if let prompt { tracer.capturePayload(.prompt, prompt, parentID: id) }
        return id
    }

    @discardableResult
    func toolCall(
        request: Int64?, session: Int64?, at start: Int64, dur: Int64, name: String, fingerprint: String = "9f86d081884c7d65",
        argumentsBytes: Int64 = 24, outputBytes: Int64 = 512, outcome: ToolCallRecord.Outcome = .ok, arguments: String? = nil
    ) -> Int64 {
        let id = tracer.makeID()
        tracer.record(
            .toolCall(
                ToolCallRecord(
                    toolCallID: id, requestID: request, sessionID: session, ts: at(start), dur: dur * 1_000_000,
                    name: name, argumentsFingerprint: fingerprint, argumentsBytes: argumentsBytes,
                    outputBytes: outputBytes, outcome: outcome, error: outcome == .ok ? nil : "failed")),
            kind: .toolCall)
        if let arguments { tracer.capturePayload(.toolArguments, arguments, parentID: id) }
        return id
    }

    func handoff(session: Int64?, at time: Int64, kind: HandoffRecord.Kind, from: String, to: String) {
        tracer.record(
            .handoff(HandoffRecord(handoffID: tracer.makeID(), sessionID: session, ts: at(time), kind: kind,
                                   from: from, to: to)), kind: .handoff)
    }

    func interval(session: Int64?, name: String, from start: Int64, to end: Int64, metadata: TraceMetadata = [:]) {
        tracer.record(
            .interval(
                IntervalRecord(
                    intervalID: tracer.makeID(), sessionID: session, ts: at(start), dur: (end - start) * 1_000_000,
                    name: name, metadata: metadata)), kind: .interval)
    }

    func close() {
        tracer.flush()
        sink.close()
    }
}

/// A small store with two sessions, tool calls, handoffs and an interval.
func writeSmallStore(_ path: String) throws {
    let script = try StoreScript(path: path, label: "small")
    let planner = script.session("planner", from: 0, to: 4_000)
    let first = script.request(session: planner, at: 10, dur: 900, ttft: 123, input: 1_234, cached: 1_000,
                               output: 41, promptBytes: 4_936, entries: 6, reused: 4)
    script.toolCall(request: first, session: planner, at: 930, dur: 140, name: "searchNotes",
                    fingerprint: "1c2d3e4f5a6b7c8d", argumentsBytes: 27, outputBytes: 2_048)
    script.toolCall(request: first, session: planner, at: 1_080, dur: 150, name: "getCalendar", outcome: .error)
    script.handoff(session: planner, at: 1_300, kind: "model", from: "smollm2-135m", to: "smollm2-360m")
    script.request(session: planner, at: 1_400, dur: 1_100, ttft: 380, input: 900, cached: 0, model: "smollm2-360m")
    script.interval(session: planner, name: "PlanDay", from: 5, to: 2_600, metadata: ["turn": 1])
    let writer = script.session("writer", from: 2_000, to: 3_900)
    script.request(session: writer, at: 2_010, dur: 700, ttft: 95)
    script.toolCall(request: nil, session: writer, at: 2_800, dur: 60, name: "saveDraft")
    script.request(session: nil, at: 3_000, dur: 500, ttft: 70)
    script.close()
}

/// Exports `stores` as HTML with `trace-report export`, run in-process, into `out`; returns
/// its note (the redaction report). The page carries the test driver (`viewer/selftest.js`,
/// steered by `#selftest=…`) unless `testDriver` is false, as in what `trace-report` writes.
func exportHTML(_ stores: [String], to out: String, testDriver: Bool = true, options: [String] = []) throws -> String {
    let output = Mutex("")
    let errors = Mutex("")
    var context = CommandContext(
        environment: [:], outputIsTerminal: false, writeNote: { text in output.withLock { $0 += text } }
    ) { text in
        output.withLock { $0 += text }
    }
    if testDriver { context.viewerTestDriver = ("selftest.js", try viewerSource("selftest.js")) }
    let status = TraceReport.main(["export", "--format", "html", "--out", out] + options + stores, context: context) { text in
        errors.withLock { $0 += text }
    }
    guard status == .success else {
        throw ExportFailure(message: errors.withLock { $0 })
    }
    return output.withLock { $0 }
}

struct ExportFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { "trace-report export failed: \(message)" }
}

/// Counts of a store's rows, read back through `StoreReader`.
struct StoreCounts: Equatable {
    var requests: Int
    var toolCalls: Int
    var handoffs: Int
    var intervals: Int

    init(_ path: String) throws {
        let reader = try StoreReader(path: path)
        requests = try reader.requests().count
        toolCalls = try reader.toolCalls().count
        handoffs = try reader.handoffs().count
        intervals = try reader.intervals().count
    }
}
