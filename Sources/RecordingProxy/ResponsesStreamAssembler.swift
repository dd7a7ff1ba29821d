import Foundation
import ModelSession

/// Reads an OpenAI Responses API event stream: text deltas as content, reasoning text and
/// reasoning summary deltas as reasoning, each finished
/// `function_call` item as a tool call, and the final `response.completed` (or `.incomplete`,
/// `.failed`) event's usage and status, read as a whole response is.
struct ResponsesStreamAssembler: ModelEventAssembler {
    let url: URL
    private(set) var responseID: String?
    private(set) var responseModel: String?
    private var started = false
    private var ended = false

    init(url: URL) { self.url = url }

    mutating func consume(_ event: ServerSentEvent) throws -> [ModelEvent] {
        let object = try JSONSerialization.eventObject(event, url: url)
        var events: [ModelEvent] = []
        switch object["type"] as? String ?? event.event ?? "" {
        case "response.created", "response.in_progress":
            let response = object["response"] as? [String: Any] ?? [:]
            responseID = response["id"] as? String ?? responseID
            responseModel = response["model"] as? String ?? responseModel
        case "response.output_text.delta":
            events += startOutput()
            events.append(.contentDelta(object["delta"] as? String ?? ""))
        case "response.reasoning_text.delta", "response.reasoning_summary_text.delta":
            events += startOutput()
            events.append(.reasoningDelta(object["delta"] as? String ?? ""))
        case "response.function_call_arguments.delta":
            events += startOutput()
        case "response.output_item.done":
            let item = object["item"] as? [String: Any] ?? [:]
            if item["type"] as? String == "function_call" {
                events += startOutput()
                events.append(.toolCall(ToolCallRequest(
                    id: item["call_id"] as? String ?? "", name: item["name"] as? String ?? "",
                    arguments: item["arguments"] as? String ?? "")))
            }
        case "response.completed", "response.incomplete", "response.failed":
            let whole = WholeResponse.responses(object["response"] as? [String: Any] ?? [:])
            responseID = whole.id ?? responseID
            responseModel = whole.model ?? responseModel
            // Tool calls came with their items; the usage and the status come here.
            events += whole.events
            ended = true
        case "error":
            throw HTTPEndpoint.Error.serverError(url: url, message: HTTPEndpoint.Error.message(fromBody: event.data.utf8))
        default:
            break
        }
        return events
    }

    mutating func finish() throws -> [ModelEvent] {
        guard ended else { throw HTTPEndpoint.Error.truncatedStream(url: url, reason: "no response.completed") }
        return []
    }

    private mutating func startOutput() -> [ModelEvent] {
        guard !started else { return [] }
        started = true
        return [.outputStarted]
    }
}
