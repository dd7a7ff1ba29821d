/// A model a session asks for a response: one request in, a stream of events out.
///
/// Backends (``OpenAICompatibleModel``, ``AnthropicModel``, ``OllamaModel``) speak HTTP; tests use fakes;
/// middleware wraps a model to observe its events without changing them.
public protocol LanguageModel: Sendable {
    /// `gen_ai.provider.name`, e.g. `"openai"`, `"anthropic"`.
    var provider: String { get }
    /// `gen_ai.request.model`.
    var modelName: String { get }
    /// Streams one response. The stream ends with ``ModelEvent/finished(reason:)`` or an error;
    /// cancelling the consuming task cancels the request.
    func stream(_ request: ModelRequest) -> AsyncThrowingStream<ModelEvent, any Error>
}
