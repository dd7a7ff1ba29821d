import Reproducible
import SessionTrace
import SessionTraceTesting
import Synchronization
import TestSupport
import Testing

struct PlanningFailed: Error {}

@Suite("Tracer")
struct TracerTests {
    let sink = MemorySink()
    let clock = TestClock()

    @Test func recordsItsRunFirst() throws {
        let tracer = Tracer(sink: sink, clock: clock, label: "nightly", commandLine: "demo --fast")
        let first = try #require(sink.recorded.first)
        guard case .run(let run) = first else { Issue.record("first event is \(first)"); return }
        #expect(run.runID == tracer.runID)
        #expect(run.label == "nightly")
        #expect(run.commandLine == "demo --fast")
        #expect(run.wallClockStart == 1_700_000_000_000_000_000)
        #expect(run.toolVersion == sessionTraceVersion)
        #expect(!run.host.isEmpty)
    }

    @Test func scopedIntervalRecordsNameMetadataAndDuration() {
        let tracer = Tracer(sink: sink, clock: clock)
        let value = tracer.withInterval("PlanDay", metadata: ["requestLength": 42, "mode": "economy"]) { _ in
            clock.advance(by: 250)
            return 7
        }
        #expect(value == 7)
        #expect(sink.intervals.count == 1)
        let interval = sink.intervals[0]
        #expect(interval.name == "PlanDay")
        #expect(interval.dur == 250)
        #expect(interval.metadata == ["requestLength": 42, "mode": "economy"])
        #expect(interval.error == nil)
        #expect(interval.parentID == nil)
    }

