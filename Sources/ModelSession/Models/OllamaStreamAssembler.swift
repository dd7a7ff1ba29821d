import Foundation

/// Assembles Ollama's native chat stream (`/api/chat`, one JSON object a line; `/api/generate`'s
/// too, whose text is `response` where the chat's is `message.content`): content and thinking
/// deltas pass through, tool calls come whole, and the last line (`"done": true`) holds the token
/// counts and the server's own durations, in nanoseconds: `load_duration`, `prompt_eval_duration`
/// and `eval_duration`. An `{"error": ...}` line ends the stream with the server's message.
package struct OllamaStreamAssembler: ModelEventAssembler {
    package static var framing: StreamFraming { .jsonLines }

    let url: URL
    /// How a call that comes without an id gets one. nil: from this response's `created_at` and its
    /// index in the response (the backend: its transcript keeps the ids it gave). A number: from its
    /// ordinal in the conversation, this number (the calls in the request's history) plus its index,
    /// and no `created_at` (the proxy: the next request repeats the call without an id, and
    /// ``toolCall(_:index:createdAt:)`` must give it the same one there).
    let firstCallOrdinal: Int?
    /// Ollama gives a response no id.
    package var responseID: String? { nil }
    package private(set) var responseModel: String?
    /// The first line's `created_at`: it tells this response's tool calls from another's, as a
    /// response id would.
    private var createdAt: String?
    private var toolCalls: [ToolCallRequest] = []
    private var outputStarted = false
    private var last: LastLine?

    /// What the `"done": true` line reports.
    private struct LastLine {
        var reason: String?
        var promptTokens: Int?
        var outputTokens: Int?
        var loadNanoseconds: Double?
        var promptNanoseconds: Double?
        var outputNanoseconds: Double?
    }

    package init(url: URL, firstCallOrdinal: Int? = nil) {
        self.url = url
        self.firstCallOrdinal = firstCallOrdinal
    }

    package mutating func consume(_ event: ServerSentEvent) throws -> [ModelEvent] {
        guard let line = (try? JSONSerialization.jsonObject(with: Data(event.data.utf8))) as? [String: Any] else {
            throw HTTPEndpoint.Error.malformedStream(
                url: url, reason: "a line that is not a JSON object",
                data: HTTPEndpoint.Error.serverText(event.data, limit: 300))
        }
        if let error = line["error"] {
            throw HTTPEndpoint.Error.serverError(
                url: url, message: HTTPEndpoint.Error.serverText(error as? String ?? event.data))
        }
        if responseModel == nil { responseModel = line["model"] as? String }
        if createdAt == nil { createdAt = line["created_at"] as? String }
        let message = line["message"] as? [String: Any]
        // `/api/generate` writes its text as `response`, with no message.
        let content = message?["content"] as? String ?? line["response"] as? String ?? ""
        // A thinking model's reasoning (`"think": true`): `message.thinking`, or `thinking` beside
        // `/api/generate`'s `response`.
        let thinking = message?["thinking"] as? String ?? line["thinking"] as? String ?? ""
        let calls = message?["tool_calls"] as? [[String: Any]] ?? []
        var events: [ModelEvent] = []
        if !outputStarted, !content.isEmpty || !thinking.isEmpty || !calls.isEmpty {
            outputStarted = true
            events.append(.outputStarted)
        }
        if !thinking.isEmpty { events.append(.reasoningDelta(thinking)) }
        if !content.isEmpty { events.append(.contentDelta(content)) }
        for call in calls {
            let call =
                if let firstCallOrdinal {
                    Self.toolCall(call, index: firstCallOrdinal + toolCalls.count, createdAt: nil)
                } else {
                    Self.toolCall(call, index: toolCalls.count, createdAt: createdAt)
                }
            toolCalls.append(call)
        }
        if line["done"] as? Bool == true {
            let number = { (key: String) in (line[key] as? NSNumber)?.doubleValue }
            last = LastLine(
                reason: line["done_reason"] as? String, promptTokens: (line["prompt_eval_count"] as? NSNumber)?.intValue,
                outputTokens: (line["eval_count"] as? NSNumber)?.intValue, loadNanoseconds: number("load_duration"),
                promptNanoseconds: number("prompt_eval_duration"), outputNanoseconds: number("eval_duration"))
        }
        return events
    }

    package mutating func finish() throws -> [ModelEvent] {
        guard let last else {
            throw HTTPEndpoint.Error.truncatedStream(url: url, reason: #"no line with "done": true"#)
        }
        var events = toolCalls.map(ModelEvent.toolCall)
        if last.promptTokens != nil || last.outputTokens != nil {
            // Ollama counts the prompt tokens it evaluated and says nothing of a cache.
            events.append(.usage(TokenUsage(inputTokens: last.promptTokens, outputTokens: last.outputTokens)))
        }
        if last.promptNanoseconds != nil || last.outputNanoseconds != nil {
            let outputSeconds = (last.outputNanoseconds ?? 0) / 1e9
            events.append(
                .serverTimings(
                    ServerTimingsReport(
                        promptTokens: last.promptTokens ?? 0, cachedTokens: 0,
                        promptMilliseconds: (last.promptNanoseconds ?? 0) / 1e6,
                        predictedTokens: last.outputTokens ?? 0,
                        predictedMilliseconds: (last.outputNanoseconds ?? 0) / 1e6,
                        predictedPerSecond: outputSeconds > 0 ? Double(last.outputTokens ?? 0) / outputSeconds : 0,
                        queueMilliseconds: last.loadNanoseconds.map { $0 / 1e6 })))
        }
        events.append(.finished(reason: last.reason ?? "stop"))
        return events
    }

    /// A call as Ollama writes it (`{"function": {"name", "arguments"}}`, in a response or in a
    /// request's history): its own `id` when it has one, else one made of `createdAt` (the
    /// response's, or nil), `index`, its name and its arguments.
    package static func toolCall(_ call: [String: Any], index: Int, createdAt: String?) -> ToolCallRequest {
        let function = call["function"] as? [String: Any]
        let name = function?["name"] as? String ?? ""
        let arguments = argumentsText(function?["arguments"])
        let id =
            (call["id"] as? String).flatMap { $0.isEmpty ? nil : $0 }
            ?? ToolCallID.make(responseID: createdAt, index: index, name: name, arguments: arguments)
        return ToolCallRequest(id: id, name: name, arguments: arguments)
    }

    /// Ollama sends a call's arguments as a JSON object: its text, keys sorted, so the same call
    /// gives the same text; a string is taken as it is.
    private static func argumentsText(_ value: Any?) -> String {
        if let text = value as? String { return text }
        let text = JSONValue.text(value)
        return text.isEmpty ? "{}" : text
    }
}
