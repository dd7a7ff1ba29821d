import Reproducible
import TraceModel

/// `trace-report diff`: two runs (or sets of runs) side by side, per scenario and metric, with
/// the bootstrap interval of the change and whether it is beyond noise (the interval excludes 0).
public struct RunComparison: Sendable {
    public struct Row: Sendable {
        public var group: ScenarioKey
        public var key: MetricKey
        public var a: Double?
        public var b: Double?
        public var interval: Bootstrap.Interval?

        public var delta: Double? {
            guard let a, let b else { return nil }
            return b - a
        }

        /// True when the interval excludes no change.
        public var beyondNoise: Bool { interval?.excludesZero ?? false }
    }

    /// The statistics compared, in order.
    public static let keys: [MetricKey] = [
        MetricKey(.ttft, .percentile(50)), MetricKey(.ttft, .percentile(95)),
        MetricKey(.latency, .percentile(50)), MetricKey(.latency, .percentile(95)),
        MetricKey(.tokensPerSecond, .percentile(50)), MetricKey(.toolCalls, .mean),
        MetricKey(.inputTokens, .percentile(50)), MetricKey(.inputTokens, .mean),
        MetricKey(.cacheHitRate, .overall),
    ]

    public var a: LatencyBaseline
    public var b: LatencyBaseline
    public var rows: [Row]
    /// Scenario sample counts: (A, B).
    public var samples: [ScenarioKey: (Int, Int)]
    public var onlyInA: [ScenarioKey]
    public var onlyInB: [ScenarioKey]
    public var confidence: Double

    public static func compare(_ a: LatencyBaseline, _ b: LatencyBaseline, bootstrap: Bootstrap = Bootstrap())
        -> RunComparison
    {
        var rows: [Row] = []
        var samples: [ScenarioKey: (Int, Int)] = [:]
        for left in a.groups {
            guard let right = b.group(left.key) else { continue }
            samples[left.key] = (left.requestCount, right.requestCount)
            let intervals = bootstrap.intervals(baseline: left, current: right, keys: keys)
            for key in keys {
                rows.append(Row(group: left.key, key: key, a: key.value(of: left.requests),
                                b: key.value(of: right.requests), interval: intervals[key]))
            }
        }
        return RunComparison(
            a: a, b: b, rows: rows, samples: samples,
            onlyInA: a.groups.map(\.key).filter { b.group($0) == nil },
            onlyInB: b.groups.map(\.key).filter { a.group($0) == nil }, confidence: bootstrap.confidence)
    }

    public var json: OrderedJSON {
        func scenario(_ key: ScenarioKey) -> [(String, OrderedJSON)] {
            [("scenario", .string(key.scenario)), ("profile", .string(key.profile)), ("model", .string(key.model))]
        }
        return .object([
            ("a", .array(a.sources.map(OrderedJSON.string))),
            ("b", .array(b.sources.map(OrderedJSON.string))),
            ("group_by", .string(a.grouping.rawValue)),
            ("confidence", .double(confidence)),
            ("scenarios", .array(samples.keys.sorted().map { key in
                .object(scenario(key) + [
                    ("a_samples", .int(Int64(samples[key]!.0))),
                    ("b_samples", .int(Int64(samples[key]!.1))),
                    ("metrics", .array(rows.filter { $0.group == key }.map { row in
                        .object([
                            ("metric", .string(row.key.description)),
                            ("a", row.key.metric.json(row.a)),
                            ("b", row.key.metric.json(row.b)),
                            ("delta", row.key.metric.json(row.delta)),
                            ("ci_lower", row.key.metric.json(row.interval?.lower)),
                            ("ci_upper", row.key.metric.json(row.interval?.upper)),
                            ("beyond_noise", row.interval == nil ? .null : .bool(row.beyondNoise)),
                        ])
                    })),
                ])
            })),
            ("only_in_a", .array(onlyInA.map { .object(scenario($0)) })),
            ("only_in_b", .array(onlyInB.map { .object(scenario($0)) })),
        ])
    }
}
