import Foundation
import SessionTrace
import TestSupport
import Testing

@testable import TraceStore

@Suite("StoreSink")
struct StoreSinkTests {
    private func count(_ table: String, in path: String, reason: String? = nil) throws -> Int64 {
        let reader = try StoreReader(path: path)
        var result: Int64 = 0
        if let reason {
            try reader.query("SELECT coalesce(sum(count), 0) FROM dropped WHERE reason = ?", [.text(reason)])
            {
                result = $0.int64(0)
            }
        } else {
            try reader.query("SELECT count(*) FROM \(table)") { result = $0.int64(0) }
        }
        return result
    }

    @Test func thirtyTwoTasksEmittingAtOnceAreAllStored() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("run.sqlite")
        let sink = try StoreSink(path: path)
        let tracer = Tracer(sink: sink)
        let tasks = 32
        let perTask = 500
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<tasks {
                group.addTask {
                    for index in 0..<perTask {
                        let id = tracer.makeID()
                        tracer.record(
                            .request(fullRequest(id: id, sessionID: nil, ts: tracer.now())), kind: .request)
                        if index % 5 == 0 {
                            tracer.record(
                                .chunk(ChunkRecord(requestID: id, ts: tracer.now(), tokens: 2)), kind: .chunk)
                        }
                        tracer.instant("Tick", metadata: ["index": .int(Int64(index))])
                    }
                }
            }
        }
        sink.close()
        #expect(sink.droppedCounts.isEmpty)
        #expect(try count("request", in: path) == Int64(tasks * perTask))
        #expect(try count("instant", in: path) == Int64(tasks * perTask))
        #expect(try count("chunk", in: path) == Int64(tasks * perTask / 5))
        #expect(try count("run", in: path) == 1)
        #expect(try count("dropped", in: path) == 0)
    }

    /// A tiny queue and a burst: what did not fit is counted, and the count is in the store.
    @Test func aFullQueueCountsWhatItDropsAndStoresTheCount() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("run.sqlite")
        let sink = try StoreSink(path: path, capacity: 4)
        let emitted: Int64 = 5_000
        for id in 1...emitted {
            sink.record(.request(RequestRecord(requestID: id, ts: id, dur: 1)))
        }
        sink.flush()
        let stored = try count("request", in: path)
        let droppedInStore = try count("dropped", in: path, reason: "queue_full")
        #expect(droppedInStore > 0)
        #expect(stored + droppedInStore == emitted)
        #expect(sink.droppedCounts == [.queueFull: droppedInStore])
        let rows = try StoreReader(path: path).dropped()
        #expect(rows.allSatisfy { $0.sinkName == "store" && $0.reason == .queueFull && $0.count > 0 })
        sink.close()
    }

    /// Large events fill the queue's bytes long before its count: what did not fit is counted
    /// and stored as `queue_full`, and the rest is written whole.
    @Test func theQueueIsBoundedInBytesToo() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("run.sqlite")
        let sink = try StoreSink(path: path, byteCapacity: 2 << 20)
        let text = String(repeating: "x", count: 100_000)
        let emitted: Int64 = 200
        for id in 1...emitted {
            sink.record(.payload(PayloadRecord(payloadID: id, parentID: nil, ts: id, kind: .prompt, text: text)))
        }
        sink.close()
        let stored = try count("payload", in: path)
        let dropped = try count("dropped", in: path, reason: "queue_full")
        #expect(dropped > 0 && stored > 0)
        #expect(stored + dropped == emitted)
        #expect(sink.droppedCounts == [.queueFull: dropped])
        var lengths: Set<Int64> = []
        try StoreReader(path: path).query("SELECT DISTINCT length(text) FROM payload") { lengths.insert($0.int64(0)) }
        #expect(lengths == [100_000])
    }

    @Test func flushAndCloseLoseNothing() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("run.sqlite")
        let sink = try StoreSink(path: path)
        for id in 1...3_000 as ClosedRange<Int64> {
            sink.record(.request(RequestRecord(requestID: id, ts: id, dur: 1)))
        }
        sink.flush()
        // Read while the writer still has the file open: everything flushed is there.
        #expect(try count("request", in: path) == 3_000)

        for id in 3_001...7_000 as ClosedRange<Int64> {
            sink.record(.chunk(ChunkRecord(requestID: id, ts: id, tokens: 1)))
        }
        sink.close()
        #expect(try count("chunk", in: path) == 4_000)
        // Closed: one self-contained file, and later events are counted, not lost silently.
        #expect(try fileNames(in: directory) == ["run.sqlite"])
        sink.record(.chunk(ChunkRecord(requestID: 1, ts: 1, tokens: 1)))
        sink.flush()
        sink.close()
        #expect(sink.droppedCounts == [.closed: 1])
    }

    @Test func aSinkThatGoesAwayClosesItsStore() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("run.sqlite")
        do {
            let sink = try StoreSink(path: path)
            sink.record(.session(SessionRecord(sessionID: 1, ts: 1, dur: 1, label: "short-lived")))
        }
        #expect(try count("session", in: path) == 1)
        #expect(try fileNames(in: directory) == ["run.sqlite"])
    }

    @Test func anIdleSinkStillWritesWithoutAFlush() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("run.sqlite")
        let sink = try StoreSink(path: path)
        sink.record(.session(SessionRecord(sessionID: 1, ts: 1, dur: 1, label: "idle")))
        var stored: Int64 = 0
        for _ in 0..<200 where stored == 0 {
            try await Task.sleep(for: .milliseconds(10))
            stored = try count("session", in: path)
        }
        #expect(stored == 1)
        sink.close()
    }

    @Test func disabledKindsAreNotRecorded() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("run.sqlite")
        let sink = try StoreSink(path: path, enabledKinds: [.run, .request])
        #expect(sink.isEnabled(.request))
        #expect(!sink.isEnabled(.chunk))
        #expect(!sink.isEnabled(.payload))
        let tracer = Tracer(sink: sink)
        tracer.record(.chunk(ChunkRecord(requestID: 1, ts: 1, tokens: 1)), kind: .chunk)
        tracer.record(.request(RequestRecord(requestID: tracer.makeID(), ts: 1, dur: 1)), kind: .request)
        sink.close()
        #expect(try count("chunk", in: path) == 0)
        #expect(try count("request", in: path) == 1)
    }

    @Test func theStoreIsReadableByItsOwnerOnly() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("run.sqlite")
        let sink = try StoreSink(path: path)
        sink.record(.session(SessionRecord(sessionID: 1, ts: 1, dur: 1, label: "private")))
        sink.flush()
        for name in try fileNames(in: directory) {
            let attributes = try FileManager.default.attributesOfItem(atPath: directory.path(name))
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue
            #expect(mode == 0o600, "\(name) has mode \(String(mode ?? 0, radix: 8))")
        }
        sink.close()
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
    }

    @Test func appendingToAnExistingStoreKeepsItsRows() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("run.sqlite")
        for id in 1...2 as ClosedRange<Int64> {
            let sink = try StoreSink(path: path)
            sink.record(.request(RequestRecord(requestID: id, ts: id, dur: 1)))
            sink.close()
        }
        #expect(try StoreReader(path: path).requests().map(\.requestID) == [1, 2])
    }

    @Test func anUnwritablePathFailsAtConstructionNamingThePath() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("missing/run.sqlite")
        let error = #expect(throws: StoreError.self) { try StoreSink(path: path) }
        #expect(error == .cannotCreate(path: path, reason: "No such file or directory"))
        #expect(
            error?.description
                == "\(path) cannot be created as a SessionTrace store (No such file or directory)")
    }

    @Test func theSinkRefusesAFileThatIsNotAStoreAndLeavesItAlone() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("notes.txt")
        try "shopping list\n".write(toFile: path, atomically: true, encoding: .utf8)
        let before = try fileBytes(path)
        let error = #expect(throws: StoreError.self) { try StoreSink(path: path) }
        #expect(error == .notAStore(path: path, reason: "file is not a database"))
        #expect(try fileBytes(path) == before)
        #expect(try fileNames(in: directory) == ["notes.txt"])
    }

    /// A store whose chunk inserts fail (a trigger added with the sqlite3 CLI): the failures are
    /// counted and stored as `sqlite_error`, and nothing else is disturbed.
    @Test func sqliteErrorsOnTheWriterThreadAreCountedAndStored() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("run.sqlite")
        try StoreSink(path: path).close()
        let trigger = try runProgram(
            "/usr/bin/sqlite3",
            [path, "CREATE TRIGGER refuse BEFORE INSERT ON chunk BEGIN SELECT RAISE(ABORT, 'refused'); END"])
        #expect(trigger.status == 0, "\(trigger.err)")

        let sink = try StoreSink(path: path)
        for id in 1...10 as ClosedRange<Int64> {
            sink.record(.chunk(ChunkRecord(requestID: id, ts: id, tokens: 1)))
            sink.record(.request(RequestRecord(requestID: id, ts: id, dur: 1)))
        }
        sink.close()
        #expect(sink.droppedCounts == [.sqliteError: 10])
        #expect(try count("request", in: path) == 10)
        #expect(try count("chunk", in: path) == 0)
        #expect(try count("dropped", in: path, reason: "sqlite_error") == 10)
    }

    /// An error that rolls the whole transaction back loses the rows before it too; they are counted.
    @Test func aTransactionSQLiteRollsBackIsCountedWhole() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("run.sqlite")
        try StoreSink(path: path).close()
        let trigger = try runProgram(
            "/usr/bin/sqlite3",
            [
                path,
                "CREATE TRIGGER refuse BEFORE INSERT ON chunk BEGIN SELECT RAISE(ROLLBACK, 'refused'); END",
            ])
        #expect(trigger.status == 0, "\(trigger.err)")

        let sink = try StoreSink(path: path)
        let emitted: Int64 = 1_000
        for id in 1...emitted {
            if id % 100 == 0 {
                sink.record(.chunk(ChunkRecord(requestID: id, ts: id, tokens: 1)))
            } else {
                sink.record(.request(RequestRecord(requestID: id, ts: id, dur: 1)))
            }
        }
        sink.close()
        let stored = try count("request", in: path)
        let dropped = try count("dropped", in: path, reason: "sqlite_error")
        #expect(dropped >= 10)
        #expect(stored + dropped == emitted)
        #expect(sink.droppedCounts == [.sqliteError: dropped])
    }
}