    @Test func scopedIntervalRecordsAThrownErrorAndRethrows() {
        let tracer = Tracer(sink: sink, clock: clock)
        #expect(throws: PlanningFailed.self) {
            try tracer.withInterval("PlanDay") { _ in throw PlanningFailed() }
        }
        #expect(sink.intervals.map(\.error) == ["PlanningFailed()"])
    }

    @Test func asyncIntervalsNestThroughTheTaskLocalContext() async throws {
        let tracer = Tracer(sink: sink, clock: clock)
        try await tracer.withInterval("outer") { _ in
            try await tracer.withInterval("inner") { _ in
                try await Task.sleep(nanoseconds: 1_000)
                tracer.instant("checkpoint", metadata: ["step": 2])
            }
        }
        let outer = try #require(sink.intervals.first { $0.name == "outer" })
        let inner = try #require(sink.intervals.first { $0.name == "inner" })
        #expect(outer.parentID == nil)
        #expect(inner.parentID == outer.intervalID)
        #expect(sink.instants.map(\.parentID) == [inner.intervalID])
        #expect(sink.instants.map(\.metadata) == [["step": 2]])
    }

    @Test func asyncIntervalRecordsAThrownError() async {
        let tracer = Tracer(sink: sink, clock: clock)
        await #expect(throws: PlanningFailed.self) {
            try await tracer.withInterval("fetch") { _ in
                try await Task.sleep(nanoseconds: 1_000)
                throw PlanningFailed()
            }
        }
        #expect(sink.intervals.map(\.error) == ["PlanningFailed()"])
    }

    @Test func manualHandlesEndAcrossCallbacks() {
        let tracer = Tracer(sink: sink, clock: clock)
        let handle = tracer.beginInterval("download", metadata: ["bytes": 10])
        clock.advance(by: 900)
        #expect(sink.intervals.isEmpty)
        handle.end()
        #expect(sink.intervals.map(\.dur) == [900])
        #expect(sink.intervals.map(\.intervalID) == [handle.id])
    }

    @Test func sessionsParentTheirIntervals() async throws {
        let tracer = Tracer(sink: sink, clock: clock)
        await tracer.withSession("planner") { _ in
            clock.advance(by: 10)
            tracer.withInterval("step") { _ in clock.advance(by: 5) }
        }
        let session = try #require(sink.recorded.compactMap { event -> SessionRecord? in
            if case .session(let record) = event { record } else { nil }
        }.first)
        #expect(session.label == "planner")
        #expect(session.dur == 15)
        #expect(sink.intervals.map(\.sessionID) == [session.sessionID])
        #expect(sink.intervals.map(\.parentID) == [session.sessionID])
    }

    @Test func theSessionsBodyGetsItsIdAndContextAndMaySetItsLabel() async throws {
        let tracer = Tracer(sink: sink, clock: clock)
        var seen: (id: Int64, context: TraceContext, current: TraceContext)?
        await tracer.withSession("planner") { session in
            seen = (session.id, session.context, TraceContext.current)
            clock.advance(by: 20)
            session.label = "planner (offline)"
        }
        let session = try #require(sink.sessions.first)
        let (id, context, current) = try #require(seen)
        #expect(session.sessionID == id)
        #expect(context == current, "the body runs in the handle's context")
        #expect(context.sessionID == id && context.parentID == id && context.tracer === tracer)
        #expect(session.label == "planner (offline)")
        #expect(session.dur == 20)
        #expect(TraceContext.current.sessionID == nil, "the context is the caller's again after the session")
    }

    @Test func disabledKindsBuildNothing() {
        let sink = MemorySink(enabledKinds: [.run])
        let tracer = Tracer(sink: sink, clock: clock)
        var built = false
        func metadata() -> TraceMetadata { built = true; return ["x": 1] }
        tracer.withInterval("skipped", metadata: metadata()) { _ in }
        tracer.instant("skipped", metadata: metadata())
        #expect(!built)
        #expect(sink.recorded.count == 1)
    }

    @Test func idsAreUniqueAndCarryTheRun() {
        let tracer = Tracer(sink: sink, clock: clock)
        let ids = (0..<1_000).map { _ in tracer.makeID() }
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0 & ~0xFFFF_FFFF == tracer.runID && $0 > 0 })
    }

    @Test func payloadCaptureIsOffByDefaultAndRedactedWhenOn() throws {
        let off = Tracer(sink: sink, clock: clock)
        off.capturePayload(.prompt, "my password is hunter2", parentID: 1)
        #expect(!sink.recorded.contains { $0.kind == .payload })

        let on = Tracer(sink: sink, clock: clock, payloadRedaction: { text in
            text.split(separator: " ").map { $0 == "hunter2" ? "[REDACTED:password]" : String($0) }
                .joined(separator: " ")
        })
        on.capturePayload(.prompt, "my password is hunter2", parentID: 1)
        let payload = try #require(sink.recorded.compactMap { event -> PayloadRecord? in
            if case .payload(let record) = event { record } else { nil }
        }.first)
        #expect(payload.text == "my password is [REDACTED:password]")
        #expect(payload.kind == .prompt)
    }

    /// With a redaction, no text reaches the sink unredacted, whichever way it is recorded:
    /// scoped calls, or `record` with a typed event, as the middleware does.
    @Test func aRedactionCoversTheTextOfEveryEvent() async throws {
        struct Failure: Error, CustomStringConvertible { var description: String { "failed with hunter2" } }
        let tracer = Tracer(
            sink: sink, clock: clock, label: "run hunter2", commandLine: "demo --password hunter2",
            gitRevision: "hunter2", payloadRedaction: { $0.replacing("hunter2", with: "[R]") })
        await tracer.withSession("session hunter2") { _ in
            tracer.withInterval("interval hunter2", metadata: ["note": "hunter2", "count": 1]) { _ in
                tracer.instant("instant hunter2", metadata: ["note": "says hunter2"])
                tracer.capturePayload(.prompt, "prompt hunter2", parentID: nil)
            }
            try? tracer.withInterval("failing") { _ in throw Failure() }
        }
        tracer.record(
            .request(RequestRecord(
                requestID: tracer.makeID(), ts: 0, dur: 1, profile: "p hunter2", provider: "v hunter2",
                model: "m hunter2", finishReason: "hunter2", error: "e hunter2", responseID: "r hunter2",
                responseModel: "hunter2", serverAddress: "hunter2.example")), kind: .request)
        tracer.record(
            .toolCall(ToolCallRecord(
                toolCallID: tracer.makeID(), ts: 0, dur: 1, name: "t hunter2", callID: "hunter2",
                argumentsFingerprint: "9f86d081", argumentsBytes: 1, outputBytes: 1, error: "hunter2")),
            kind: .toolCall)
        tracer.record(
            .handoff(HandoffRecord(handoffID: tracer.makeID(), sessionID: nil, ts: 0, kind: "model",
                                   from: "a hunter2", to: "b hunter2")), kind: .handoff)

        let events = sink.recorded
        let kinds: Set<TraceEventKind> = [
            .run, .session, .interval, .instant, .payload, .request, .toolCall, .handoff,
        ]
        #expect(Set(events.map(\.kind)) == kinds)
        let text = events.map { String(describing: $0) }.joined(separator: "\n")
        #expect(!text.contains("hunter2"))
        #expect(text.ranges(of: "[R]").count == 23)
        #expect(sink.intervals.first { $0.name == "interval [R]" }?.metadata == ["note": "[R]", "count": 1])
    }

    @Test func thirtyTwoTasksEmittingAtOnceLoseNothing() async {
        let tracer = Tracer(sink: sink, clock: clock)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<32 {
                group.addTask {
                    for index in 0..<500 {
                        tracer.withInterval("work", metadata: ["task": .int(Int64(task))]) { _ in
                            tracer.instant("tick", metadata: ["index": .int(Int64(index))])
                        }
                    }
                }
            }
        }
        #expect(sink.intervals.count == 32 * 500)
        #expect(sink.instants.count == 32 * 500)
        let parents = Set(sink.intervals.map(\.intervalID))
        #expect(sink.instants.allSatisfy { parents.contains($0.parentID ?? -1) })
    }

    @Test func multiplexSendsToEveryEnabledSink() {
        let everything = MemorySink()
        let runsOnly = MemorySink(enabledKinds: [.run])
        let tracer = Tracer(sink: MultiplexSink([everything, runsOnly, NullSink()]), clock: clock)
        tracer.instant("tick")
        #expect(everything.recorded.map(\.kind) == [.run, .instant])
        #expect(runsOnly.recorded.map(\.kind) == [.run])
    }

    /// A request goes to a sink unboxed, through the multiplexer too: a sink that writes at once
    /// reads it in place (`recordInPlace`), each sink that keeps requests gets the record whole
    /// (the last of them the record itself, the others a copy), the others nothing, wherever they
    /// stand.
    @Test(arguments: [[0, 3, 2, 1], [0, 1, 2, 3], [3, 2, 0, 1]])
    func multiplexSendsARequestToEverySinkThatKeepsRequests(order: [Int]) {
        let first = MemorySink()
        let second = MemorySink()
        let runsOnly = MemorySink(enabledKinds: [.run])
        let atOnce = WritesAtOnceSink()
        let sinks: [any TraceSink] = [first, second, runsOnly, atOnce]
        let tracer = Tracer(sink: MultiplexSink(order.map { sinks[$0] }), clock: clock)
        let request = RequestRecord(
            requestID: tracer.makeID(), ts: 10, dur: 20, model: "smollm2", error: "cut short \(tracer.makeID())",
            responseModel: "smollm2-135m")
        tracer.record(request: request)
        for sink in [first, second] {
            #expect(sink.recorded.filter { $0.kind == .request } == [.request(request)])
        }
        #expect(runsOnly.recorded.map(\.kind) == [.run])
        #expect(atOnce.lent == [request])
        #expect(atOnce.handedOver == 0)
    }

    /// A tracer lends each request to a sink that writes at once, alone or behind a multiplexer of
    /// such sinks, rather than handing it over.
    @Test(arguments: [false, true])
    func aSinkThatWritesAtOnceIsLentEachRequest(multiplexed: Bool) {
        let atOnce = [WritesAtOnceSink(), WritesAtOnceSink()]
        let tracer = Tracer(sink: multiplexed ? MultiplexSink(atOnce) : atOnce[0], clock: clock)
        let request = RequestRecord(requestID: tracer.makeID(), ts: 10, dur: 20, model: "smollm2")
        tracer.record(request: request)
        for sink in multiplexed ? atOnce : [atOnce[0]] {
            #expect(sink.lent == [request])
            #expect(sink.handedOver == 0)
        }
    }

    /// A sink that keeps requests, lent one in place all the same, records a copy of it.
    @Test func aSinkThatKeepsRequestsRecordsACopyOfOneLentToIt() {
        let keeps = MemorySink()
        var request = RequestRecord(requestID: 7, ts: 10, dur: 20, model: "smollm2")
        keeps.recordInPlace(request: &request)
        #expect(keeps.recorded == [.request(request)])
    }
}

