/// What the server measured itself of one request: llama.cpp's `timings` object, or what a
/// backend reads from another server's report (vLLM's `metrics` object, Ollama's durations).
public struct ServerTimingsReport: Sendable, Hashable, Codable {
    /// `prompt_n`: prompt tokens processed for this request (not served from the cache).
    public var promptTokens: Int
    /// `cache_n`: prompt tokens reused from the slot's KV cache.
    public var cachedTokens: Int
    /// `prompt_ms`.
    public var promptMilliseconds: Double
    /// `predicted_n`.
    public var predictedTokens: Int
    /// `predicted_ms`.
    public var predictedMilliseconds: Double
    /// `predicted_per_second`.
    public var predictedPerSecond: Double
    /// Time the server held the request before its prompt: its queue (vLLM `queue_time_ms`) or
    /// loading the model (Ollama `load_duration`); nil where the server reports none (llama.cpp's
    /// `timings` has no such field, so it is never decoded).
    public var queueMilliseconds: Double?

    public init(
        promptTokens: Int, cachedTokens: Int, promptMilliseconds: Double, predictedTokens: Int,
        predictedMilliseconds: Double, predictedPerSecond: Double, queueMilliseconds: Double? = nil
    ) {
        self.promptTokens = promptTokens
        self.cachedTokens = cachedTokens
        self.promptMilliseconds = promptMilliseconds
        self.predictedTokens = predictedTokens
        self.predictedMilliseconds = predictedMilliseconds
        self.predictedPerSecond = predictedPerSecond
        self.queueMilliseconds = queueMilliseconds
    }

    enum CodingKeys: String, CodingKey {
        case promptTokens = "prompt_n"
        case cachedTokens = "cache_n"
        case promptMilliseconds = "prompt_ms"
        case predictedTokens = "predicted_n"
        case predictedMilliseconds = "predicted_ms"
        case predictedPerSecond = "predicted_per_second"
    }

    /// Missing fields read as zero: older servers leave out `cache_n`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        promptTokens = try container.decodeIfPresent(Int.self, forKey: .promptTokens) ?? 0
        cachedTokens = try container.decodeIfPresent(Int.self, forKey: .cachedTokens) ?? 0
        promptMilliseconds = try container.decodeIfPresent(Double.self, forKey: .promptMilliseconds) ?? 0
        predictedTokens = try container.decodeIfPresent(Int.self, forKey: .predictedTokens) ?? 0
        predictedMilliseconds =
            try container.decodeIfPresent(Double.self, forKey: .predictedMilliseconds) ?? 0
        predictedPerSecond = try container.decodeIfPresent(Double.self, forKey: .predictedPerSecond) ?? 0
        queueMilliseconds = nil
    }
}
