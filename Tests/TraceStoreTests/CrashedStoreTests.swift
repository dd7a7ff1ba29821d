import CSQLite
import Foundation
import TestSupport
import Testing

@testable import TraceStore

/// A program that crashes, is killed or is signalled in a burst while it records
/// (`store-sink-helper`, a real process), and what the store and `trace-report` make of it.
@Suite("crashed and killed recordings", .serialized)
struct CrashedStoreTests {
    /// A store whose writer was killed with SIGKILL after it recorded `requests`: its `-wal` and
    /// `-shm` stay beside it, as a crash leaves them.
    private func killedStore(_ directory: TemporaryDirectory, requests: Int = 2_000) throws -> String {
        let path = directory.path("killed.sqlite")
        let program = try RunningProgram(try storeSinkHelper(), ["wait", path, String(requests)])
        try program.waitForLine("ready")
        // `ready` comes once the requests are recorded; the writer takes them within its nap.
        let deadline = ContinuousClock.now + .seconds(30)
        while try count("SELECT count(*) FROM request", in: path) < Int64(requests) {
            try #require(ContinuousClock.now < deadline, "the writer never stored the requests")
            usleep(20_000)
        }
        program.signal(SIGKILL)
        _ = program.wait()
        try #require(FileManager.default.fileExists(atPath: path + "-wal"))
        return path
    }

