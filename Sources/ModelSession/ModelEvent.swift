/// One thing a model reported while answering a request.
public enum ModelEvent: Sendable, Hashable {
    /// The first output token of any kind arrived: reasoning, answer text, tool-call arguments or
    /// structured JSON. Sent once, before anything it starts, so that time to first token is
    /// measurable even when output is assembled before it is reported.
    case outputStarted
    /// Text of the answer, as it arrives.
    case contentDelta(String)
    /// Text of the model's reasoning (its thinking), as it arrives: tokens it generates before or
    /// between the answer's, which the answer does not hold (`reasoning_content`, `thinking_delta`,
    /// Ollama's `thinking`, the Responses API's reasoning text).
    case reasoningDelta(String)
    /// A complete tool call, arguments assembled.
    case toolCall(ToolCallRequest)
    /// Token counts as the server reported them.
    case usage(TokenUsage)
    /// The response's id, the model that answered and the server's address; sent once, before
    /// ``finished(reason:)`` or the error that ends the stream, when a response came at all.
    case responseInfo(ResponseInfo)
    /// llama.cpp's `timings` object: prompt processing and generation speed, cache reuse; or
    /// vLLM's `metrics` object, with its queue time.
    case serverTimings(ServerTimingsReport)
    /// The client's phases of the exchange, sent when the first byte of the response arrives.
    case connectionPhases(ConnectionPhases)
    /// The last event of a successful stream, with the server's finish reason
    /// (`stop`, `length`, `tool_calls`, `end_turn`, `max_tokens`, `tool_use`).
    case finished(reason: String)
}
