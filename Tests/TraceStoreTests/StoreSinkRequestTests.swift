import AllocationCounter
import Foundation
import SessionTrace
import TestSupport
import Testing

@testable import TraceStore

/// A request recorded through `record(request:)` waits in the store's queue unboxed, and is written
/// in its place among the other events.
@Suite("StoreSink requests")
struct StoreSinkRequestTests {
    /// The box of a `TraceEvent` would be allocated here and freed on the writer's thread.
    @Test func aRequestIsQueuedWithoutAHeapAllocation() throws {
        let directory = try TemporaryDirectory()
        let sink = try StoreSink(path: directory.path("run.sqlite"))
        let tracer = Tracer(sink: sink)
        let request = fullRequest(id: 1, sessionID: 7, ts: 1)
        func allocations(_ body: () -> Void) -> Int {
            st_allocations_begin()
            for _ in 0..<100 { body() }
            return st_allocations_end()
        }
        // The counter counts: the boxed event is one allocation each time.
        #expect(allocations { tracer.record(.request(request), kind: .request) } == 100)
        #expect(allocations { tracer.record(request: request) } == 0)
        #expect(allocations { sink.redacting { $0 }.record(request: request) } == 100, "the redacting wrapper's box")
        sink.close()
        #expect(sink.droppedCounts.isEmpty)
    }

    /// A row's `run_id` is the run the writer received last, so order matters: a second run begun
    /// in the middle of a burst stamps only the requests recorded after it. Bursts larger than a
    /// transaction split the queue, its requests with it.
    @Test func requestsKeepTheirPlaceAmongEventsAndRuns() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("run.sqlite")
        let sink = try StoreSink(path: path)
        let perRun = StoreSink.maximumTransactionSize * 2
        var recorded: [Int64: Int64] = [:]
        for label in ["first", "second"] {
            let tracer = Tracer(sink: sink, label: label)
            for index in 0..<perRun {
                let id = tracer.makeID()
                recorded[id] = Int64(index)
                tracer.record(request: RequestRecord(requestID: id, ts: Int64(index), dur: 1, model: label))
                if index % 3 == 0 { tracer.instant("tick") }
            }
        }
        sink.close()
        #expect(sink.droppedCounts.isEmpty)

        let reader = try StoreReader(path: path)
        let labels = Dictionary(uniqueKeysWithValues: try reader.runs().map { ($0.runID, $0.label) })
        var rows = 0
        var misplaced: [Int64] = []
        try reader.query("SELECT request_id, run_id, ts, model FROM request") { row in
            rows += 1
            let id = row.int64(0)
            let run = row.int64(1)
            if run != id & ~0xFFFF_FFFF || recorded[id] != row.int64(2) || labels[run] != row.string(3) {
                misplaced.append(id)
            }
        }
        #expect(rows == 2 * perRun)
        #expect(misplaced.count == 0, "requests stored under another run, or with another request's values")
        #expect(try count("SELECT count(*) FROM instant WHERE run_id = instant_id & ~4294967295", in: path) == 2 * ((perRun + 2) / 3))
    }
}
