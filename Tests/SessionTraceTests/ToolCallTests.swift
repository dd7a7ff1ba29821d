import SessionTrace
import SessionTraceTesting
import TestSupport
import Testing

/// `withToolCall`: the scoped call for code that runs tools itself.
@Suite("Tool calls")
struct ToolCallTests {
    let sink = MemorySink()
    let clock = TestClock()

    struct Timeout: Error, CustomStringConvertible { var description: String { "timed out after 5 s" } }

    @Test func aReturningCallIsRecordedWithItsOutputUnderItsRequest() async throws {
        let tracer = Tracer(sink: sink, clock: clock)
        let forecast = await tracer.withRequest(provider: "p", model: "m") { request in
            let forecast = await tracer.withToolCall(
                "weather", callID: "call_1", argumentsFingerprint: "9f86d081", argumentsBytes: 17
            ) { call in
                clock.advance(by: 40)
                tracer.withInterval("Fetch") { _ in }
                call.setOutput(bytes: 5, fingerprint: "2c26b46b", sketch: [1, 2, 3])
                return "sunny"
            }
            request.finish()
            return forecast
        }
        #expect(forecast == "sunny")
        let call = try #require(sink.toolCalls.first)
        #expect(sink.toolCalls.count == 1)
        #expect(call.name == "weather")
        #expect(call.callID == "call_1")
        #expect(call.requestID == sink.requests.first?.requestID)
        #expect(call.dur == 40)
        #expect(call.outcome == .ok)
        #expect(call.error == nil)
        #expect(call.argumentsFingerprint == "9f86d081")
        #expect(call.argumentsBytes == 17)
        #expect(call.outputBytes == 5)
        #expect(call.outputFingerprint == "2c26b46b")
        #expect(call.outputSketch == [1, 2, 3])
        #expect(sink.intervals.map(\.parentID) == [call.toolCallID], "what the body records nests under the call")
    }

    @Test func aThrowingCallIsRecordedFailedAndTheErrorPassesThrough() async {
        let tracer = Tracer(sink: sink, clock: clock)
        await #expect(throws: Timeout.self) {
            try await tracer.withToolCall(
                "search", requestID: 7, sessionID: 3, argumentsFingerprint: "ab", argumentsBytes: 2
            ) { call in
                call.setOutput(bytes: 9)
                clock.advance(by: 12)
                throw Timeout()
            }
        }
        #expect(sink.toolCalls.map(\.outcome) == [.error])
        #expect(sink.toolCalls.map(\.error) == ["timed out after 5 s"])
        #expect(sink.toolCalls.map(\.requestID) == [7])
        #expect(sink.toolCalls.map(\.sessionID) == [3])
        #expect(sink.toolCalls.map(\.dur) == [12])
        #expect(sink.toolCalls.map(\.outputBytes) == [9])
    }

    @Test func withToolCallsDisabledTheBodyStillRunsAndNothingIsRecorded() async {
        let quiet = MemorySink(enabledKinds: [.interval])
        let tracer = Tracer(sink: quiet, clock: clock)
        let value = await tracer.withToolCall("t", argumentsFingerprint: "", argumentsBytes: 0) { call in
            call.setOutput(bytes: 1)
            return 42
        }
        #expect(value == 42)
        #expect(quiet.toolCalls.isEmpty)
    }
}
