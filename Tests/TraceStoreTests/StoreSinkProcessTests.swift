import Foundation
import TestSupport
import Testing

@testable import TraceStore

/// Real processes (`store-sink-helper`) that record and then end without `close()`, are sent
/// real signals, or write one store four at a time; the store is read afterwards.
@Suite("StoreSink in processes", .serialized)
struct StoreSinkProcessTests {
    @Test(arguments: ["exit", "return"])
    func endingWithoutCloseLosesNothing(_ mode: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("run.sqlite")
        let result = try runProgram(try storeSinkHelper(), [mode, path, "1000"])
        #expect(result.status == 0, "\(result.err)")
        #expect(try count("SELECT count(*) FROM request", in: path) == 1_000)
        #expect(try count("SELECT count(*) FROM run", in: path) == 1)
        #expect(try count("SELECT count(*) FROM dropped", in: path) == 0)
        // Closed, not only flushed: one self-contained file.
        #expect(try fileNames(in: directory) == ["run.sqlite"])
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalWritesTheQueueThenEndsTheProcessAsItWould(_ signal: Int32) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("run.sqlite")
        let program = try RunningProgram(try storeSinkHelper(), ["wait", path, "50000"])
        try program.waitForLine("ready")
        program.signal(signal)
        let end = program.wait()
        #expect(end.signaled && end.status == signal, "ended by signal \(signal): \(end)")
        #expect(try count("SELECT count(*) FROM request", in: path) == 50_000)
        #expect(try count("SELECT count(*) FROM dropped", in: path) == 0)
        #expect(try fileNames(in: directory) == ["run.sqlite"])
    }

    @Test func theHandlerInstalledBeforeStillRunsAndDecides() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("run.sqlite")
        let program = try RunningProgram(try storeSinkHelper(), ["chain", path, "50000"])
        try program.waitForLine("ready")
        program.signal(SIGTERM)
        let end = program.wait()
        #expect(!end.signaled && end.status == 7, "the program's own handler chose exit 7: \(end)")
        #expect(end.output.contains("own handler ran"))
        #expect(try count("SELECT count(*) FROM request", in: path) == 50_000)
    }

    /// `automaticDrain: []` installs no hook: a prompt exit loses the queue (the writer of a debug
    /// build needs about two seconds for these 50,000 events; the exit comes after the recording).
    @Test func withoutTheHooksAnExitLosesTheQueue() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("run.sqlite")
        let result = try runProgram(try storeSinkHelper(), ["exit", path, "50000", "--no-drain"])
        #expect(result.status == 0)
        #expect(try count("SELECT count(*) FROM request", in: path) < 50_000)
    }

    /// The policy for several writers: WAL, and a writer waits for the write lock instead of
    /// failing. Four processes write 20,000 requests each into one file at the same moment.
    @Test func fourProcessesWritingOneStoreAtOnceLoseNothing() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("shared.sqlite")
        let perProcess = 20_000
        let programs = try (0..<4).map { _ in
            try RunningProgram(try storeSinkHelper(), ["together", path, String(perProcess)])
        }
        for program in programs { try program.waitForLine("ready") }
        for program in programs { program.send("go\n") }
        for program in programs {
            let end = program.wait()
            #expect(end.status == 0 && !end.signaled, "\(end)")
            #expect(end.output.contains("dropped: []"), "\(end.output)")
        }
        let reader = try StoreReader(path: path)
        var perRun: [Int64: Int64] = [:]
        try reader.query("SELECT run_id, count(*) FROM request GROUP BY run_id") { perRun[$0.int64(0)] = $0.int64(1) }
        #expect(perRun.count == 4)
        #expect(perRun.values.allSatisfy { $0 == Int64(perProcess) }, "\(perRun)")
        #expect(try count("SELECT count(*) FROM run", in: path) == 4)
        #expect(try count("SELECT count(*) FROM dropped", in: path) == 0)
        var integrity = ""
        try reader.query("PRAGMA integrity_check") { integrity = $0.string(0) }
        #expect(integrity == "ok")
    }
}
