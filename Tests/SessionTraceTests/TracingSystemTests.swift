import SessionTrace
import SessionTraceTesting
import TestSupport
import Testing

/// A library's code: it is handed no tracer and records with the current one.
func libraryParse() -> Int {
    Tracer.current.withInterval("LibraryParse") { interval in
        interval.metadata["items"] = 2
        return 2
    }
}

/// The process-wide default and the task-local current tracer.
@Suite("Tracing system")
struct TracingSystemTests {
    /// The only test that bootstraps: the default is set once per process.
    @Test func theDefaultIsSetOnceAndTheScopesTracerComesFirst() async throws {
        #expect(!TracingSystem.tracer.isEnabled(.interval), "before bootstrap the default records nothing")
        let appSink = MemorySink()
        let scopeSink = MemorySink()
        let app = Tracer(sink: appSink)
        let scope = Tracer(sink: scopeSink)
        TracingSystem.bootstrap(app)
        #expect(TracingSystem.tracer === app)
        #expect(Tracer.current === app)

        _ = libraryParse()
        #expect(appSink.intervals.map(\.name) == ["LibraryParse"])
        #expect(appSink.intervals.map(\.parentID) == [nil])
        #expect(appSink.intervals.map(\.metadata) == [["items": 2]])

        await scope.withInterval("Outer") { _ in
            #expect(Tracer.current === scope)
            _ = libraryParse()
            // A child task inherits the scope's tracer and its place in the trace.
            await Task { _ = libraryParse() }.value
        }
        let outer = try #require(scopeSink.intervals.first { $0.name == "Outer" })
        let parsed = scopeSink.intervals.filter { $0.name == "LibraryParse" }
        #expect(parsed.map(\.parentID) == [outer.intervalID, outer.intervalID])
        #expect(appSink.intervals.count == 1, "inside the scope nothing went to the default")
        #expect(Tracer.current === app)
    }

    /// A second bootstrap stops the process (run in a child process of its own).
    @Test func aSecondBootstrapStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            TracingSystem.bootstrap(Tracer(sink: MemorySink()))
            TracingSystem.bootstrap(Tracer(sink: MemorySink()))
        }
    }

    @Test func aTracerDoesNotTakeAnotherTracersIdsAsParents() async throws {
        let firstSink = MemorySink()
        let secondSink = MemorySink()
        let first = Tracer(sink: firstSink)
        let second = Tracer(sink: secondSink)
        await first.withInterval("First") { _ in
            await second.withRequest(provider: "p", model: "m") { request in
                second.withInterval("Second") { _ in }
                request.finish()
            }
        }
        #expect(secondSink.requests.map(\.parentID) == [nil], "the first tracer's interval is not in this sink")
        #expect(secondSink.intervals.map(\.parentID) == [secondSink.requests.first?.requestID])
        #expect(firstSink.intervals.map(\.name) == ["First"])
    }

    @Test func anInstantDoesNotTakeAnotherTracersIdAsParent() async throws {
        let firstSink = MemorySink()
        let secondSink = MemorySink()
        let first = Tracer(sink: firstSink)
        let second = Tracer(sink: secondSink)
        first.withInterval("First") { _ in
            second.instant("Elsewhere")
            first.instant("Here")
        }
        #expect(secondSink.instants.map(\.parentID) == [nil], "the first tracer's interval is not in this sink")
        #expect(firstSink.instants.map(\.parentID) == [firstSink.intervals.first?.intervalID])
    }

    @Test func idsSetByHandAreTaken() {
        let sink = MemorySink()
        let tracer = Tracer(sink: sink)
        TraceContext.$current.withValue(TraceContext(sessionID: 7, parentID: 9)) {
            tracer.withInterval("Step") { _ in }
        }
        #expect(sink.intervals.map(\.parentID) == [9])
        #expect(sink.intervals.map(\.sessionID) == [7])
    }
}