/// A sink that, as a tracepoint does, writes each request at once and keeps none: it takes them
/// in place, and counts any it is handed to own.
private final class WritesAtOnceSink: TraceSink {
    private let requests = Mutex<(lent: [RequestRecord], handedOver: Int)>(([], 0))

    var lent: [RequestRecord] { requests.withLock { $0.lent } }
    var handedOver: Int { requests.withLock { $0.handedOver } }

    func isEnabled(_ kind: TraceEventKind) -> Bool { kind == .request }
    func record(_ event: consuming TraceEvent) { requests.withLock { $0.handedOver += 1 } }
    func record(request: consuming RequestRecord) { requests.withLock { $0.handedOver += 1 } }
    var recordsRequestsInPlace: Bool { true }
    func recordInPlace(request: inout RequestRecord) { requests.withLock { $0.lent.append(request) } }
    func flush() {}
}

@Suite("Metadata")
struct MetadataTests {
    @Test func jsonObjectIsSortedAndEscaped() {
        let metadata: TraceMetadata = ["b": "quote\" and\nnewline", "a": 1, "c": true, "d": 1.5]
        #expect(metadata.jsonObject == #"{"a":1,"b":"quote\" and\nnewline","c":true,"d":1.5}"#)
    }

    @Test func controlCharactersAreEscaped() {
        #expect(OrderedJSON.quoted("\u{1}x\u{7F}") == #""\u0001x\u007f""#)
    }
}
