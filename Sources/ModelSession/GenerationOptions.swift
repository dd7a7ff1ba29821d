/// Sampling and length settings for one request; nil means "the server's default".
public struct GenerationOptions: Sendable, Hashable {
    public var temperature: Double?
    public var maximumResponseTokens: Int?
    /// Whether the model must, may or must not call a tool; nil is ``ToolChoice/automatic``.
    public var toolChoice: ToolChoice?

    public init(
        temperature: Double? = nil, maximumResponseTokens: Int? = nil, toolChoice: ToolChoice? = nil
    ) {
        self.temperature = temperature
        self.maximumResponseTokens = maximumResponseTokens
        self.toolChoice = toolChoice
    }

    /// These options where set, `fallback`'s elsewhere.
    public func overriding(_ fallback: GenerationOptions) -> GenerationOptions {
        GenerationOptions(
            temperature: temperature ?? fallback.temperature,
            maximumResponseTokens: maximumResponseTokens ?? fallback.maximumResponseTokens,
            toolChoice: toolChoice ?? fallback.toolChoice)
    }
}
