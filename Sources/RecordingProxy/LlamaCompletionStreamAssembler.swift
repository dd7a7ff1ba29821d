import Foundation
import ModelSession

/// Reads a llama.cpp native completion stream (`POST /completion` with `"stream": true`): each
/// event's `content` is content, and the last one (`"stop": true`) holds the token counts, the
/// server's timings and why it stopped, read as a whole answer is
/// (``WholeResponse/llamaCompletion(_:)``). The stream has no `[DONE]`: it ends with that event.
struct LlamaCompletionStreamAssembler: ModelEventAssembler {
    /// Why a native completion stream could not be read.
    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    let url: URL
    let responseID: String? = nil
    private(set) var responseModel: String?
    private var started = false
    private var ended = false

    init(url: URL) { self.url = url }

    mutating func consume(_ event: ServerSentEvent) throws -> [ModelEvent] {
        let data = Data(event.data.utf8)
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Malformed(description: "an event that is not a JSON object: \(event.data.prefix(200))")
        }
        if object["error"] != nil {
            throw HTTPEndpoint.Error.serverError(url: url, message: HTTPEndpoint.Error.message(fromBody: data))
        }
        var events: [ModelEvent] = []
        if let content = object["content"] as? String, !content.isEmpty {
            if !started {
                started = true
                events.append(.outputStarted)
            }
            events.append(.contentDelta(content))
        }
        if object["stop"] as? Bool == true {
            let whole = WholeResponse.llamaCompletion(object)
            responseModel = whole.model ?? responseModel
            events += whole.events
            ended = true
        }
        return events
    }

    mutating func finish() throws -> [ModelEvent] {
        guard ended else { throw Malformed(description: #"the stream ended before its "stop": true event"#) }
        return []
    }
}
