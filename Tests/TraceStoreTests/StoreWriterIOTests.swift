import Foundation
import SessionTrace
import TestSupport
import Testing

@testable import TraceStore

/// What the writer writes to disk for what it stores.
@Suite("StoreWriter I/O")
struct StoreWriterIOTests {
    /// Requests with ids and timestamps as a tracer makes them (the run in the id's upper half,
    /// monotonic nanoseconds since boot) made SQLite spill a transaction's statement journal to a
    /// temporary file, and from then on every row wrote about two pages there as well: sixteen times
    /// the bytes of the store. The journal now stays in memory: what the writer writes is its WAL
    /// and the checkpoints of it into the file.
    @Test func transactionsWriteTheStoreAndLittleElse() throws {
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
                try writer.insert(request: fullRequest(id: id, sessionID: 7, ts: ts))
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
