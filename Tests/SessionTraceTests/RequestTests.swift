import SessionTrace
import SessionTraceTesting
import TestSupport
import Testing

struct Refused: Error, Equatable {
    var status: Int
}

/// `withRequest`: any client's request, timed on a test clock and recorded as the middleware records one.
@Suite("Tracer.withRequest")
struct RequestTests {
    let sink = MemorySink()
    let clock = TestClock()

    @Test func timesTheFirstTokenAndTheWholeRequest() async throws {
        let tracer = Tracer(sink: sink, clock: clock)
        let start = clock.now()
        let answer = await tracer.withRequest(provider: "openai", model: "gpt-x", profile: "planner") { request in
            clock.advance(by: 300)
            request.firstToken()
            clock.advance(by: 700)
            request.firstToken()
            request.finish(
                usage: RequestUsage(inputTokens: 12, cachedInputTokens: 4, outputTokens: 9), finishReason: "stop")
            clock.advance(by: 50)
            return "plan"
        }
        #expect(answer == "plan")
        let request = try #require(sink.requests.first)
        #expect(sink.requests.count == 1)
        #expect(request.ts == start)
        #expect(request.timeToFirstToken == 300, "the first call counts")
        #expect(request.dur == 1_000, "the request ends at finish, not when the body returns")
        #expect(request.provider == "openai" && request.model == "gpt-x" && request.profile == "planner")
        #expect(request.inputTokens == 12 && request.cachedInputTokens == 4 && request.outputTokens == 9)
        #expect(request.finishReason == "stop")
        #expect(request.error == nil)
        #expect(request.sessionID == nil && request.parentID == nil)
        #expect(request.tokensPerSecond == 8 / 0.000_000_7)
    }

    @Test func nestsUnderTheSessionAndIntervalAndParentsWhatRunsInside() async throws {
        let tracer = Tracer(sink: sink, clock: clock)
        var inside = TraceContext()
        await tracer.withSession("planner") { _ in
            await tracer.withInterval("PlanDay") { _ in
                await tracer.withRequest(provider: "p", model: "m") { request in
                    inside = TraceContext.current
                    tracer.withInterval("ParseAnswer") { _ in }
                    request.finish()
                }
            }
        }
        let session = try #require(sink.sessions.first)
        let plan = try #require(sink.intervals.first { $0.name == "PlanDay" })
        let parse = try #require(sink.intervals.first { $0.name == "ParseAnswer" })
        let request = try #require(sink.requests.first)
        #expect(request.sessionID == session.sessionID)
        #expect(request.parentID == plan.intervalID)
        #expect(parse.parentID == request.requestID)
        #expect(inside.requestID == request.requestID && inside.tracer === tracer)
        #expect(TraceContext.current.requestID == nil, "the context is the caller's again after the request")
    }

    @Test func recordsTheBodysErrorAndRethrowsItUnchanged() async throws {
        let tracer = Tracer(sink: sink, clock: clock)
        let thrown = await #expect(throws: Refused.self) {
            try await tracer.withRequest(provider: "p", model: "m") { request in
                clock.advance(by: 40)
                throw Refused(status: 429)
            }
        }
        #expect(thrown == Refused(status: 429))
        let request = try #require(sink.requests.first)
        #expect(request.error == "Refused(status: 429)")
        #expect(request.dur == 40)
        #expect(request.finishReason == nil && request.timeToFirstToken == nil)
    }

    @Test func aBodyThatNeverSawATokenHasNoTimeToFirstToken() async throws {
        let tracer = Tracer(sink: sink, clock: clock)
        await tracer.withRequest(provider: "p", model: "m") { request in
            clock.advance(by: 90)
            request.finish(usage: RequestUsage(outputTokens: 0), finishReason: "length")
        }
        let request = try #require(sink.requests.first)
        #expect(request.timeToFirstToken == nil)
        #expect(request.tokensPerSecond == nil)
        #expect(request.dur == 90 && request.finishReason == "length")
    }

    @Test func aBodyThatNeverFinishedEndsWhenItReturns() async throws {
        let tracer = Tracer(sink: sink, clock: clock)
        await tracer.withRequest(provider: "p", model: "m") { request in
            clock.advance(by: 10)
            request.firstToken()
            clock.advance(by: 25)
        }
        let request = try #require(sink.requests.first)
        #expect(sink.requests.count == 1)
        #expect(request.dur == 35 && request.timeToFirstToken == 10)
        #expect(request.finishReason == nil && request.error == nil && request.outputTokens == nil)
    }

    @Test func anErrorAfterTheResponseFinishedIsNotTheRequests() async throws {
        let tracer = Tracer(sink: sink, clock: clock)
        await #expect(throws: Refused.self) {
            try await tracer.withRequest(provider: "p", model: "m") { request in
                request.finish(finishReason: "stop")
                throw Refused(status: 0)
            }
        }
        #expect(sink.requests.map(\.error) == [nil])
        #expect(sink.requests.map(\.finishReason) == ["stop"])
    }

    @Test func updateSetsOtherFieldsButNotTheHandlesIdsAndTimes() async throws {
        let tracer = Tracer(sink: sink, clock: clock)
        let start = clock.now()
        await tracer.withRequest(provider: "p", model: "m") { request in
            request.update { record in
                record.serverAddress = "127.0.0.1"
                record.promptBytes = 2_048
                record.ts = 0
                record.requestID = 1
            }
            request.finish()
            request.update { $0.serverPort = 8080 }
        }
        let request = try #require(sink.requests.first)
        #expect(request.serverAddress == "127.0.0.1" && request.promptBytes == 2_048)
        #expect(request.ts == start && request.requestID != 1)
        #expect(request.serverPort == nil, "a change after the request finished is not recorded")
    }

    @Test func withRequestsDisabledTheBodyStillRunsAndNothingIsRecorded() async throws {
        let sink = MemorySink(enabledKinds: [.interval])
        let tracer = Tracer(sink: sink, clock: clock)
        let value = await tracer.withRequest(provider: "p", model: "m") { request in
            request.firstToken()
            request.finish(finishReason: "stop")
            return request.isRecording ? 0 : 42
        }
        #expect(value == 42)
        #expect(sink.recorded.isEmpty)
    }
}
