import Foundation
import SessionTrace
import TestSupport
import Testing

@testable import TraceStore

/// What the writer writes to disk for what it stores.
@Suite("StoreWriter I/O")
struct StoreWriterIOTests {
    /// A llama.cpp request as the middleware records it: no tools, no response id.
    static func llamaRequest(id: Int64, ts: Int64) -> RequestRecord {
        RequestRecord(
            requestID: id, sessionID: 7, parentID: 7, ts: ts, dur: 900_000_000, timeToFirstToken: 120_000_000,
            profile: "economy", provider: "llama.cpp", model: "smollm2-135m", inputTokens: 512,
            cachedInputTokens: 384, outputTokens: 79, promptBytes: 2_048, transcriptEntries: 6,
            reusedPrefixEntries: 4, finishReason: "stop",
            serverTimings: ServerTimings(
                promptTokens: 128, cachedTokens: 384, promptDuration: 40_000_000, predictedTokens: 79,
                predictedDuration: 760_000_000),
            turnID: 9, instructionsFingerprint: "3f2a9c0d1e4b5a69", responseModel: "smollm2-135m",
            serverAddress: "127.0.0.1", serverPort: 8_080, streamed: true, maxTokens: 256)
    }

    /// Requests with ids and timestamps as a tracer makes them (the run in the id's upper half,
    /// monotonic nanoseconds since boot) made SQLite spill a transaction's statement journal to a
    /// temporary file, and from then on every row wrote about two pages there as well: fifteen times
    /// the bytes of the store. The journal now stays in memory: what the writer writes is its WAL
    /// and the checkpoints of it into the file.
    @Test(arguments: ["llama.cpp request", "every field set"])
    func transactionsWriteTheStoreAndLittleElse(shape: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("run.sqlite")
        let writer = try StoreWriter(path: path)
        // Ids carry their run in the upper half, as a tracer's do (`Tracer.makeID`).
        let runID: Int64 = 1 << 32
        // Written on this thread alone, so this thread's count of bytes written is the writer's.
        let before = try bytesWrittenByThisThread()
        let perTransaction = Int64(StoreSink.maximumTransactionSize)
        for transaction in 0..<4 as Range<Int64> {
            try writer.begin()
            if transaction == 0 {
                try writer.insert(.run(RunRecord(runID: runID, ts: 0, wallClockStart: 0, host: "h", commandLine: "c")))
            }
            for index in (transaction * perTransaction)..<((transaction + 1) * perTransaction) {
                let (id, ts) = (runID | (index + 1), 10_000_000_000_000 + index * 1_000)
                try writer.insert(
                    request: shape == "every field set"
                        ? fullRequest(id: id, sessionID: 7, ts: ts) : Self.llamaRequest(id: id, ts: ts))
            }
            try writer.commit()
        }
        let written = try bytesWrittenByThisThread() - before
        let storeBytes = try [path, path + "-wal"].reduce(0) {
            $0 + (try #require(FileManager.default.attributesOfItem(atPath: $1)[.size] as? Int))
        }
        writer.close()
        #expect(try count("SELECT count(*) FROM request", in: path) == 4 * perTransaction)
        #expect(written <= 3 * storeBytes, "\(written) bytes written for a store and WAL of \(storeBytes)")
    }

    /// `wchar` of `/proc/thread-self/io`: the bytes this thread passed to write calls.
    private func bytesWrittenByThisThread() throws -> Int {
        let text = try String(contentsOfFile: "/proc/thread-self/io", encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("wchar:") })
        return try #require(Int(line.dropFirst("wchar:".count).trimmingCharacters(in: .whitespaces)))
    }
}
