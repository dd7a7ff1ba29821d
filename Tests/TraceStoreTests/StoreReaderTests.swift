import Foundation
import SessionTrace
import TestSupport
import Testing

@testable import TraceStore

@Suite("StoreReader")
struct StoreReaderTests {
    /// A closed store with rows of every kind the documented queries look at.
    private func makeStore(_ directory: TemporaryDirectory, name: String = "run.sqlite", requests: Int = 200)
        throws -> String
    {
        let path = directory.path(name)
        let sink = try StoreSink(path: path)
        let tracer = Tracer(sink: sink, label: "fixture")
        let sessionID = tracer.makeID()
        tracer.withInterval("PlanDay", metadata: ["requestLength": 42]) { _ in
            for index in 0..<requests {
                let id = tracer.makeID()
                let request = fullRequest(
                    id: id, sessionID: index % 2 == 0 ? sessionID : nil, ts: tracer.now())
                tracer.record(.request(request), kind: .request)
                tracer.record(.chunk(ChunkRecord(requestID: id, ts: tracer.now(), tokens: 3)), kind: .chunk)
                tracer.record(
                    .toolCall(
                        ToolCallRecord(
                            toolCallID: tracer.makeID(), requestID: id, sessionID: sessionID,
                            ts: tracer.now(),
                            dur: 2_000_000, name: "searchCalendar", argumentsFingerprint: "9f86d081",
                            argumentsBytes: 40, outputBytes: 300)), kind: .toolCall)
            }
        }
        tracer.record(
            .handoff(
                HandoffRecord(
                    handoffID: tracer.makeID(), sessionID: sessionID, ts: tracer.now(), kind: "profile",
                    from: "economy", to: "quality")), kind: .handoff)
        tracer.record(
            .session(SessionRecord(sessionID: sessionID, ts: 0, dur: tracer.now(), label: "planner")),
            kind: .session)
        tracer.record(
            .dropped(DroppedRecord(ts: tracer.now(), sinkName: "lttng", reason: "buffer_full", count: 2)),
            kind: .dropped)
        sink.close()
        return path
    }

    @Test func readingNeverChangesTheFileNorAddsFilesBesideIt() throws {
        let directory = try TemporaryDirectory()
        let path = try makeStore(directory)
        let before = try fileBytes(path)
        do {
            let reader = try StoreReader(path: path)
            #expect(try reader.requests().count == 200)
            #expect(try reader.chunks().count == 200)
            _ = try reader.runs()
            _ = try reader.sessions()
            _ = try reader.toolCalls()
            _ = try reader.handoffs()
            _ = try reader.intervals()
            _ = try reader.instants()
            _ = try reader.payloads()
            _ = try reader.dropped()
            try reader.query("SELECT count(*) FROM request_stat") { _ in }
            #expect(try fileNames(in: directory) == ["run.sqlite"])
        }
        #expect(try fileBytes(path) == before)
        #expect(try fileNames(in: directory) == ["run.sqlite"])
    }

