import Foundation
import ModelSession
import Synchronization

/// A model that answers from a script, one list of events per call, and records each request.
final class ScriptedModel: LanguageModel {
    let provider = "fake"
    let modelName: String
    private let script: Mutex<[[ModelEvent]]>
    private let recorded = Mutex<[ModelRequest]>([])

    init(_ modelName: String = "fake-model", script: [[ModelEvent]] = []) {
        self.modelName = modelName
        self.script = Mutex(script)
    }

    var requests: [ModelRequest] { recorded.withLock { $0 } }

    func stream(_ request: ModelRequest) -> AsyncThrowingStream<ModelEvent, any Error> {
        recorded.withLock { $0.append(request) }
        let events = script.withLock { script in
            script.isEmpty
                ? [.contentDelta("answer from \(modelName)"), .finished(reason: "stop")]
                : script.removeFirst()
        }
        return AsyncThrowingStream { continuation in
            for event in events { continuation.yield(event) }
            continuation.finish()
        }
    }
}

/// A tool call event with JSON arguments.
func call(_ name: String, _ arguments: String, id: String = "c1") -> ModelEvent {
    .toolCall(ToolCallRequest(id: id, name: name, arguments: arguments))
}

/// Shared mutable test state; `Mutex` alone cannot be copied into tools and closures.
final class Box<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    var value: Value {
        get { mutex.withLock { $0 } }
        set { mutex.withLock { $0 = newValue } }
    }
    func mutate(_ change: (inout Value) -> Void) { mutex.withLock { change(&$0) } }
}

struct WeatherTool: Tool {
    struct Arguments: Codable, Sendable { var city: String }
    let name = "get_weather"
    let description = "Current weather for a city."
    var parameters: JSONSchema { .object([.init("city", .string(description: "City name"))]) }
    let calls = Box<[String]>([])

    func call(arguments: Arguments) async throws -> String {
        calls.mutate { $0.append(arguments.city) }
        return "Sunny, 21 degrees C in \(arguments.city)."
    }
}

struct FailingTool: Tool {
    struct Arguments: Codable, Sendable {}
    struct Broken: Error {}
    let name = "broken"
    let description = "Always fails."
    var parameters: JSONSchema { .object([]) }
    func call(arguments: Arguments) async throws -> String { throw Broken() }
}

/// Records what a session hands to middleware: the models and tools it wraps, and every event.
final class RecordingMiddleware: SessionMiddleware {
    let events = Mutex<[ModelEvent]>([])
    let wrappedTools = Mutex<[String]>([])
    let requests = Mutex<[ModelRequest]>([])

    func model(_ model: any LanguageModel, session: SessionInfo) -> any LanguageModel {
        RecordingModel(base: model, middleware: self)
    }

    func tool<T: Tool>(_ tool: T, session: SessionInfo) -> any Tool {
        wrappedTools.withLock { $0.append(tool.name) }
        return tool
    }

    var serverTimings: [ServerTimingsReport] {
        events.withLock { $0.compactMap { if case .serverTimings(let t) = $0 { t } else { nil } } }
    }

    var usages: [TokenUsage] {
        events.withLock { $0.compactMap { if case .usage(let u) = $0 { u } else { nil } } }
    }
}

struct RecordingModel: LanguageModel {
    let base: any LanguageModel
    let middleware: RecordingMiddleware
    var provider: String { base.provider }
    var modelName: String { base.modelName }

    func stream(_ request: ModelRequest) -> AsyncThrowingStream<ModelEvent, any Error> {
        middleware.requests.withLock { $0.append(request) }
        let upstream = base.stream(request)
        let middleware = self.middleware
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await event in upstream {
                        middleware.events.withLock { $0.append(event) }
                        continuation.yield(event)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
