import Foundation
import ModelSession

/// Reads a llama.cpp native completion stream (`POST /completion` with `"stream": true`): each
/// event's `content` is content, and the last one (`"stop": true`) holds the token counts, the
/// server's timings and why it stopped, read as a whole answer is
/// (``WholeResponse/llamaCompletion(_:)``). The stream has no `[DONE]`: it ends with that event.
struct LlamaCompletionStreamAssembler: ModelEventAssembler {
    let url: URL
    let responseID: String? = nil
    private(set) var responseModel: String?
    private var started = false
    private var ended = false

    init(url: URL) { self.url = url }

    mutating func consume(_ event: ServerSentEvent) throws -> [ModelEvent] {
        let object = try JSONSerialization.eventObject(event, url: url)
        if object["error"] != nil {
            let message = HTTPEndpoint.Error.message(fromBody: event.data.utf8)
            throw HTTPEndpoint.Error.serverError(url: url, message: message)
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
        guard ended else { throw HTTPEndpoint.Error.truncatedStream(url: url, reason: #"no "stop": true event"#) }
        return []
    }
}
