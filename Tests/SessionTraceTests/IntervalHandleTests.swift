import SessionTrace
import SessionTraceTesting
import TestSupport
import Testing

/// The handle `withInterval` gives its body: what the body found goes into the interval's metadata.
@Suite("Interval handle")
struct IntervalHandleTests {
    let sink = MemorySink()
    let clock = TestClock()

    @Test func theBodyAddsWhatItFoundToTheMetadata() {
        let tracer = Tracer(sink: sink, clock: clock)
        let notes = tracer.withInterval("SearchNotes", metadata: ["source": "disk"]) { interval in
            let notes = ["launch", "errands", "focus"]
            interval.metadata["items"] = .int(Int64(notes.count))
            interval.metadata["cacheHit"] = true
            return notes
        }
        #expect(notes.count == 3)
        #expect(sink.intervals.map(\.metadata) == [["source": "disk", "items": 3, "cacheHit": true]])
    }

    @Test func metadataAddedAfterTheEndIsNotRecordedAndEndRecordsOnce() {
        let tracer = Tracer(sink: sink, clock: clock)
        let interval = tracer.beginInterval("Download")
        interval.metadata["bytes"] = 10
        clock.advance(by: 5)
        interval.end()
        interval.metadata["bytes"] = 99
        clock.advance(by: 5)
        interval.end(error: Refused(status: 500))
        #expect(sink.intervals.map(\.metadata) == [["bytes": 10]])
        #expect(sink.intervals.map(\.dur) == [5])
        #expect(sink.intervals.map(\.error) == [nil])
    }

    @Test func aThrowingBodyKeepsWhatItAddedBeforeThrowing() throws {
        let tracer = Tracer(sink: sink, clock: clock)
        #expect(throws: Refused.self) {
            try tracer.withInterval("Fetch") { interval in
                interval.metadata["attempts"] = 3
                throw Refused(status: 503)
            }
        }
        #expect(sink.intervals.map(\.metadata) == [["attempts": 3]])
        #expect(sink.intervals.map(\.error) == ["Refused(status: 503)"])
    }

    @Test func withIntervalsDisabledTheHandleRecordsNothing() {
        let sink = MemorySink(enabledKinds: [.instant])
        let tracer = Tracer(sink: sink, clock: clock)
        tracer.withInterval("Skipped") { interval in
            interval.metadata["items"] = 1
            #expect(!interval.isRecording)
            tracer.instant("inside")
        }
        #expect(sink.intervals.isEmpty)
        #expect(sink.instants.map(\.parentID) == [nil], "no interval id was handed on")
    }
}
