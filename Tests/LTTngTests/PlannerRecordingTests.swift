import Foundation
import SessionTrace
import Synchronization
import TestSupport
import Testing
import TraceAnalysis
import TraceModel

/// A real planner run recorded to a store and to LTTng at once; every subcommand must report the
/// same from either recording.
@Suite("A planner run read from its store and from its LTTng trace", .serialized, .llamaServer)
struct PlannerRecordingTests {
    /// The suite's one planner run. The store and the trace folder share their last name (`run`),
    /// which reports show, so that their paths are the one thing that differs.
    final class Recording: Sendable {
        let directory: TemporaryDirectory
        var store: String { directory.path("store/run") }
        var lttng: String { directory.path("lttng/run") }

        init(directory: TemporaryDirectory) throws {
            self.directory = directory
            try FileManager.default.createDirectory(atPath: directory.path("store"), withIntermediateDirectories: true)
        }
    }

    private static let shared = Mutex<Recording?>(nil)

    /// Records the run the first time a test asks, against the suite's llama.cpp server.
    static func recording() throws -> Recording {
        try shared.withLock { recording in
            if let recording { return recording }
            let made = try Recording(directory: try TemporaryDirectory())
            let server = try LlamaServerTrait.server()
            let result = try runProgram(
                try builtProgram("planner-demo"),
                ["--store", made.store, "--lttng", made.lttng, "--server", server.baseURL.absoluteString,
                 "--label", "planner", "--max-tokens", "64"])
            try #require(result.status == 0, "planner-demo failed: \(result.err)")
            recording = made
            return made
        }
    }

    @Test("the same requests, tool calls, sessions, handoffs and token sums from both")
    func sameRecords() throws {
        let recording = try Self.recording()
        let store = try TraceLoader.load(path: recording.store)
        let lttng = try TraceLoader.load(path: recording.lttng)
        try #require(store.runs.count == 1 && lttng.runs.count == 1, "runs: \(store.runs.count), \(lttng.runs.count)")
        let (a, b) = (store.runs[0], lttng.runs[0])
        try #require(!a.requests.isEmpty && !a.toolCalls.isEmpty && !a.handoffs.isEmpty,
                     "the planner run should make requests, tool calls and a handoff")
        #expect(a.run == b.run && a.hasRunRecord && b.hasRunRecord)
        #expect(a.sessions == b.sessions)
        #expect(a.requests == b.requests)
        #expect(a.toolCalls == b.toolCalls)
        #expect(a.handoffs == b.handoffs)
        #expect(a.intervals == b.intervals)
        #expect(a.instants == b.instants)
        #expect(a.chunks == b.chunks)
        #expect(a.payloads == b.payloads)
        #expect(a.dropped == b.dropped)
        func sums(_ run: RecordedRun) -> [Int64] {
            [\RequestRecord.inputTokens, \.cachedInputTokens, \.outputTokens].map { key in
                run.requests.reduce(0) { $0 + ($1[keyPath: key] ?? 0) }
            }
        }
        #expect(sums(a) == sums(b))
    }

    /// Every subcommand that reads a recording, with INPUT where the recording goes.
    static let subcommands: [[String]] = [
        ["summary", "INPUT"], ["summary", "--json", "INPUT"],
        ["timeline", "--width", "120", "--no-color", "INPUT"], ["timeline", "--json", "INPUT"],
        ["check", "--json", "INPUT"], ["tools", "--json", "INPUT"], ["cache", "--json", "INPUT"],
        ["capped", "--json", "INPUT"], ["growth", "--json", "INPUT"],
        ["export", "--format", "jsonl", "INPUT"], ["export", "--format", "otlp", "INPUT"],
        ["export", "--format", "perfetto", "INPUT"], ["export", "--format", "html", "INPUT"],
        ["baseline", "INPUT"], ["diff", "--json", "INPUT", "INPUT"], ["gate", "--baseline", "BASELINE", "--min-samples", "1", "INPUT"],
    ]

    @Test("every subcommand reports the same from either recording", arguments: subcommands)
    func sameReport(_ template: [String]) throws {
        let recording = try Self.recording()
        let program = try builtProgram("trace-report")
        let baseline = recording.directory.path("baseline.json")
        if !FileManager.default.fileExists(atPath: baseline) {
            let made = try runProgram(program, ["baseline", "--out", baseline, recording.store])
            try #require(made.status == 0, "baseline: \(made.err)")
        }
        func report(_ input: String) throws -> ProgramResult {
            var result = try runProgram(
                program, template.map { $0 == "INPUT" ? input : $0 == "BASELINE" ? baseline : $0 })
            // The input's own name is the one thing that may differ; the run's command line names
            // both recordings, so both go.
            for path in [recording.store, recording.lttng] {
                result.out = result.out.replacingOccurrences(of: path, with: "RECORDING")
                result.err = result.err.replacingOccurrences(of: path, with: "RECORDING")
            }
            return result
        }
        let fromStore = try report(recording.store)
        let fromLTTng = try report(recording.lttng)
        #expect(fromStore.status == 0, "\(template) on the store: \(fromStore.err)")
        #expect(fromLTTng.status == fromStore.status, "\(template) on the LTTng trace: \(fromLTTng.err)")
        #expect(fromLTTng.out == fromStore.out, "\(template) differs")
        #expect(fromLTTng.err == fromStore.err)
        #expect(fromStore.out.count > 100, "\(template) printed next to nothing: \(fromStore.out)")
    }
}