    @Test func aTrapWritesTheQueueAndTheRunReadsAsUnclosed() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("trap.sqlite")
        let result = try runProgram(try storeSinkHelper(), ["trap", path, "10000"])
        #expect(result.signal == SIGILL || result.signal == SIGTRAP, "a trap ends the program: \(result.status)")
        #expect(try count("SELECT count(*) FROM request", in: path) == 10_000)
        #expect(try count("SELECT count(*) FROM run_closed", in: path) == 0)
        let unclosed = try StoreReader(path: path).unclosedRuns()
        #expect(unclosed.count == 1)
        #expect(unclosed.first?.label == "trap")
        #expect(unclosed.first?.lastEvent != nil)
    }

    /// The control: without the hooks, the same trap loses most of the queue, so the test above
    /// shows the crash hook at work and not a fast writer.
    @Test func withoutTheHooksATrapLosesTheQueue() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("trap.sqlite")
        let result = try runProgram(try storeSinkHelper(), ["trap", path, "10000", "--no-drain"])
        #expect(result.signal != nil)
        #expect(try count("SELECT count(*) FROM request", in: path) < 10_000)
    }

    @Test func aClosedRunIsMarkedClosedAndReadsAsNoCrash() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("run.sqlite")
        let result = try runProgram(try storeSinkHelper(), ["exit", path, "100"])
        #expect(result.status == 0, "\(result.err)")
        #expect(try count("SELECT count(*) FROM run_closed", in: path) == 1)
        #expect(try StoreReader(path: path).unclosedRuns().isEmpty)
    }

    /// While the writer runs, its run is being recorded, not crashed; once it is killed, the
    /// same store reads as a run that ended without closing, named with its last event's time.
    @Test func aLiveWriterIsNotACrashAndAKilledOneIs() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("live.sqlite")
        let program = try RunningProgram(try storeSinkHelper(), ["wait", path, "300"])
        try program.waitForLine("ready")
        do {
            let reader = try StoreReader(path: path)
            #expect(reader.wasOpenElsewhere)
            #expect(try reader.unclosedRuns().isEmpty)
        }
        let live = try runProgram(try builtProgram("trace-report"), ["summary", path])
        #expect(!live.out.contains("ended without closing"), "\(live.out)")
        program.signal(SIGKILL)
        _ = program.wait()

        let after = try StoreReader(path: path)
        #expect(!after.wasOpenElsewhere)
        let unclosed = try after.unclosedRuns()
        try #require(unclosed.count == 1)
        var lastEnd: Int64 = 0
        try after.query(
            "SELECT run.wall_clock_start + (max(request.ts + request.dur) - run.ts) FROM request, run"
        ) { lastEnd = $0.int64(0) }
        #expect(unclosed[0].lastEvent == lastEnd)
    }

    @Test(arguments: ["summary", "check", "tools", "cache", "capped", "growth"])
    func everyReportSaysTheRunEndedWithoutClosing(_ command: String) throws {
        let directory = try TemporaryDirectory()
        let path = try killedStore(directory)
        let text = try runProgram(try builtProgram("trace-report"), [command, path])
        #expect(text.status == 0, "\(text.err)")
        let warnings = text.out.split(separator: "\n").filter { $0.hasPrefix("warning: ") && $0.contains("ended without closing") }
        #expect(warnings.count == 1, "\(text.out)")
        #expect(warnings.first?.contains("(crashed or killed); events after ") == true)
        #expect(warnings.first?.hasSuffix(" UTC may be missing") == true)

        let json = try runProgram(try builtProgram("trace-report"), [command, "--json", path])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let note: [String: Any]?
        if command == "summary" {
            note = (object["runs"] as? [[String: Any]])?.first?["ended_without_closing"] as? [String: Any]
        } else {
            note = (object["unclosed_runs"] as? [[String: Any]])?.first
        }
        #expect((note?["last_event"] as? String)?.hasSuffix("Z") == true, "\(json.out)")
    }

    @Test func theViewerShowsTheRunEndedWithoutClosing() throws {
        let directory = try TemporaryDirectory()
        let path = try killedStore(directory)
        let page = directory.path("page.html")
        let result = try runProgram(try builtProgram("trace-report"), ["export", "--format", "html", "--out", page, path])
        #expect(result.status == 0, "\(result.err)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("ended without closing (crashed or killed)"))
    }

    /// What a read may touch: the database and its log, byte for byte, through every subcommand
    /// that reads a store; only SQLite's shared index (`-shm`) may be rebuilt.
    @Test func readingACrashedStoreChangesNeitherTheDatabaseNorItsLog() throws {
        let directory = try TemporaryDirectory()
        let path = try killedStore(directory, requests: 200)
        let before = try [path, path + "-wal"].map(fileBytes)
        let out = directory.path("out")
        let commands: [[String]] = [
            ["summary"], ["summary", "--json"], ["check"], ["timeline"], ["tools"], ["cache"], ["capped"],
            ["growth"], ["export", "--format", "jsonl", "--out", out], ["export", "--format", "perfetto", "--out", out],
            ["export", "--format", "otlp", "--out", out], ["export", "--format", "html", "--out", out],
            ["baseline", "--out", out], ["diff", path], ["gate", "--baseline", path],
        ]
        for command in commands {
            let result = try runProgram(try builtProgram("trace-report"), command + [path])
            #expect(result.signal == nil && result.status <= 2, "\(command): \(result.err)")
            #expect(try [path, path + "-wal"].map(fileBytes) == before, "\(command) changed the store")
        }
        #expect(try fileNames(in: directory).isSubset(of: ["killed.sqlite", "killed.sqlite-wal", "killed.sqlite-shm", "out"]))
    }

    /// A terminating signal while threads record flat out: everything a `record` call returned
    /// from is stored or counted in the file. The helper counts each returned call in shared
    /// memory; a call the signal caught inside `record` may be stored without being counted there.
    @Test func aSignalDuringABurstLeavesNothingUncounted() throws {
        let threads: Int64 = 2
        for _ in 0..<3 {
            let directory = try TemporaryDirectory()
            let path = directory.path("burst.sqlite")
            let program = try RunningProgram(try storeSinkHelper(), ["burst", path, String(threads)])
            try program.waitForLine("ready")
            usleep(200_000)
            program.signal(SIGTERM)
            let end = program.wait()
            #expect(end.signaled && end.status == SIGTERM, "\(end)")
            let emitted = try fileBytes(path + ".emitted").withUnsafeBytes { $0.load(as: Int64.self) }
            let stored = try count("SELECT count(*) FROM request", in: path)
            let dropped = try count("SELECT coalesce(sum(count), 0) FROM dropped", in: path)
            #expect(emitted > 0)
            #expect(stored + dropped >= emitted, "uncounted: \(emitted - stored - dropped) of \(emitted)")
            #expect(stored + dropped <= emitted + threads, "stored \(stored), dropped \(dropped), emitted \(emitted)")
        }
    }

    /// `--follow` stops, and says why, when the program writing the store is killed.
    @Test func followingStopsWhenTheWriterIsKilled() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("followed.sqlite")
        let writer = try RunningProgram(try storeSinkHelper(), ["wait", path, "100"])
        try writer.waitForLine("ready")
        let output = try TemporaryDirectory()
        let follower = try startProgram(
            try builtProgram("trace-report"), ["summary", "--follow", path], outputIn: output)
        usleep(1_000_000)
        #expect(follower.isRunning, "it follows while the writer runs")
        writer.signal(SIGKILL)
        _ = writer.wait()
        let deadline = ContinuousClock.now + .seconds(20)
        while follower.isRunning && ContinuousClock.now < deadline { usleep(20_000) }
        let stillFollowing = follower.isRunning
        if stillFollowing { kill(follower.processIdentifier, SIGKILL) }
        follower.waitUntilExit()
        #expect(!stillFollowing, "still following 20 s after the writer was killed")
        #expect(follower.terminationStatus == 0)
        let err = try String(contentsOfFile: output.path("err"), encoding: .utf8)
        #expect(err.contains("followed.sqlite: the program writing it stopped without closing it (crashed or killed)"), "\(err)")
    }

    @Test func aStoreOlderThanRunClosedReportsNoCrashAndAWriterMarksItsRuns() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("old.sqlite")
        #expect(try runProgram(try storeSinkHelper(), ["exit", path, "10"]).status == 0)
        let database = try SQLiteDatabase(path: path, flags: SQLITE_OPEN_READWRITE)
        try database.execute("DROP TABLE run_closed")
        database.close()
        #expect(try StoreReader(path: path).unclosedRuns().isEmpty)

        // A writer of this version opening it marks the older runs closed, then records a crash.
        let result = try runProgram(try storeSinkHelper(), ["trap", path, "10"])
        #expect(result.signal != nil)
        #expect(try count("SELECT count(*) FROM run_closed", in: path) == 1)
        #expect(try StoreReader(path: path).unclosedRuns().map(\.label) == ["trap"])
    }

    @Test(arguments: [7, 8, 17])
    func summaryFindsADamagedPageItDoesNotRead(_ page: Int) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("damaged.sqlite")
        try FileManager.default.copyItem(
            atPath: packageRoot.appendingPathComponent("tracefiles/planner/run-1.sqlite").path, toPath: path)
        var pageSize: Int64 = 0
        try StoreReader(path: path).query("PRAGMA page_size") { pageSize = $0.int64(0) }
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try handle.seek(toOffset: UInt64(Int64(page - 1) * pageSize))
        handle.write(Data(repeating: 0xDE, count: Int(pageSize)))
        try handle.close()
        let result = try runProgram(try builtProgram("trace-report"), ["summary", path])
        #expect(result.status == 2)
        #expect(result.err.contains("damaged.sqlite is a damaged SessionTrace store (page \(page) of the file is damaged)"))
    }
}
