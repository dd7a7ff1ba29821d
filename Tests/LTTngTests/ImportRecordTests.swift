import Foundation
import Synchronization
import LTTngReader
import LTTngRecording
import SessionTrace
import SessionTraceLTTng
import TestSupport
import Testing
import TraceAnalysis
import TraceModel

/// `trace-report import` and `trace-report record` on real LTTng traces.
@Suite("Importing and recording LTTng traces", .serialized)
struct ImportRecordTests {
    @Test("import writes a store that reads back as the trace does, readable by its owner only")
    func importsTrace() async throws {
        let directory = try TemporaryDirectory()
        let trace = directory.path("trace")
        try await recordInProcess(to: trace) { await emitSmallRun(requests: 40) }
        let store = directory.path("run.sqlite")
        let result = try runProgram(try builtProgram("trace-report"), ["import", "--out", store, trace])
        try #require(result.status == 0, "\(result.err)")
        #expect(result.out.contains("records in 1 run"), "\(result.out)")

        let fromTrace = try LTTngTrace.load(path: trace)
        let fromStore = try TraceLoader.load(path: store)
        try #require(fromStore.runs.count == 1 && fromTrace.runs.count == 1)
        #expect(fromStore.runs[0].run == fromTrace.runs[0].run)
        #expect(fromStore.runs[0].requests == fromTrace.runs[0].requests)
        #expect(fromStore.runs[0].sessions == fromTrace.runs[0].sessions)
        #expect(fromStore.requestCount == 40)
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: store)[.posixPermissions] as? Int)
        #expect(mode & 0o077 == 0, "the store is readable by others: \(String(mode, radix: 8))")

        let again = try runProgram(try builtProgram("trace-report"), ["import", "--out", store, trace])
        #expect(again.status == 2 && again.err.contains("already exists"), "\(again.err)")

        let second = directory.path("again.sqlite")
        let json = try runProgram(try builtProgram("trace-report"), ["import", "--json", "--out", second, trace])
        try #require(json.status == 0, "\(json.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(object["store"] as? String == second && object["trace"] as? String == trace)
        #expect(object["runs"] as? Int == 1)
        #expect((object["records"] as? Int).map { $0 > 40 } == true, "\(json.out)")
    }

    @Test("an import of more payload text than the store's queue holds writes every payload")
    func importsLargePayloads() async throws {
        let directory = try TemporaryDirectory()
        let trace = directory.path("trace")
        // 4,500 payloads of 16 KiB: 72 MiB, above the store queue's 64 MiB, in far fewer records
        // than a batch. Buffers that hold them all, so LTTng discards nothing.
        let count = 4_500
        let text = String(repeating: "0123456789abcdef", count: 1_024)
        try await recordInProcess(to: trace, channel: LTTngControl.Channel(subbufferSize: "8M", subbufferCount: 16)) {
            let tracer = Tracer(sink: LTTngSink(), label: "payloads")
            for _ in 0..<count {
                LTTngSink().record(
                    .payload(PayloadRecord(payloadID: tracer.makeID(), parentID: nil, ts: tracer.now(),
                                           kind: .toolOutput, text: text)))
            }
        }
        let store = directory.path("run.sqlite")
        let result = try runProgram(try builtProgram("trace-report"), ["import", "--out", store, trace])
        try #require(result.status == 0, "\(result.err)")
        let rows = try runProgram("/usr/bin/sqlite3", [store, "SELECT count(*), sum(length(text)) FROM payload"])
        #expect(rows.out.trimmingCharacters(in: .whitespacesAndNewlines) == "\(count)|\(count * text.utf8.count)")
    }

    @Test("an interrupted import leaves no store and no temporary file")
    func interruptedImport() async throws {
        let directory = try TemporaryDirectory()
        let trace = directory.path("trace")
        // Buffers that hold the whole burst, so LTTng discards nothing.
        try await recordInProcess(to: trace, channel: LTTngControl.Channel(subbufferSize: "8M", subbufferCount: 8)) {
            await emitSmallRun(requests: 150_000)
        }
        let out = try TemporaryDirectory()
        let store = out.path("run.sqlite")
        let output = try TemporaryDirectory()
        let importer = try startProgram(
            try builtProgram("trace-report"), ["import", "--out", store, trace], outputIn: output)
        // Interrupt while the store is being written under its temporary name: once 1 MB of it
        // is on disk, of about 30 MB.
        let deadline = ContinuousClock.now + .seconds(60)
        func written() throws -> Int {
            try FileManager.default.contentsOfDirectory(atPath: out.url.path).reduce(0) { sum, name in
                let attributes = try? FileManager.default.attributesOfItem(atPath: out.path(name))
                return sum + ((attributes?[.size] as? Int) ?? 0)
            }
        }
        while importer.isRunning, ContinuousClock.now < deadline, try written() < 1 << 20 {
            try await Task.sleep(for: .milliseconds(20))
        }
        try #require(importer.isRunning, "the import ended before it could be interrupted")
        importer.interrupt()
        importer.waitUntilExit()
        #expect(importer.terminationStatus == 128 + SIGINT, "exit \(importer.terminationStatus)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.url.path) == [], "files left behind")
    }

    @Test("record runs a program under an LTTng session and reports what it recorded")
    func recordsProgram() throws {
        let directory = try TemporaryDirectory()
        let trace = directory.path("trace")
        let store = directory.path("run.sqlite")
        let result = try record(["--lttng", trace, "--store", store])
        try #require(result.status == 0, "\(result.err)\n\(result.out.suffix(500))")
        #expect(result.out.contains("trace: \(trace)"))
        #expect(result.out.contains("By session"), "no summary printed: \(result.out.suffix(500))")
        // The session may also have caught other programs tracing on this machine; ours is apart.
        for input in [trace, store] {
            let runs = try TraceLoader.load(path: input).runs.filter { $0.run.label == "recorded" }
            #expect(runs.count == 1 && runs.first?.requests.count == 4, "\(input): \(runs.map(\.requests.count))")
        }
        let sessions = try runProgram("/usr/bin/lttng", ["list"])
        #expect(!sessions.out.contains("trace_report_"), "the recording session was left: \(sessions.out)")
    }

    @Test("record --json writes the trace, the command's status and the summary as one JSON object")
    func recordsProgramAsJSON() throws {
        let directory = try TemporaryDirectory()
        let trace = directory.path("trace")
        let result = try record(["--json", "--lttng", trace])
        try #require(result.status == 0, "\(result.err)\n\(result.out.suffix(500))")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        #expect(object["trace"] as? String == trace && object["status"] as? Int == 0)
        #expect(object["store"] is NSNull)
        let summary = try #require(object["summary"] as? [String: Any], "\(result.out.prefix(500))")
        #expect(summary["runs"] != nil, "\(summary.keys)")
    }

    /// As `perf record -- CMD`, record traces its command only: this process traces beside it, into
    /// a session of its own, all the while, and none of its requests is in record's trace, until
    /// `--all-processes` asks for every process.
    @Test("record traces its command only; a program tracing beside it is left out unless --all-processes")
    func recordsItsCommandOnly() async throws {
        let daemon = try LTTngControl.ensureSessionDaemon()
        defer { daemon.stop() }
        let directory = try TemporaryDirectory()
        let own = try LTTngControl.Session.create(outputDirectory: directory.path("own"), trackedPID: getpid())
        defer { try? own.destroy() }
        try own.start(until: { LTTngSink().isEnabled(.request) })
        let tracer = Tracer(sink: LTTngSink(), label: "bystander")
        let stop = Mutex(false)
        let bystander = Task.detached {
            var emitted = 0
            while !stop.withLock({ $0 }) {
                let id = tracer.makeID()
                tracer.record(
                    .request(RequestRecord(requestID: id, ts: tracer.now(), dur: 1_000, provider: "p", model: "bystander")),
                    kind: .request)
                emitted += 1
                try? await Task.sleep(for: .milliseconds(2))
            }
            return emitted
        }
        var requests: [String: Int] = [:]
        for options in [[], ["--all-processes"]] {
            let trace = directory.path("trace\(options.count)")
            let result = try record(["--lttng", trace] + options)
            try #require(result.status == 0, "\(result.err)\n\(result.out.suffix(500))")
            let runs = try TraceLoader.load(path: trace).runs
            #expect(runs.contains { $0.run.label == "recorded" && $0.requests.count == 4 })
            requests[options.first ?? "command"] = runs.reduce(0) { $0 + $1.requests.filter { $0.model == "bystander" }.count }
        }
        stop.withLock { $0 = true }
        let emitted = await bystander.value
        try own.stop()
        #expect(emitted > 0)
        #expect(requests["command"] == 0, "the bystander's requests in record's trace: \(requests)")
        #expect((requests["--all-processes"] ?? 0) > 0, "--all-processes left the bystander out: \(requests)")
    }

    /// `trace-report record OPTIONS -- ` a child that records 4 requests labelled `recorded`.
    private func record(_ options: [String]) throws -> ProgramResult {
        try runProgram(
            try builtProgram("trace-report"),
            ["record"] + options + ["--", try testBinary(), "--testing-library", "swift-testing", "--filter",
                                     "TracedChildProcess"],
            environment: ["SESSIONTRACE_TEST_CHILD_LABEL": "recorded", "SESSIONTRACE_TEST_CHILD_REQUESTS": "4"])
    }
}
