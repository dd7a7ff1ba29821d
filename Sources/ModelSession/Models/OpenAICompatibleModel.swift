import Foundation

/// A model behind an OpenAI-compatible chat completions API (OpenAI, llama.cpp's server,
/// vLLM, Ollama), streamed over server-sent events.
///
/// ```swift
/// let model = OpenAICompatibleModel(baseURL: server.baseURL, modelName: "smollm2",
///                                   toolCalling: .structuredOutput)
/// ```
///
/// Reports usage (`stream_options.include_usage`, with `prompt_tokens_details.cached_tokens`)
/// and, from llama.cpp, its `timings` object.
public struct OpenAICompatibleModel: LanguageModel {
    /// How tools reach the model.
    public enum ToolCalling: Sendable, Hashable {
        /// The API's `tools` and `tool_calls`; needs a chat template that renders tools.
        case native
        /// Tools described in the system prompt; the model answers with JSON constrained by
        /// `response_format` to `{"tool": name, "arguments": {...}}` or `{"answer": text}`.
        /// For models without tool support in their template, e.g. SmolLM2 on llama.cpp, which
        /// ignores `tools` for such templates and refuses a grammar together with `tools`.
        case structuredOutput
    }

    public let provider: String
    public let modelName: String
    public let endpoint: HTTPEndpoint
    public let toolCalling: ToolCalling

    public init(
        baseURL: URL, modelName: String, apiKey: String? = nil, provider: String = "openai",
        toolCalling: ToolCalling = .native, timeout: Duration = .seconds(60)
    ) {
        var headers: [String: String] = [:]
        if let apiKey { headers["Authorization"] = "Bearer \(apiKey)" }
        self.init(
            endpoint: HTTPEndpoint(baseURL: baseURL, headers: headers, timeout: timeout),
            modelName: modelName,
            provider: provider, toolCalling: toolCalling)
    }

    public init(
        endpoint: HTTPEndpoint, modelName: String, provider: String = "openai",
        toolCalling: ToolCalling = .native
    ) {
        self.endpoint = endpoint
        self.modelName = modelName
        self.provider = provider
        self.toolCalling = toolCalling
    }

    public func stream(_ request: ModelRequest) -> AsyncThrowingStream<ModelEvent, any Error> {
        let body = Data(requestBody(for: request).compact().utf8)
        let structured = toolCalling == .structuredOutput && request.effectiveToolChoice != .none
        let assembler = OpenAIStreamAssembler(
            url: endpoint.url(for: "chat/completions"), expectsStructuredOutput: structured)
        return EventStreamClient(endpoint: endpoint).modelEvents(
            path: "chat/completions", body: body, assembler: assembler)
    }
}
