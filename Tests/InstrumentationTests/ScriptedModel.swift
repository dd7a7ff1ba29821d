import Foundation
import ModelSession
import SessionTrace
import SessionTraceTesting
import Synchronization
import TestSupport

/// A fake model for fast unit tests: answers each request with the events a closure makes.
///
/// With a `clock`, it moves the clock on as a server would take time: 2 ms before the first
/// event, 0.2 ms before each later one. It moves it when the stream is asked for its next event,
/// so a reader of the clock after each event sees exact times.
struct ScriptedModel: LanguageModel {
    var provider = "scripted"
    var modelName = "scripted-1"
    var clock: TestClock?
    var script: @Sendable (ModelRequest) throws -> [ModelEvent]

    func stream(_ request: ModelRequest) -> AsyncThrowingStream<ModelEvent, any Error> {
        let playback = Playback()
        let (script, clock) = (self.script, self.clock)
        return AsyncThrowingStream {
            try playback.next { try script(request) }.map { event, index in
                clock?.advance(by: index == 0 ? 2_000_000 : 200_000)
                return event
            }
        }
    }

    /// The events of one request, handed out one at a time.
    final class Playback: Sendable {
        private let state = Mutex<(events: [ModelEvent]?, next: Int)>((nil, 0))

        /// The next event and its index; the script runs on the first call.
        func next(_ script: () throws -> [ModelEvent]) throws -> (ModelEvent, Int)? {
            try state.withLock { state in
                if state.events == nil { state.events = try script() }
                guard let events = state.events, state.next < events.count else { return nil }
                defer { state.next += 1 }
                return (events[state.next], state.next)
            }
        }
    }

    /// Answers `text` in two deltas with usage that caches everything the previous turn sent.
    static func answering(
        _ text: String, modelName: String = "scripted-1", clock: TestClock? = nil
    ) -> ScriptedModel {
        ScriptedModel(modelName: modelName, clock: clock) { request in
            let half = text.index(text.startIndex, offsetBy: text.count / 2)
            return [
                .contentDelta(String(text[..<half])), .contentDelta(String(text[half...])),
                .usage(TokenUsage(inputTokens: 10 * request.entries.count, cachedInputTokens: 10 * (request.entries.count - 1),
                                  outputTokens: 5)),
                .finished(reason: "stop"),
            ]
        }
    }
}

struct SearchArguments: Codable, Sendable {
    var query: String
}

struct SearchTool: Tool {
    var name: String { "search" }
    var description: String { "Searches notes." }
    var parameters: JSONSchema { .object([.init("query", .string())]) }
    var fails = false

    func call(arguments: SearchArguments) async throws -> String {
        if fails { throw SearchFailed() }
        return "3 notes about \(arguments.query)"
    }
}

struct SearchFailed: Error {}
struct ServerDown: Error {}
