import Foundation

/// A model behind Anthropic's Messages API (`/v1/messages`), streamed; llama.cpp's server
/// speaks it too.
///
/// Usage comes from `message_start` (input, `cache_read_input_tokens`,
/// `cache_creation_input_tokens`) and `message_delta` (output). ``TokenUsage/inputTokens``
/// is their sum, as the other backends report it.
public struct AnthropicModel: LanguageModel {
    public let provider: String
    public let modelName: String
    public let endpoint: HTTPEndpoint
    /// Sent when a request sets no maximum: the API requires `max_tokens`.
    public let defaultMaximumResponseTokens: Int

    public init(
        baseURL: URL, modelName: String, apiKey: String? = nil, provider: String = "anthropic",
        apiVersion: String = "2023-06-01", defaultMaximumResponseTokens: Int = 1024,
        timeout: Duration = .seconds(60)
    ) {
        var headers = ["anthropic-version": apiVersion]
        if let apiKey { headers["x-api-key"] = apiKey }
        self.init(
            endpoint: HTTPEndpoint(baseURL: baseURL, headers: headers, timeout: timeout),
            modelName: modelName,
            provider: provider, defaultMaximumResponseTokens: defaultMaximumResponseTokens)
    }

    public init(
        endpoint: HTTPEndpoint, modelName: String, provider: String = "anthropic",
        defaultMaximumResponseTokens: Int = 1024
    ) {
        self.endpoint = endpoint
        self.modelName = modelName
        self.provider = provider
        self.defaultMaximumResponseTokens = defaultMaximumResponseTokens
    }

    public func stream(_ request: ModelRequest) -> AsyncThrowingStream<ModelEvent, any Error> {
        let body = Data(requestBody(for: request).compact().utf8)
        let assembler = AnthropicStreamAssembler(url: endpoint.url(for: "messages"))
        return EventStreamClient(endpoint: endpoint).modelEvents(
            path: "messages", body: body, assembler: assembler)
    }
}
