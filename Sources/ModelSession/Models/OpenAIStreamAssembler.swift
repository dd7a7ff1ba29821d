import Foundation

/// Assembles chat completion chunks (and those of a legacy completion, whose `text` is its
/// content): content and reasoning deltas pass through (reasoning as llama.cpp and DeepSeek write
/// it, `reasoning_content`, or as vLLM and OpenRouter do, `reasoning`), tool call fragments join by
/// index, usage and the server's own timings (llama.cpp's `timings`, vLLM's `metrics`) arrive at
/// the end, `[DONE]` closes the stream.
package struct OpenAIStreamAssembler: ModelEventAssembler {
    let url: URL
    /// Content is the JSON of ``StructuredToolCalling``: kept back and decoded at the end.
    let expectsStructuredOutput: Bool

    package private(set) var responseID: String?
    package private(set) var responseModel: String?
    private var toolCalls: [Int: ToolCallRequest] = [:]
    private var structuredReply = ""
    private var usage: TokenUsage?
    private var timings: ServerTimingsReport?
    private var metrics: VLLMMetrics?
    private var finishReason: String?
    private var sawDone = false
    private var outputStarted = false

    package init(url: URL, expectsStructuredOutput: Bool = false) {
        self.url = url
        self.expectsStructuredOutput = expectsStructuredOutput
    }

    package mutating func consume(_ event: ServerSentEvent) throws -> [ModelEvent] {
        if event.data == "[DONE]" {
            sawDone = true
            return []
        }
        let chunk = try JSONDecoder.decodeEvent(Chunk.self, from: event, url: url)
        if let error = chunk.error {
            throw HTTPEndpoint.Error.serverError(
                url: url, message: HTTPEndpoint.Error.serverText(error.message ?? event.data))
        }
        if responseID == nil { responseID = chunk.id }
        if responseModel == nil { responseModel = chunk.model }
        if let reported = chunk.usage {
            usage = TokenUsage(
                inputTokens: reported.promptTokens,
                cachedInputTokens: reported.promptTokensDetails?.cachedTokens,
                outputTokens: reported.completionTokens)
        }
        if let reported = chunk.timings { timings = reported }
        if let reported = chunk.metrics { metrics = reported }
        var events: [ModelEvent] = []
        for choice in chunk.choices ?? [] where (choice.index ?? 0) == 0 {
            if let reason = choice.finishReason { finishReason = reason }
            let reasoning = choice.delta?.reasoningContent ?? choice.delta?.reasoning ?? ""
            let hasOutput =
                !reasoning.isEmpty || !choice.content.isEmpty || !(choice.delta?.toolCalls ?? []).isEmpty
            if hasOutput, !outputStarted {
                outputStarted = true
                events.append(.outputStarted)
            }
            if !reasoning.isEmpty { events.append(.reasoningDelta(reasoning)) }
            if !choice.content.isEmpty {
                if expectsStructuredOutput {
                    structuredReply += choice.content
                } else {
                    events.append(.contentDelta(choice.content))
                }
            }
            for fragment in choice.delta?.toolCalls ?? [] {
                let index = fragment.index ?? 0
                var call = toolCalls[index] ?? ToolCallRequest(id: "", name: "", arguments: "")
                if let id = fragment.id, !id.isEmpty { call.id = id }
                call.name += fragment.function?.name ?? ""
                call.arguments += fragment.function?.arguments ?? ""
                toolCalls[index] = call
            }
        }
        return events
    }

    package mutating func finish() throws -> [ModelEvent] {
        guard sawDone || finishReason != nil else {
            throw HTTPEndpoint.Error.truncatedStream(url: url, reason: "no finish_reason and no [DONE]")
        }
        var events: [ModelEvent] = []
        if expectsStructuredOutput {
            events += StructuredToolCalling.events(fromReply: structuredReply, responseID: responseID)
        }
        for index in toolCalls.keys.sorted() {
            var call = toolCalls[index]!
            if call.id.isEmpty {
                call.id = ToolCallID.make(
                    responseID: responseID, index: index, name: call.name, arguments: call.arguments)
            }
            events.append(.toolCall(call))
        }
        if let usage { events.append(.usage(usage)) }
        if let timings = timings ?? metrics.map(serverTimings) { events.append(.serverTimings(timings)) }
        let hasToolCall = events.contains { if case .toolCall = $0 { true } else { false } }
        events.append(
            .finished(reason: hasToolCall && expectsStructuredOutput ? "tool_calls" : finishReason ?? "stop"))
        return events
    }

    /// vLLM's per-request metrics (`--enable-per-request-metrics`) as llama.cpp's timings hold
    /// them: its time to first token (from scheduling: prefill and the first decode) as the
    /// prompt's time, its decode time as the generation's, the token counts from the usage.
    private func serverTimings(_ metrics: VLLMMetrics) -> ServerTimingsReport {
        let cached = usage?.cachedInputTokens ?? 0
        return ServerTimingsReport(
            promptTokens: max(0, (usage?.inputTokens ?? 0) - cached), cachedTokens: cached,
            promptMilliseconds: metrics.timeToFirstTokenMilliseconds ?? 0, predictedTokens: usage?.outputTokens ?? 0,
            predictedMilliseconds: metrics.generationMilliseconds ?? 0, predictedPerSecond: metrics.tokensPerSecond ?? 0,
            queueMilliseconds: metrics.queueMilliseconds)
    }

    private struct VLLMMetrics: Decodable {
        var timeToFirstTokenMilliseconds: Double?
        var generationMilliseconds: Double?
        var queueMilliseconds: Double?
        var tokensPerSecond: Double?
        enum CodingKeys: String, CodingKey {
            case timeToFirstTokenMilliseconds = "time_to_first_token_ms"
            case generationMilliseconds = "generation_time_ms"
            case queueMilliseconds = "queue_time_ms"
            case tokensPerSecond = "tokens_per_second"
        }
    }

    private struct Chunk: Decodable {
        var id: String?
        var model: String?
        var choices: [Choice]?
        var usage: Usage?
        var timings: ServerTimingsReport?
        var metrics: VLLMMetrics?
        var error: ErrorBody?
    }

    private struct Choice: Decodable {
        var index: Int?
        var delta: Delta?
        /// A (legacy) completion's text, where a chat completion has its delta.
        var text: String?
        var finishReason: String?
        enum CodingKeys: String, CodingKey {
            case index, delta, text
            case finishReason = "finish_reason"
        }

        /// The content this chunk adds: the delta's, or the completion's text.
        var content: String { delta?.content ?? text ?? "" }
    }

    private struct Delta: Decodable {
        var content: String?
        var reasoningContent: String?
        var reasoning: String?
        var toolCalls: [ToolCallFragment]?
        enum CodingKeys: String, CodingKey {
            case content, reasoning
            case reasoningContent = "reasoning_content"
            case toolCalls = "tool_calls"
        }
    }

    private struct ToolCallFragment: Decodable {
        var index: Int?
        var id: String?
        var function: FunctionFragment?
    }

    private struct FunctionFragment: Decodable {
        var name: String?
        var arguments: String?
    }

    private struct Usage: Decodable {
        var promptTokens: Int?
        var completionTokens: Int?
        var promptTokensDetails: PromptTokensDetails?
        enum CodingKeys: String, CodingKey {
            case promptTokens = "prompt_tokens"
            case completionTokens = "completion_tokens"
            case promptTokensDetails = "prompt_tokens_details"
        }
    }

    private struct PromptTokensDetails: Decodable {
        var cachedTokens: Int?
        enum CodingKeys: String, CodingKey { case cachedTokens = "cached_tokens" }
    }

    struct ErrorBody: Decodable {
        var message: String?
    }
}
