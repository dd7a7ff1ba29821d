import Foundation
import ModelSession
import SessionInstrumentation
import SessionTrace
import Testing
import TestSupport
import TraceStore

@testable import RecordingProxy

/// A tool call is recorded when the request bringing its result comes, whichever the proxy sees
/// first: the end of the response that asked for it, or that request. A client that read a
/// stream's last event may send the next request before the proxy has seen the upstream end it.
struct ConversationTrackerTests {
    static let ask = #"{"model":"m","messages":[{"role":"user","content":"Weather in Paris?"}],"stream":true}"#
    static let answer = #"""
        {"model":"m","stream":true,"messages":[{"role":"user","content":"Weather in Paris?"},
         {"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function",
          "function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},
         {"role":"tool","tool_call_id":"call_1","content":"Sunny"}]}
        """#
    static let followUp = #"""
        {"model":"m","stream":true,"messages":[{"role":"user","content":"Weather in Paris?"},
         {"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function",
          "function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},
         {"role":"tool","tool_call_id":"call_1","content":"Sunny"},
         {"role":"assistant","content":"Sunny."},{"role":"user","content":"And tomorrow?"}]}
        """#
    static let call = ToolCallRequest(id: "call_1", name: "get_weather", arguments: #"{"city":"Paris"}"#)

    /// The tool calls the store holds after `steps` ran on a tracker into it.
    func toolCalls(_ steps: (ConversationTracker) throws -> Void) throws -> [[String: Any]] {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("run.sqlite").path
        let sink = try StoreSink(path: path)
        let tracker = ConversationTracker(tracer: Tracer(sink: sink, label: "test"), capturePayloads: false)
        try steps(tracker)
        sink.close()
        return try storeRows(path, "select * from tool_call")
    }

    func request(_ body: String, _ tracker: ConversationTracker) throws -> SessionRecorder {
        var observed = try #require(ObservedRequest.openAIChat(Data(body.utf8), sessionHeader: nil))
        return tracker.conversation(for: &observed)
    }

    @Test func aResultThatComesAfterTheResponseEndedIsACall() throws {
        let calls = try toolCalls { tracker in
            let recorder = try request(Self.ask, tracker)
            tracker.responseEnded(
                recorder: recorder, responseID: nil, calls: [Self.call], requestID: 1, at: tracker.tracer.now())
            #expect(try request(Self.answer, tracker) === recorder)
            // The history again with a new question, and a response asking under the same id: the
            // result sent again is the old call's, not the new one's.
            #expect(try request(Self.followUp, tracker) === recorder)
            tracker.responseEnded(
                recorder: recorder, responseID: nil, calls: [Self.call], requestID: 2, at: tracker.tracer.now())
        }
        #expect(calls.count == 1)
        #expect(calls.first?["call_id"] as? String == "call_1")
        #expect(calls.first?["name"] as? String == "get_weather")
    }

    @Test func aResultThatComesBeforeTheResponseEndedIsACallToo() throws {
        let calls = try toolCalls { tracker in
            let recorder = try request(Self.ask, tracker)
            #expect(try request(Self.answer, tracker) === recorder)
            tracker.responseEnded(
                recorder: recorder, responseID: nil, calls: [Self.call], requestID: 1, at: tracker.tracer.now())
        }
        #expect(calls.count == 1)
        #expect(calls.first?["call_id"] as? String == "call_1")
        #expect(calls.first?["dur"] as? Int == 0, "the result came before the proxy saw the response end")
    }
}
