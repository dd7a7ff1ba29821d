import Foundation

/// Assembles Messages API events: text deltas pass through, `tool_use` blocks collect their
/// `input_json_delta`s and complete at `content_block_stop`, `message_stop` closes the stream.
package struct AnthropicStreamAssembler: ModelEventAssembler {
    let url: URL

    package private(set) var responseID: String?
    package private(set) var responseModel: String?
    private var toolBlocks: [Int: ToolCallRequest] = [:]
    private var usage = TokenUsage()
    private var sawUsage = false
    private var stopReason: String?
    private var sawMessageStop = false
    private var outputStarted = false

    package init(url: URL) { self.url = url }

    package mutating func consume(_ event: ServerSentEvent) throws -> [ModelEvent] {
        if event.event == "error" {
            throw HTTPEndpoint.Error.serverError(
                url: url, message: HTTPEndpoint.Error.message(fromBody: Data(event.data.utf8)))
        }
        let payload = try JSONDecoder.decodeEvent(Event.self, from: event, url: url)
        switch payload.type ?? event.event ?? "" {
        case "message_start":
            responseID = payload.message?.id
            responseModel = payload.message?.model
            if let reported = payload.message?.usage { record(reported) }
        case "content_block_start":
            if let block = payload.contentBlock, block.type == "tool_use" {
                toolBlocks[payload.index ?? 0] = ToolCallRequest(
                    id: block.id ?? "", name: block.name ?? "", arguments: "")
            }
        case "content_block_delta":
            guard let delta = payload.delta else { break }
            var events: [ModelEvent] = []
            let text = delta.type == "text_delta" ? delta.text ?? "" : ""
            let json = delta.type == "input_json_delta" ? delta.partialJSON ?? "" : ""
            let thinking = delta.type == "thinking_delta" ? delta.thinking ?? "" : ""
            if !outputStarted, !text.isEmpty || !json.isEmpty || !thinking.isEmpty {
                outputStarted = true
                events.append(.outputStarted)
            }
            if !thinking.isEmpty { events.append(.reasoningDelta(thinking)) }
            if !text.isEmpty { events.append(.contentDelta(text)) }
            if !json.isEmpty, let index = payload.index { toolBlocks[index]?.arguments += json }
            return events
        case "content_block_stop":
            if let index = payload.index, var call = toolBlocks.removeValue(forKey: index) {
                if call.arguments.isEmpty { call.arguments = "{}" }
                if call.id.isEmpty {
                    call.id = ToolCallID.make(
                        responseID: responseID, index: index, name: call.name, arguments: call.arguments)
                }
                return [.toolCall(call)]
            }
        case "message_delta":
            if let reason = payload.delta?.stopReason { stopReason = reason }
            if let reported = payload.usage { record(reported) }
        case "message_stop":
            sawMessageStop = true
        case "error":
            throw HTTPEndpoint.Error.serverError(
                url: url, message: HTTPEndpoint.Error.serverText(payload.error?.message ?? event.data))
        default:
            break  // ping and future event types
        }
        return []
    }

    package mutating func finish() throws -> [ModelEvent] {
        guard sawMessageStop else {
            throw HTTPEndpoint.Error.truncatedStream(url: url, reason: "no message_stop event")
        }
        var events: [ModelEvent] = []
        if sawUsage { events.append(.usage(usage)) }
        events.append(.finished(reason: stopReason ?? "end_turn"))
        return events
    }

    /// Anthropic counts uncached input apart from cache reads and writes; the sum is the input.
    private mutating func record(_ reported: Usage) {
        sawUsage = true
        if let read = reported.cacheReadInputTokens { usage.cachedInputTokens = read }
        if let created = reported.cacheCreationInputTokens { usage.cacheCreationInputTokens = created }
        if let input = reported.inputTokens {
            usage.inputTokens = input + (usage.cachedInputTokens ?? 0) + (usage.cacheCreationInputTokens ?? 0)
        }
        if let output = reported.outputTokens { usage.outputTokens = output }
    }

    private struct Event: Decodable {
        var type: String?
        var index: Int?
        var message: Message?
        var contentBlock: ContentBlock?
        var delta: Delta?
        var usage: Usage?
        var error: OpenAIStreamAssembler.ErrorBody?
        enum CodingKeys: String, CodingKey {
            case type, index, message, delta, usage, error
            case contentBlock = "content_block"
        }
    }

    private struct Message: Decodable {
        var id: String?
        var model: String?
        var usage: Usage?
    }

    private struct ContentBlock: Decodable {
        var type: String
        var id: String?
        var name: String?
    }

    private struct Delta: Decodable {
        var type: String?
        var text: String?
        var thinking: String?
        var partialJSON: String?
        var stopReason: String?
        enum CodingKeys: String, CodingKey {
            case type, text, thinking
            case partialJSON = "partial_json"
            case stopReason = "stop_reason"
        }
    }

    private struct Usage: Decodable {
        var inputTokens: Int?
        var outputTokens: Int?
        var cacheReadInputTokens: Int?
        var cacheCreationInputTokens: Int?
        enum CodingKeys: String, CodingKey {
            case inputTokens = "input_tokens"
            case outputTokens = "output_tokens"
            case cacheReadInputTokens = "cache_read_input_tokens"
            case cacheCreationInputTokens = "cache_creation_input_tokens"
        }
    }
}
