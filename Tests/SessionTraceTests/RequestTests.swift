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

    /// A first token learned of late (a proxy reads the stream after passing it on) is timed at
    /// the arrival given; a time before the request's start counts as its start.
    @Test func timesAFirstTokenAtTheArrivalGiven() async throws {
        let tracer = Tracer(sink: sink, clock: clock)
        await tracer.withRequest(provider: "openai", model: "gpt-x") { request in
            clock.advance(by: 900)
            request.firstToken(at: clock.now() - 600)
            request.firstToken()
            request.finish()
        }
        await tracer.withRequest(provider: "openai", model: "gpt-x") { request in
            request.firstToken(at: clock.now() - 5)
            request.finish()
        }
        #expect(sink.requests.map(\.timeToFirstToken) == [300, 0])
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

    @Test func typedSettersSetTheirFieldsUntilTheRequestFinishes() async throws {
        let tracer = Tracer(sink: sink, clock: clock)
        await tracer.withRequest(provider: "p", model: "m") { request in
            request.setPrompt(bytes: 2_048, transcriptEntries: 5, reusedPrefixEntries: 3)
            request.setTurn(77, instructionsFingerprint: "a1b2", toolsFingerprint: "c3d4")
            request.setOptions(maxTokens: 256, temperature: 0.5)
            request.setResponse(id: "chatcmpl-1", model: "m-2025")
            request.setServer(address: "127.0.0.1", port: 8080)
            request.setStreamed(true)
            request.setServerTimings(
                ServerTimings(
                    promptTokens: 10, cachedTokens: 2, promptDuration: 3_000, predictedTokens: 4,
                    predictedDuration: 5_000))
            request.setUsage(RequestUsage(inputTokens: 12, cachedInputTokens: 4))
            request.setUsage(RequestUsage(outputTokens: 9))
            request.setFinishReason("length")
            request.finish()
            request.setServer(address: "10.0.0.1", port: 9090)
        }
        let request = try #require(sink.requests.first)
        #expect(request.promptBytes == 2_048)
        #expect(request.transcriptEntries == 5)
        #expect(request.reusedPrefixEntries == 3)
        #expect(request.turnID == 77)
        #expect(request.instructionsFingerprint == "a1b2")
        #expect(request.toolsFingerprint == "c3d4")
        #expect(request.maxTokens == 256)
        #expect(request.temperature == 0.5)
        #expect(request.responseID == "chatcmpl-1")
        #expect(request.responseModel == "m-2025")
        #expect(request.streamed == true)
        #expect(
            request.serverTimings
                == ServerTimings(
                    promptTokens: 10, cachedTokens: 2, promptDuration: 3_000, predictedTokens: 4,
                    predictedDuration: 5_000))
        #expect(request.inputTokens == 12)
        #expect(request.cachedInputTokens == 4)
        #expect(request.outputTokens == 9, "a later usage keeps the counts it leaves nil")
        #expect(request.finishReason == "length")
        #expect(request.serverAddress == "127.0.0.1", "a change after the request finished is not recorded")
        #expect(request.serverPort == 8080)
    }

    @Test func finishingWithUsageKeepsTheCountsItLeavesNil() async throws {
        let tracer = Tracer(sink: sink, clock: clock)
        await tracer.withRequest(provider: "p", model: "m") { request in
            request.setUsage(RequestUsage(inputTokens: 12, cachedInputTokens: 4))
            request.setFinishReason("tool_calls")
            request.finish(usage: RequestUsage(outputTokens: 9))
        }
        let request = try #require(sink.requests.first)
        #expect(request.inputTokens == 12)
        #expect(request.cachedInputTokens == 4)
        #expect(request.outputTokens == 9)
        #expect(request.finishReason == "tool_calls")
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
