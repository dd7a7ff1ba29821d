import Foundation
import ModelSession

/// Reads a model response as it passes through, without changing a byte: a streamed body
/// (server-sent events, or Ollama's JSON Lines) through the same parser and assembler as our
/// backends, a whole body as JSON.
///
/// Memory is bounded: one event of at most ``maximumEventSize`` bytes, a whole body of at most
/// ``maximumBodySize`` (past it the response is forwarded but not read).
struct ResponseTap {
    static let maximumEventSize = 1 << 20
    static let maximumBodySize = 8 << 20

    private let route: ProxyRoute
    private let url: URL
    private let callsBefore: Int
    private var parser: ServerSentEventParser
    private var assembler: any ModelEventAssembler
    private var body: [UInt8] = []
    private var bodyTooLarge = false
    /// Whether the body is read as an event stream; decided by the head's content type.
    private(set) var readsEvents = false
    /// The first thing that made the stream unreadable; it still passes through.
    private(set) var malformation: String?
    /// The error the upstream reported in a well-formed stream (an `error` event, Ollama's
    /// `{"error": …}` line); the stream is read no further.
    private(set) var upstreamError: String?

    /// `callsBefore`: the tool calls in the request's history, which number the calls of an
    /// Ollama response that come without an id.
    init(route: ProxyRoute, upstreamURL: String, callsBefore: Int) {
        self.route = route
        let url = URL(string: upstreamURL) ?? URL(fileURLWithPath: "/")
        self.url = url
        self.callsBefore = callsBefore
        assembler =
            switch route {
            case .anthropicMessages: AnthropicStreamAssembler(url: url)
            case .responses: ResponsesStreamAssembler(url: url)
            case .ollamaChat, .ollamaGenerate: OllamaStreamAssembler(url: url, firstCallOrdinal: callsBefore)
            case .chatCompletions, .completions, .passthrough: OpenAIStreamAssembler(url: url)
            case .llamaCompletion: LlamaCompletionStreamAssembler(url: url)
            }
        parser = ServerSentEventParser(
            maximumEventSize: Self.maximumEventSize, framing: type(of: assembler).framing)
    }

    /// `gen_ai.response.id` and `.model` of a streamed response, once an event carried them.
    var responseID: String? { assembler.responseID }
    var responseModel: String? { assembler.responseModel }

    /// Reads events when the upstream answered 2xx with the route's stream type: `text/event-stream`,
    /// or `application/x-ndjson` (Ollama).
    mutating func begin(status: Int, contentType: String?) {
        readsEvents = (200..<300).contains(status)
            && (contentType ?? "").lowercased().hasPrefix(parser.framing.mediaType)
    }

    /// The model events `bytes` complete; none once the stream was found malformed.
    mutating func consume(_ bytes: UnsafeRawBufferPointer) -> [ModelEvent] {
        guard readsEvents else {
            guard !bodyTooLarge else { return [] }
            if body.count + bytes.count > Self.maximumBodySize {
                bodyTooLarge = true
                body = []
            } else {
                body.append(contentsOf: bytes)
            }
            return []
        }
        guard !stopped else { return [] }
        var events: [ModelEvent] = []
        do {
            for event in try parser.consume(bytes) { events += try assembler.consume(event) }
        } catch is ServerSentEventParser.TooLarge {
            malformation = "an event longer than \(Self.maximumEventSize) bytes"
        } catch HTTPEndpoint.Error.serverError(_, let message) {
            upstreamError = message
        } catch {
            malformation = String(describing: error)
        }
        return events
    }

    /// Whether the stream is read no further: it was malformed, or the upstream reported an error.
    private var stopped: Bool { malformation != nil || upstreamError != nil }

    /// Whether the streamed body so far is a whole, well-formed stream (its last event came).
    var hasCompleteStream: Bool {
        var probe = self
        _ = probe.finishEvents()
        return readsEvents && !probe.stopped
    }

    /// The events left at the end of a streamed body; sets ``malformation`` when it ended early.
    mutating func finishEvents() -> [ModelEvent] {
        guard readsEvents, !stopped else { return [] }
        if parser.hasPendingInput {
            malformation = "the body ended inside an event"
            return []
        }
        do {
            return try assembler.finish()
        } catch {
            malformation = String(describing: error)
            return []
        }
    }