    @Test func aMissingFileIsNamed() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("nowhere.sqlite")
        let error = #expect(throws: StoreError.self) { try StoreReader(path: path) }
        #expect(error == .fileNotFound(path: path))
        #expect(error?.description == "\(path) does not exist")
        #expect(try fileNames(in: directory).isEmpty)
    }

    @Test func aTextFileIsNotAStore() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("run.sqlite")
        try String(repeating: "not a database at all\n", count: 20).write(
            toFile: path, atomically: true, encoding: .utf8)
        let before = try fileBytes(path)
        let error = #expect(throws: StoreError.self) { try StoreReader(path: path) }
        #expect(error == .notAStore(path: path, reason: "file is not a database"))
        #expect(error?.description == "\(path) is not a SessionTrace store (file is not a database)")
        #expect(try fileBytes(path) == before)
        #expect(try fileNames(in: directory) == ["run.sqlite"])
    }

    @Test func anEmptyFileIsNotAStore() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let error = #expect(throws: StoreError.self) { try StoreReader(path: path) }
        #expect(error?.description == "\(path) is not a SessionTrace store (the file is empty)")
        #expect(try fileBytes(path).isEmpty)
        #expect(try fileNames(in: directory) == ["empty.sqlite"])
    }

    @Test func anotherSQLiteDatabaseIsNotAStore() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("other.sqlite")
        let result = try runProgram(
            "/usr/bin/sqlite3", [path, "CREATE TABLE slice(ts INTEGER); INSERT INTO slice VALUES (1);"])
        #expect(result.status == 0)
        let before = try fileBytes(path)
        let error = #expect(throws: StoreError.self) { try StoreReader(path: path) }
        #expect(
            error == .notAStore(path: path, reason: "a SQLite database without SessionTrace's meta table"))
        #expect(try fileBytes(path) == before)
    }

    @Test(arguments: [0.5, 0.9])
    func aTruncatedStoreIsDamaged(keptFraction: Double) throws {
        let directory = try TemporaryDirectory()
        let path = try makeStore(directory, requests: 2_000)
        let whole = try fileBytes(path)
        let kept = Int(Double(whole.count) * keptFraction)
        try whole.prefix(kept).write(to: URL(fileURLWithPath: path))
        let before = try fileBytes(path)
        let error = #expect(throws: StoreError.self) { try StoreReader(path: path) }
        #expect(error == .corrupt(path: path, reason: "truncated: \(kept) of \(whole.count) bytes"))
        #expect(
            error?.description
                == "\(path) is a damaged SessionTrace store (truncated: \(kept) of \(whole.count) bytes)")
        #expect(try fileBytes(path) == before)
        #expect(try fileNames(in: directory) == ["run.sqlite"])
    }

    @Test func aNewerSchemaIsRefusedByReaderAndSink() throws {
        let directory = try TemporaryDirectory()
        let path = try makeStore(directory, name: "x.sqlite", requests: 3)
        let update = try runProgram(
            "/usr/bin/sqlite3", [path, "UPDATE meta SET value = 99 WHERE key = 'schema_version'"])
        #expect(update.status == 0, "\(update.err)")
        let before = try fileBytes(path)

        let error = #expect(throws: StoreError.self) { try StoreReader(path: path) }
        #expect(error == .newerSchema(path: path, found: 99, supported: StoreSchema.version))
        #expect(
            error?.description
                == "\(path) has schema version 99, newer than this tool's \(StoreSchema.version); upgrade SessionTrace")
        #expect(try fileBytes(path) == before)

        let sinkError = #expect(throws: StoreError.self) { try StoreSink(path: path) }
        #expect(sinkError == .newerSchema(path: path, found: 99, supported: StoreSchema.version))
        #expect(try fileBytes(path) == before)
        #expect(try fileNames(in: directory) == ["x.sqlite"])
    }

    /// Every `sqlite3 run.sqlite "..."` example in docs/schema.md runs on a real store.
    @Test func theDocumentedSQLite3ExamplesRunOnAStore() throws {
        let directory = try TemporaryDirectory()
        let path = try makeStore(directory)
        let docs = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/schema.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let prefix = "sqlite3 run.sqlite \""
        let queries = text.split(separator: "\n")
            .filter { $0.hasPrefix(prefix) && $0.hasSuffix("\"") }
            .map { String($0.dropFirst(prefix.count).dropLast()) }
        #expect(queries.count >= 5)
        for query in queries {
            let result = try runProgram("/usr/bin/sqlite3", [path, query])
            #expect(result.status == 0 && result.err.isEmpty, "\(query): \(result.err)")
            #expect(!result.out.isEmpty, "\(query) printed nothing")
        }
        #expect(try fileNames(in: directory) == ["run.sqlite"])

        var version = ""
        let meta = try runProgram(
            "/usr/bin/sqlite3", [path, "SELECT value FROM meta WHERE key = 'schema_version'"])
        version = meta.out.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(version == String(StoreSchema.version))
    }

    @Test func metadataJSONReadsBackWhatItWrites() {
        let metadata: TraceMetadata = [
            "s": "a\"b\\c\n\t\u{7F}\u{0}é🚀", "i": -9_223_372_036_854_775_808, "d": 1.5e-7, "t": true,
            "f": false,
            "w": 3.0,
        ]
        #expect(TraceMetadata(jsonObject: metadata.jsonObject) == metadata)
        #expect(TraceMetadata(jsonObject: "{}") == [:])
        #expect(TraceMetadata(jsonObject: #"{"a": "\u00e9\ud83d\ude80"}"#) == ["a": "é🚀"])
        #expect(TraceMetadata(jsonObject: "{\"a\":1") == nil)
        #expect(TraceMetadata(jsonObject: "[1]") == nil)
    }
}
