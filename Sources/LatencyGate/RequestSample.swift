import SessionTrace

/// One request's figures, as the gate and `diff` compare them: the raw sample, so a baseline
/// keeps whole distributions and can be resampled, not just their percentiles.
public struct RequestSample: Sendable, Hashable {
    public var ttft: Int64?
    public var latency: Int64
    public var tokensPerSecond: Double?
    public var toolCalls: Int64
    /// The token counts the server reported, for the token metrics and for pricing; nil where not
    /// reported (and, for output and cache writes, in baselines written before they were kept).
    public var usage: RequestUsage
    /// The provider the request went to (`gen_ai.provider.name`), for pricing.
    public var provider: String?
    /// The request's cost in dollars, set by ``LatencyBaseline/priced(by:)``; nil unpriced.
    public var cost: Double?
    /// The response cap and temperature the request asked for (`gen_ai.request.max_tokens`,
    /// `gen_ai.request.temperature`): the settings that shape the model's answers.
    public var maxTokens: Int64?
    public var temperature: Double?
    /// Output tokens of the run's requests that ended before this one began: the most of the
    /// model's own text this request's prompt can carry (see ``Workload``).
    public var earlierOutputTokens: Int64?
    /// The machine's speed around the request (``NearbySpeed``): the mean server generation time
    /// per token, in ns, of the run's requests just before and just after it, itself left out; nil
    /// where none reported one, and in baselines written before it was kept (the run's speed
    /// serves then).
    public var nearbyServerNanosPerToken: Double?

    public var inputTokens: Int64? { usage.inputTokens }
    public var cachedInputTokens: Int64? { usage.cachedInputTokens }
    public var outputTokens: Int64? { usage.outputTokens }

    public init(
        ttft: Int64?, latency: Int64, tokensPerSecond: Double?, toolCalls: Int64, inputTokens: Int64?,
        cachedInputTokens: Int64?, outputTokens: Int64? = nil, provider: String? = nil, cost: Double? = nil,
        maxTokens: Int64? = nil, temperature: Double? = nil, earlierOutputTokens: Int64? = nil
    ) {
        self.init(
            ttft: ttft, latency: latency, tokensPerSecond: tokensPerSecond, toolCalls: toolCalls,
            usage: RequestUsage(inputTokens: inputTokens, cachedInputTokens: cachedInputTokens, outputTokens: outputTokens),
            provider: provider, cost: cost, maxTokens: maxTokens, temperature: temperature,
            earlierOutputTokens: earlierOutputTokens)
    }

    public init(
        ttft: Int64?, latency: Int64, tokensPerSecond: Double?, toolCalls: Int64, usage: RequestUsage,
        provider: String? = nil, cost: Double? = nil, maxTokens: Int64? = nil, temperature: Double? = nil,
        earlierOutputTokens: Int64? = nil, nearbyServerNanosPerToken: Double? = nil
    ) {
        self.ttft = ttft
        self.latency = latency
        self.tokensPerSecond = tokensPerSecond
        self.toolCalls = toolCalls
        self.usage = usage
        self.provider = provider
        self.cost = cost
        self.maxTokens = maxTokens
        self.temperature = temperature
        self.earlierOutputTokens = earlierOutputTokens
        self.nearbyServerNanosPerToken = nearbyServerNanosPerToken
    }

    /// The request's value of `metric`; cache hit rate is its own cached/input ratio.
    func value(of metric: GateMetric) -> Double? {
        switch metric {
        case .ttft: ttft.map(Double.init)
        case .latency: Double(latency)
        case .tokensPerSecond: tokensPerSecond
        case .toolCalls: Double(toolCalls)
        case .inputTokens: inputTokens.map(Double.init)
        case .cacheHitRate:
            if let input = inputTokens, let cached = cachedInputTokens, input > 0 {
                Double(cached) / Double(input)
            } else {
                nil
            }
        case .cost: cost
        case .repeatedToolCalls: nil
        }
    }
}
