import ModelSession
import SessionTrace
import SessionTraceTesting
import TestSupport
import Testing

@testable import SessionInstrumentation

/// One middleware shared by many sessions keeps a recorder per live session only: a recorder
/// goes when its session does, or when idle past `recorderIdleTimeout`.
@Suite("Tracing middleware lets recorders go")
struct RecorderEvictionTests {
    let sink = MemorySink()

    private func session(_ label: String, _ middleware: TracingMiddleware) -> LanguageModelSession {
        LanguageModelSession(
            model: ScriptedModel.answering("Walk, then write."), label: label, instructions: "Plan.",
            middleware: [middleware])
    }

    @Test func aSessionThatEndsTakesItsRecorderWithIt() async throws {
        let middleware = TracingMiddleware(tracer: Tracer(sink: sink))
        do {
            let first = session("first", middleware)
            let second = session("second", middleware)
            _ = try await first.respond(to: "What first?")
            _ = try await second.respond(to: "What first?")
            _ = try await first.respond(to: "And then?")
            #expect(middleware.recorderCount == 2)
        }
        #expect(middleware.recorderCount == 0)
        #expect(sink.requests.count == 3)
        #expect(sink.requests.last?.reusedPrefixEntries == 1, "the recorder lived as long as its session")
    }

    @Test func aRecorderIdlePastTheTimeoutGoesAndItsSessionStartsAfresh() async throws {
        let clock = TestClock(at: 5_000_000_000)
        let middleware = TracingMiddleware(
            tracer: Tracer(sink: sink, clock: clock), options: TracingOptions(recorderIdleTimeout: .seconds(10)))
        let quiet = session("quiet", middleware)
        let busy = session("busy", middleware)
        _ = try await quiet.respond(to: "What first?")
        _ = try await busy.respond(to: "What first?")
        clock.advance(by: 6 * 1_000_000_000)
        _ = try await busy.respond(to: "And then?")
        #expect(middleware.recorderCount == 2, "6 s idle is within the timeout")
        clock.advance(by: 6 * 1_000_000_000)
        _ = try await busy.respond(to: "And last?")
        #expect(middleware.recorderCount == 1, "12 s idle is past it")

        _ = try await quiet.respond(to: "Still there?")
        let quietRequests = sink.requests.filter { $0.sessionID != sink.requests[1].sessionID }
        #expect(quietRequests.count == 2)
        #expect(quietRequests[0].sessionID != quietRequests[1].sessionID, "recorded as a new session")
        #expect(quietRequests[1].reusedPrefixEntries == 0)
        #expect(sink.requests.filter { $0.sessionID == sink.requests[1].sessionID }.map(\.reusedPrefixEntries)
            == [0, 1, 3])
    }

    @Test func withoutATimeoutAnIdleRecorderStaysUntilItsSessionEnds() async throws {
        let clock = TestClock(at: 5_000_000_000)
        let middleware = TracingMiddleware(
            tracer: Tracer(sink: sink, clock: clock), options: TracingOptions(recorderIdleTimeout: nil))
        let quiet = session("quiet", middleware)
        let busy = session("busy", middleware)
        _ = try await quiet.respond(to: "What first?")
        clock.advance(by: 86_400 * 1_000_000_000)
        _ = try await busy.respond(to: "What first?")
        #expect(middleware.recorderCount == 2)
        withExtendedLifetime(quiet) {}
    }
}