    /// The response a whole (not streamed) body holds; nil when it is not one the route knows.
    func wholeResponse() -> WholeResponse? {
        guard !readsEvents, !bodyTooLarge,
              let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
        else { return nil }
        switch route {
        case .anthropicMessages: return .anthropic(object)
        case .responses: return .responses(object)
        case .ollamaChat, .ollamaGenerate: return .ollama(String(decoding: body, as: UTF8.self), url: url, callsBefore: callsBefore)
        case .chatCompletions, .completions, .passthrough: return .openAI(object)
        case .llamaCompletion: return .llamaCompletion(object)
        }
    }

    /// The error message a whole error body carries, or its text.
    func errorMessage() -> String { HTTPEndpoint.Error.message(fromBody: body) }
}

/// What a whole (not streamed) model response said.
struct WholeResponse {
    var id: String?
    var model: String?
    var text = ""
    /// The model's reasoning, where the response holds it apart from the text.
    var reasoning = ""
    var toolCalls: [ToolCallRequest] = []
    var finishReason: String?
    var usage = TokenUsage()
    var timings: ServerTimingsReport?

    /// What the response tells, as the events a stream would have given (no content deltas:
    /// they would time a first token that a whole response does not have).
    var events: [ModelEvent] {
        var events: [ModelEvent] = [
            .usage(usage)
        ]
        if let timings { events.append(.serverTimings(timings)) }
        if let finishReason { events.append(.finished(reason: finishReason)) }
        return events
    }

    static func openAI(_ object: [String: Any]) -> WholeResponse {
        var response = WholeResponse(id: object["id"] as? String, model: object["model"] as? String)
        let choice = (object["choices"] as? [[String: Any]])?.first ?? [:]
        let message = choice["message"] as? [String: Any] ?? [:]
        // A chat completion's message, or a (legacy) completion's text.
        response.text = message["content"] as? String ?? choice["text"] as? String ?? ""
        response.reasoning = message["reasoning_content"] as? String ?? message["reasoning"] as? String ?? ""
        response.finishReason = choice["finish_reason"] as? String
        response.toolCalls = (message["tool_calls"] as? [[String: Any]] ?? []).map { call in
            let function = call["function"] as? [String: Any] ?? [:]
            return ToolCallRequest(
                id: call["id"] as? String ?? "", name: function["name"] as? String ?? "",
                arguments: function["arguments"] as? String ?? "")
        }
        let usage = object["usage"] as? [String: Any] ?? [:]
        response.usage.inputTokens = JSONValue.integer(usage["prompt_tokens"])
        response.usage.outputTokens = JSONValue.integer(usage["completion_tokens"])
        let details = usage["prompt_tokens_details"] as? [String: Any]
        response.usage.cachedInputTokens = JSONValue.integer(details?["cached_tokens"])
        response.timings = llamaTimings(object["timings"])
        return response
    }

    /// llama.cpp's `timings` object, which its native and OpenAI-compatible answers carry alike.
    static func llamaTimings(_ timings: Any?) -> ServerTimingsReport? {
        guard let timings, let data = try? JSONSerialization.data(withJSONObject: timings) else { return nil }
        return try? JSONDecoder().decode(ServerTimingsReport.self, from: data)
    }

    static func anthropic(_ object: [String: Any]) -> WholeResponse {
        var response = WholeResponse(id: object["id"] as? String, model: object["model"] as? String)
        for block in object["content"] as? [[String: Any]] ?? [] {
            if block["type"] as? String == "text" { response.text += block["text"] as? String ?? "" }
            if block["type"] as? String == "thinking" { response.reasoning += block["thinking"] as? String ?? "" }
            if block["type"] as? String == "tool_use" {
                response.toolCalls.append(ToolCallRequest(
                    id: block["id"] as? String ?? "", name: block["name"] as? String ?? "",
                    arguments: JSONValue.text(block["input"])))
            }
        }
        response.finishReason = object["stop_reason"] as? String
        let usage = object["usage"] as? [String: Any] ?? [:]
        response.usage.outputTokens = JSONValue.integer(usage["output_tokens"])
        response.usage.cachedInputTokens = JSONValue.integer(usage["cache_read_input_tokens"])
        response.usage.cacheCreationInputTokens = JSONValue.integer(usage["cache_creation_input_tokens"])
        // All input, as our Anthropic backend records it: Anthropic reports cache reads and writes apart.
        // Saturating: an upstream's numbers must not trap the proxy.
        response.usage.inputTokens = JSONValue.integer(usage["input_tokens"]).map { input in
            [response.usage.cachedInputTokens ?? 0, response.usage.cacheCreationInputTokens ?? 0].reduce(input) {
                let (sum, overflow) = $0.addingReportingOverflow($1)
                return overflow ? Int.max : sum
            }
        }
        return response
    }

}
