import Foundation
import Testing
import TestSupport

/// `trace-report` on LTTng traces it cannot read: exit 2, one sentence, the input untouched.
@Suite("Bad LTTng traces", .serialized)
struct BadTraceTests {
    /// Runs `trace-report summary` on `trace`; requires exit 2, one line that says `expected`,
    /// and every file of the trace as it was.
    private func requireRefused(_ trace: String, saying expected: String) throws {
        let before = try contents(of: trace)
        let result = try runProgram(try builtProgram("trace-report"), ["summary", trace])
        #expect(result.status == 2, "exit \(result.status): \(result.err)")
        #expect(result.out.isEmpty)
        let lines = result.err.split(separator: "\n")
        #expect(lines.count == 1, "not one line: \(result.err)")
        #expect(result.err.contains(expected), "\(result.err)")
        #expect(try contents(of: trace) == before, "the trace changed")
    }

    @Test("a trace without session_trace events")
    func noSessionTraceEvents() async throws {
        let directory = try TemporaryDirectory()
        let trace = directory.path("trace")
        // Only LTTng-UST's own state dump, which a traced process writes from its own thread after
        // a session starts: however much of it the session caught before it stopped, no wait
        // decides the outcome. The sentence must give the count that babeltrace2 reads.
        try await recordInProcess(to: trace, events: "lttng_ust_statedump:*") {}
        let reference = try runProgram("/usr/bin/babeltrace2", [trace])
        try #require(reference.status == 0, "\(reference.err)")
        let others = reference.out.split(separator: "\n").count
        try requireRefused(trace, saying: "without session_trace events (\(others) events of other providers)")
    }

    /// A folder is a trace only where a `metadata` file starts as CTF metadata: an unrelated file of
    /// that name deep in the tree is not read as a damaged trace.
    @Test("a folder holding an unrelated file named metadata")
    func unrelatedMetadataFile() throws {
        let directory = try TemporaryDirectory()
        let deep = directory.path("notes/2026/december")
        try FileManager.default.createDirectory(atPath: deep, withIntermediateDirectories: true)
        try "title: meeting notes\n".write(toFile: deep + "/metadata", atomically: true, encoding: .utf8)
        try requireRefused(directory.path, saying: "nor a folder holding an LTTng trace")
    }

    @Test("a truncated stream file")
    func truncatedStream() async throws {
        let directory = try TemporaryDirectory()
        let trace = directory.path("trace")
        try await recordInProcess(to: trace) { await emitSmallRun(requests: 200) }
        let stream = try #require(try streamFiles(under: trace).first)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: stream)[.size] as? Int)
        try #require(truncate(stream, off_t(size / 2 + 7)) == 0)
        try requireRefused(trace, saying: "is a damaged LTTng trace")
    }

    @Test("metadata from a newer tracepoint version")
    func newerTracepoints() async throws {
        let directory = try TemporaryDirectory()
        let trace = directory.path("trace")
        try await recordInProcess(to: trace) { await emitSmallRun() }
        let good = try runProgram(try builtProgram("trace-report"), ["summary", "--json", trace])
        try #require(good.status == 0, "the trace as recorded: \(good.err)")
        // The same trace as if recorded by tracepoints of version 9: same length, so the packetized
        // metadata keeps its sizes.
        let metadata = try #require(
            FileManager.default.enumerator(atPath: trace)?.allObjects.compactMap { $0 as? String }
                .first { $0.hasSuffix("/metadata") })
        let path = trace + "/" + metadata
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let current = Data("urn:sessiontrace:tracepoints:2".utf8)
        let newer = Data("urn:sessiontrace:tracepoints:9".utf8)
        var replaced = 0
        while let range = bytes.range(of: current) {
            bytes.replaceSubrange(range, with: newer)
            replaced += 1
        }
        try #require(replaced > 0, "the metadata carries no tracepoint version")
        try bytes.write(to: URL(fileURLWithPath: path))
        try requireRefused(trace, saying: "tracepoints of version 9, newer than this tool's 2")
    }
}
