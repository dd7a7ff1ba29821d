import Foundation
import SessionTrace
import Testing
import TestSupport
import TraceStore

/// `--follow` on a store that a running program is writing: polled read-only, until it is closed.
@Suite("Following a store being written", .serialized)
struct StoreFollowTests {
    @Test("summary --follow redraws requests and their notes as they are written, and stops at the close")
    func followsStore() async throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("run.sqlite")
        let sink = try StoreSink(path: store)
        let tracer = Tracer(sink: sink, label: "growing")
        func write(_ count: Int, inputTokens: Int64? = nil) async {
            await tracer.withSession("chat") { _ in
                for _ in 0..<count {
                    sink.record(
                        .request(
                            RequestRecord(
                                requestID: tracer.makeID(), sessionID: TraceContext.current.sessionID,
                                ts: tracer.now(), dur: 3_000_000, timeToFirstToken: 1_000_000, model: "small",
                                inputTokens: inputTokens)))
                }
            }
            sink.flush()
        }
        await write(2)

        let output = try TemporaryDirectory()
        let follower = try startProgram(
            try builtProgram("trace-report"), ["summary", "--follow", store], outputIn: output)
        defer { if follower.isRunning { follower.terminate() } }
        try await waitFor("2 requests in 1 run", in: output, while: follower)
        let filesWhileWriting = Set(try FileManager.default.contentsOfDirectory(atPath: directory.url.path))
        // Negative token counts: no recording writes them.
        await write(3, inputTokens: -7)
        try await waitFor("5 requests in 1 run", in: output, while: follower)
        try await waitFor(
            "note: \(store): request.input_tokens holds 3 values outside", in: output, while: follower)
        #expect(follower.isRunning, "the follower stopped while the store was still being written")

        sink.close()
        let deadline = ContinuousClock.now + .seconds(30)
        while follower.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(100)) }
        #expect(!follower.isRunning, "the follower did not stop when the store was closed")
        #expect(follower.terminationStatus == 0)
        // The follower created nothing: what is left is the writer's store alone.
        #expect(filesWhileWriting.isSubset(of: ["run.sqlite", "run.sqlite-wal", "run.sqlite-shm"]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["run.sqlite"])
    }
}
