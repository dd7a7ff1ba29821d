import SessionTrace
import SessionTraceTesting
import TestSupport
import Testing

/// `TraceContext(traceparent:)`: the parent of what a server records, from its incoming span.
@Suite("TraceContext")
struct TraceContextTests {
    let sink = MemorySink()
    let clock = TestClock()

    /// The example of the DocC article "Bridge swift-distributed-tracing", as written there.
    @Test func aRequestTakesTheServersIncomingSpanAsItsParent() async throws {
        let tracer = Tracer(sink: sink, clock: clock)
        let traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        let parent = TraceContext(traceparent: traceparent) ?? TraceContext()
        await TraceContext.$current.withValue(parent) {
            await tracer.withRequest(provider: "openai", model: "gpt-4o-mini") { request in
                request.finish()
            }
        }
        #expect(sink.requests.map(\.parentID) == [67_667_974_448_284_343])
    }

    @Test func aSpanIdWithItsHighBitSetKeepsItsBits() throws {
        let context = try #require(TraceContext(traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-b7ad6b7169203331-00"))
        #expect(context.parentID == -5_211_391_058_958_601_423)
        #expect(context.sessionID == nil && context.requestID == nil && context.tracer == nil)
    }

    /// A context names its tracer by number, so copying it copies no reference: it does not keep
    /// the tracer alive, and once the tracer is freed it names none. A tracer made later, even at
    /// the freed one's address, does not take the context's ids as its own.
    @Test func aContextDoesNotKeepItsTracerAlive() {
        weak var freed: Tracer?
        var context = TraceContext()
        do {
            let tracer = Tracer(sink: sink, clock: clock)
            context = TraceContext(tracer: tracer, parentID: 7)
            freed = tracer
            #expect(context.tracer === tracer)
        }
        #expect(freed == nil, "the context kept its tracer alive")
        #expect(context.tracer == nil)
        #expect(context.parentID == 7)
        let later = Tracer(sink: sink, clock: clock)
        #expect(TraceContext.$current.withValue(context) { later.currentContext.parentID } == nil)
    }

    @Test func contextsAreEqualWhenTheyNameTheSameTracerAndIds() {
        let first = Tracer(sink: sink, clock: clock)
        let second = Tracer(sink: sink, clock: clock)
        #expect(TraceContext(tracer: first, parentID: 1) == TraceContext(tracer: first, parentID: 1))
        #expect(TraceContext(tracer: first, parentID: 1) != TraceContext(tracer: second, parentID: 1))
        #expect(TraceContext(tracer: first, parentID: 1) != TraceContext(parentID: 1))
        #expect(TraceContext(tracer: first, parentID: 1) != TraceContext(tracer: first, parentID: 2))
        let contexts = [TraceContext(tracer: first), TraceContext(tracer: first), TraceContext(tracer: second)]
        #expect(Set(contexts).count == 2)
    }

    @Test(arguments: [
        "",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
        "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902bz-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-",
    ])
    func anInvalidTraceparentGivesNoContext(_ header: String) {
        #expect(TraceContext(traceparent: header) == nil)
    }
}
