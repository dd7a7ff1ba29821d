import Foundation
import LTTngReader
import LTTngRecording
import SessionTrace
import SessionTraceLTTng
import TestSupport
import Testing
import TraceAnalysis

/// Traced programs on several hosts stream to one `lttng-relayd`; `trace-report` reads what it
/// gathered with each host's runs apart. On loopback: two processes, each in its own UTS namespace
/// with its own host name, each recorded by its own session.
@Suite("Many hosts through one relay daemon", .serialized)
struct ManyHostsTests {
    static let hosts = [("host-a", "alpha", 3), ("host-b", "beta", 5)]

    @Test("two traced processes gathered by one relay daemon, each host's run apart")
    func gathersTwoHosts() async throws {
        let directory = try TemporaryDirectory()
        let daemon = try LTTngControl.ensureSessionDaemon()
        defer { daemon.stop() }
        let relay = try RelayDaemon.start(outputDirectory: directory.path("gathered"))
        defer { relay.stop() }
        let testBinary = try testBinary()

        var children: [(Process, LTTngControl.Session, TemporaryDirectory)] = []
        defer {
            for (child, session, _) in children.reversed() {
                if child.isRunning { child.terminate() }
                try? session.destroy()
            }
        }
        for (host, label, requests) in Self.hosts {
            let output = try TemporaryDirectory()
            let go = output.path("go")
            // The child names its host in its own UTS namespace, waits until its session records,
            // then becomes this test binary running only TracedChildProcess (same PID, so the
            // session can track it). LTTng-UST registers it at start-up, with the session there.
            let child = try startProgram(
                "/usr/bin/unshare",
                ["--uts", "sh", "-c",
                 "hostname \(host) && while [ ! -e '\(go)' ]; do sleep 0.05; done && exec \"$0\" \"$@\"",
                 testBinary, "--testing-library", "swift-testing", "--filter", "TracedChildProcess"],
                environment: ["SESSIONTRACE_TEST_CHILD_LABEL": label, "SESSIONTRACE_TEST_CHILD_REQUESTS": "\(requests)"],
                outputIn: output)
            let session = try LTTngControl.Session.create(
                name: "\(label)_\(getpid())", outputDirectory: nil, trackedPID: child.processIdentifier,
                relay: relay)
            children.append((child, session, output))
            try session.start()
            _ = FileManager.default.createFile(atPath: go, contents: nil)
        }
        for (child, session, output) in children {
            let deadline = ContinuousClock.now + .seconds(120)
            while child.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(100)) }
            let log = (try? String(contentsOfFile: output.path("out"), encoding: .utf8)) ?? ""
            try #require(!child.isRunning && child.terminationStatus == 0, "the traced child failed: \(log.suffix(800))")
            try session.stop()
        }
        // Newest first: lttng 2.13.9 waits forever to destroy a relay session while a session
        // created after it, on the same relay, still exists.
        for (_, session, _) in children.reversed() { try session.destroy() }
        children.removeAll()

        // What the relay gathered: one folder per traced host's session, read as one input.
        let trace = try LTTngTrace.load(path: relay.outputDirectory)
        let byHost = Dictionary(grouping: trace.runs, by: \.run.host)
        #expect(Set(byHost.keys) == Set(Self.hosts.map(\.0)), "hosts: \(byHost.keys.sorted())")
        for (host, label, requests) in Self.hosts {
            let runs = byHost[host] ?? []
            #expect(runs.count == 1, "\(host): \(runs.count) runs")
            #expect(runs.first?.run.label == label)
            #expect(runs.first?.requests.count == requests, "\(host): \(runs.first?.requests.count ?? 0) requests")
        }
        let summary = try runProgram(try builtProgram("trace-report"), ["summary", "--json", relay.outputDirectory])
        #expect(summary.status == 0, "\(summary.err)")
        #expect(summary.out.contains("\"alpha\"") && summary.out.contains("\"beta\""))
    }
}

/// The traced program of ``ManyHostsTests``, run as a child process of the test binary; it does
/// nothing in a normal test run.
@Suite("A traced child process")
struct TracedChildProcess {
    @Test(
        "emits a small run once tracing is on",
        .enabled(if: ProcessInfo.processInfo.environment["SESSIONTRACE_TEST_CHILD_LABEL"] != nil))
    func emit() async throws {
        let environment = ProcessInfo.processInfo.environment
        let label = try #require(environment["SESSIONTRACE_TEST_CHILD_LABEL"])
        let requests = Int(environment["SESSIONTRACE_TEST_CHILD_REQUESTS"] ?? "") ?? 3
        let deadline = ContinuousClock.now + .seconds(60)
        while !LTTngSink().isEnabled(.request) {
            try #require(ContinuousClock.now < deadline, "no session enabled this process's tracepoints")
            try await Task.sleep(for: .milliseconds(20))
        }
        await emitSmallRun(requests: requests, label: label)
    }
}

/// Two processes in one trace, one of whose `run` records came before the session started.
@Suite("Runs of several processes in one trace", .serialized)
struct ProcessRunsTests {
    @Test("a process whose run record the trace lacks keeps its records out of another process's run")
    func recordsStayWithTheirProcess() async throws {
        let directory = try TemporaryDirectory()
        let trace = directory.path("trace")
        // This process's tracer exists before the session: its run record is not in the trace.
        let early = Tracer(sink: LTTngSink(), label: "early")
        let daemon = try LTTngControl.ensureSessionDaemon()
        defer { daemon.stop() }
        let session = try LTTngControl.Session.create(outputDirectory: trace, trackedPID: nil)
        do {
            try session.start(until: { LTTngSink().isEnabled(.request) })
            // Another process records its run, then this one its requests: later in the trace.
            let output = try TemporaryDirectory()
            let child = try startProgram(
                try testBinary(), ["--testing-library", "swift-testing", "--filter", "TracedChildProcess"],
                environment: ["SESSIONTRACE_TEST_CHILD_LABEL": "child-\(getpid())", "SESSIONTRACE_TEST_CHILD_REQUESTS": "2"],
                outputIn: output)
            child.waitUntilExit()
            try #require(child.terminationStatus == 0)
            for _ in 0..<3 {
                early.record(
                    .request(RequestRecord(requestID: early.makeID(), ts: early.now(), dur: 1_000, model: "early")),
                    kind: .request)
            }
            try session.stop()
        } catch {
            try? session.destroy()
            throw error
        }
        try session.destroy()

        let runs = try LTTngTrace.load(path: trace).runs
        let child = try #require(runs.first { $0.run.label == "child-\(getpid())" })
        #expect(child.requests.count == 2, "the child's run holds \(child.requests.count) requests")
        let orphan = try #require(runs.first { $0.run.runID == early.runID }, "no run for the early tracer")
        #expect(!orphan.hasRunRecord && orphan.requests.count == 3)
    }
}
