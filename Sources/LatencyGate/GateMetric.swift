import Reproducible
import TraceAnalysis
import TraceModel

/// What the latency gate and `trace-report diff` measure per request, and which way is worse.
///
/// Timing metrics (`ttft`, `latency`, `tokens_per_second`) vary with machine load, so a change
/// in them must also be beyond the bootstrap's noise to count. Behaviour metrics (`tool_calls`,
/// `input_tokens`, `cache_hit_rate`, `repeated_tool_calls`) do not move with the clock, so they
/// are compared against their budget directly; they do move with the model's answers, which
/// differ between machines, and ``Workload`` takes that into account.
public enum GateMetric: String, Sendable, CaseIterable, Hashable {
    case ttft
    case latency
    case tokensPerSecond = "tokens_per_second"
    case toolCalls = "tool_calls"
    case inputTokens = "input_tokens"
    case cacheHitRate = "cache_hit_rate"
    case repeatedToolCalls = "repeated_tool_calls"
    /// Dollars per request, from `--prices`; a count of tokens times prices, not timed.
    case cost

    /// True when a larger value is a regression (latency), false when a smaller one is (rate).
    public var higherIsWorse: Bool {
        switch self {
        case .tokensPerSecond, .cacheHitRate: false
        default: true
        }
    }

    /// True for metrics measured by the clock, which the statistical check applies to.
    public var isTiming: Bool {
        switch self {
        case .ttft, .latency, .tokensPerSecond: true
        default: false
        }
    }

    /// The metric's name for people, as annotation titles show it.
    public var title: String {
        switch self {
        case .ttft: "Time to first token"
        case .latency: "Latency"
        case .tokensPerSecond: "Generation rate"
        case .toolCalls: "Tool calls"
        case .inputTokens: "Input tokens"
        case .cacheHitRate: "Cache hit rate"
        case .repeatedToolCalls: "Repeated tool calls"
        case .cost: "Cost"
        }
    }

    /// A value of this metric in JSON: durations as whole nanoseconds, other values as numbers,
    /// null when unknown.
    func json(_ value: Double?) -> OrderedJSON {
        guard let value, value.isFinite else { return .null }
        return self == .ttft || self == .latency ? .int(Int64(value.rounded())) : .double(value)
    }

    /// The unit an absolute budget limit is written in, for messages.
    var absoluteUnitHint: String {
        switch self {
        case .ttft, .latency: "a duration such as 50ms or 0.2s"
        case .tokensPerSecond: "tokens per second such as 2tok/s"
        case .toolCalls: "calls per request such as 0.5"
        case .inputTokens: "tokens such as 64"
        case .cacheHitRate: "percentage points such as 5pt"
        case .repeatedToolCalls: "a count such as 0"
        case .cost: "dollars such as $0.001"
        }
    }

    /// A value of this metric for people: durations in ms/s, rates, counts, percentages.
    package func format(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "-" }
        switch self {
        case .ttft, .latency: return Format.duration(Int64(value.rounded()))
        case .tokensPerSecond: return Format.fixed(value, 1) + " tok/s"
        case .toolCalls: return Format.fixed(value, 2)
        case .inputTokens: return Format.fixed(value, value.rounded() == value ? 0 : 1)
        case .cacheHitRate: return Format.fixed(value * 100, 1) + "%"
        case .repeatedToolCalls: return Format.fixed(value, 0)
        case .cost: return "$" + Format.fixed(value, 6)
        }
    }

    /// A change of this metric, with its sign: `+310 ms`, `-4.0 pt`.
    package func formatDelta(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "-" }
        let sign = value >= 0 ? "+" : "-"
        switch self {
        case .ttft, .latency: return sign + Format.duration(Int64(abs(value).rounded()))
        case .cacheHitRate: return sign + Format.fixed(abs(value) * 100, 1) + " pt"
        default: return sign + format(abs(value))
        }
    }
}

/// Which number of a metric's per-request distribution is compared.
public enum GateStatistic: Sendable, Hashable, CustomStringConvertible {
    /// A nearest-rank percentile (see ``Percentile``), 0 < p ≤ 100: `p50`, `p95`.
    case percentile(Double)
    /// The arithmetic mean of the per-request values.
    case mean
    /// Cache hit rate only: cached input tokens over input tokens, each summed over the
    /// requests (the definition of `summary`).
    case overall
    /// Repeated tool calls only: findings of the candidate that the baseline does not have.
    case new

    public var description: String {
        switch self {
        case .percentile(let p): "p" + (p == p.rounded() ? String(Int(p)) : String(p))
        case .mean: "mean"
        case .overall: "overall"
        case .new: "new"
        }
    }

    /// Parses `p50`, `p99.9`, `mean`, `overall`, `new`.
    static func parse(_ text: String) -> GateStatistic? {
        switch text {
        case "mean": return .mean
        case "overall": return .overall
        case "new": return .new
        default:
            guard text.hasPrefix("p"), let value = Double(text.dropFirst()), value > 0, value <= 100 else {
                return nil
            }
            return .percentile(value)
        }
    }

    /// True when `metric` can be summarised by this statistic.
    func applies(to metric: GateMetric) -> Bool {
        switch self {
        case .percentile, .mean: metric != .repeatedToolCalls
        case .overall: metric == .cacheHitRate
        case .new: metric == .repeatedToolCalls
        }
    }
}

/// A metric and the statistic compared, `ttft.p95`: the key of a budget and of a report row.
public struct MetricKey: Sendable, Hashable, CustomStringConvertible, Comparable {
    public var metric: GateMetric
    public var statistic: GateStatistic

    public init(_ metric: GateMetric, _ statistic: GateStatistic) {
        self.metric = metric
        self.statistic = statistic
    }

    public var description: String { "\(metric.rawValue).\(statistic)" }

    public static func < (lhs: MetricKey, rhs: MetricKey) -> Bool {
        let order = GateMetric.allCases
        let left = order.firstIndex(of: lhs.metric)!
        let right = order.firstIndex(of: rhs.metric)!
        return left != right ? left < right : lhs.statistic.description < rhs.statistic.description
    }

    /// The value of this statistic over `rows`, or nil when no row has the metric.
    func value(of rows: [RequestSample]) -> Double? {
        if metric == .cacheHitRate, statistic == .overall {
            var cached = 0.0
            var input = 0.0
            for row in rows {
                guard let tokens = row.inputTokens, let hit = row.cachedInputTokens else { continue }
                cached += Double(hit)
                input += Double(tokens)
            }
            return input > 0 ? cached / input : nil
        }
        let values = rows.compactMap { $0.value(of: metric) }
        guard !values.isEmpty else { return nil }
        switch statistic {
        case .percentile(let p): return Percentile.nearestRank(p, of: values)
        case .mean: return values.reduce(0, +) / Double(values.count)
        case .overall, .new: return nil
        }
    }
}
