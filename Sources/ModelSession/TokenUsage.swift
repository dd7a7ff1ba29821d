/// Token counts a server reported for one request; nil where the server said nothing.
public struct TokenUsage: Sendable, Hashable, Codable {
    /// All input tokens, including cached ones (`gen_ai.usage.input_tokens`). Anthropic reports
    /// uncached input apart from cache reads and writes; its backend adds them up.
    public var inputTokens: Int?
    /// Input tokens served from the server's prompt cache.
    public var cachedInputTokens: Int?
    public var outputTokens: Int?
    /// Input tokens written to the cache (Anthropic's `cache_creation_input_tokens`).
    public var cacheCreationInputTokens: Int?

    public init(
        inputTokens: Int? = nil, cachedInputTokens: Int? = nil, outputTokens: Int? = nil,
        cacheCreationInputTokens: Int? = nil
    ) {
        self.inputTokens = inputTokens
        self.cachedInputTokens = cachedInputTokens
        self.outputTokens = outputTokens
        self.cacheCreationInputTokens = cacheCreationInputTokens
    }

    /// The sum over several requests (a tool loop); a field stays nil only if nil on both sides.
    public static func + (lhs: TokenUsage, rhs: TokenUsage) -> TokenUsage {
        func add(_ a: Int?, _ b: Int?) -> Int? { a == nil && b == nil ? nil : (a ?? 0) + (b ?? 0) }
        return TokenUsage(
            inputTokens: add(lhs.inputTokens, rhs.inputTokens),
            cachedInputTokens: add(lhs.cachedInputTokens, rhs.cachedInputTokens),
            outputTokens: add(lhs.outputTokens, rhs.outputTokens),
            cacheCreationInputTokens: add(lhs.cacheCreationInputTokens, rhs.cacheCreationInputTokens))
    }
}
