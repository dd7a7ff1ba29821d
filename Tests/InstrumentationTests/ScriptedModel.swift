import Foundation
import ModelSession
import SessionTrace

/// A fake model for fast unit tests: answers each request with the events a closure makes,
/// pausing before the first event so time to first token is measurable.
struct ScriptedModel: LanguageModel {
    var provider = "scripted"
    var modelName = "scripted-1"
    var script: @Sendable (ModelRequest) throws -> [ModelEvent]

    func stream(_ request: ModelRequest) -> AsyncThrowingStream<ModelEvent, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let events = try script(request)
                    try await Task.sleep(nanoseconds: 2_000_000)
                    for event in events {
                        continuation.yield(event)
                        try await Task.sleep(nanoseconds: 200_000)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Answers `text` in two deltas with usage that caches everything the previous turn sent.
    static func answering(_ text: String, modelName: String = "scripted-1") -> ScriptedModel {
        ScriptedModel(modelName: modelName) { request in
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

extension MemorySink {
    var requests: [RequestRecord] { recorded.compactMap { if case .request(let r) = $0 { r } else { nil } } }
    var toolCalls: [ToolCallRecord] { recorded.compactMap { if case .toolCall(let r) = $0 { r } else { nil } } }
    var handoffs: [HandoffRecord] { recorded.compactMap { if case .handoff(let r) = $0 { r } else { nil } } }
    var sessions: [SessionRecord] { recorded.compactMap { if case .session(let r) = $0 { r } else { nil } } }
    var payloads: [PayloadRecord] { recorded.compactMap { if case .payload(let r) = $0 { r } else { nil } } }
}
