import Foundation
import Reproducible
import TraceAnalysis

/// Confidence intervals of a change, by a seeded two-level bootstrap.
///
/// Each resample draws, for the baseline and the current side independently, runs with
/// replacement, and then requests with replacement within each drawn run; the statistic is taken
/// over the pooled draw and the difference (current − baseline) recorded. The interval is the
/// percentile interval of those differences. Drawing runs first matters here: requests of one run
/// share the machine's load at the time, so they are not independent, and a baseline recorded
/// over several runs carries that run-to-run spread into the interval. A side with one run falls
/// back to drawing requests; its run-to-run spread cannot be seen from one run, so for timing
/// metrics it borrows the other side's: each resample multiplies its statistic by the ratio of
/// one randomly drawn run of the other side to that side's pooled value (how much slower or faster
/// a single run was than the whole), so one candidate run on a busier machine is not mistaken for
/// a regression. This widens the interval by exactly the load variation the baseline recorded.
///
/// The generator is seeded from the group and metric names, so the same inputs give the same
/// interval on every machine and every CI run.
public struct Bootstrap: Sendable {
    /// Resamples drawn; 2000 keeps the 2.5th and 97.5th percentiles stable to about a percent.
    public var resamples: Int
    /// Two-sided confidence of the interval, 0.95 by default.
    public var confidence: Double

    public init(resamples: Int = 2000, confidence: Double = 0.95) {
        self.resamples = resamples
        self.confidence = confidence
    }

    /// A change's interval: `lower ≤ current − baseline ≤ upper` at the configured confidence.
    public struct Interval: Sendable, Hashable {
        public var lower: Double
        public var upper: Double

        /// True when the whole interval lies on the worse side of zero for `metric`.
        public func isWorse(for metric: GateMetric) -> Bool {
            metric.higherIsWorse ? lower > 0 : upper < 0
        }

        /// True when zero is outside the interval, in either direction.
        public var excludesZero: Bool { lower > 0 || upper < 0 }
    }

    /// The interval of every statistic in `keys` between `baseline` and `current`, from one set
    /// of resamples (the same draws serve every statistic of a group).
    public func intervals(
        baseline: ScenarioSamples, current: ScenarioSamples, keys: [MetricKey]
    ) -> [MetricKey: Interval] {
        guard !keys.isEmpty, baseline.requestCount > 0, current.requestCount > 0 else { return [:] }
        var generator = SplitMix64(seed: Self.seed("\(baseline.key)"))
        var differences: [MetricKey: [Double]] = [:]
        let leftRuns = baseline.runs.filter { !$0.requests.isEmpty }
        let rightRuns = current.runs.filter { !$0.requests.isEmpty }
        // Run-level factors borrowed by a side of one run from the other side of several.
        let borrowLeft = leftRuns.count == 1 && rightRuns.count > 1
        let borrowRight = rightRuns.count == 1 && leftRuns.count > 1
        var factors: [MetricKey: [Double]] = [:]
        if borrowLeft || borrowRight {
            let donor = borrowRight ? leftRuns : rightRuns
            for key in keys where key.metric.isTiming {
                // Each run's statistic over their geometric mean: factors centred on 1.
                let values = donor.compactMap { key.value(of: $0.requests) }.filter { $0 > 0 }
                guard values.count > 1 else { continue }
                let centre = exp(values.map(log).reduce(0, +) / Double(values.count))
                factors[key] = values.map { $0 / centre }
            }
        }
        for _ in 0..<resamples {
            let left = Self.draw(leftRuns, using: &generator)
            let right = Self.draw(rightRuns, using: &generator)
            let pick = Int.random(in: 0..<max(leftRuns.count, rightRuns.count), using: &generator)
            for key in keys {
                guard var before = key.value(of: left), var after = key.value(of: right) else { continue }
                if let ratios = factors[key] {
                    let factor = ratios[pick % ratios.count]
                    if borrowRight { after *= factor } else { before *= factor }
                }
                differences[key, default: []].append(after - before)
            }
        }
        var result: [MetricKey: Interval] = [:]
        let tail = (1 - confidence) / 2 * 100
        for (key, values) in differences where values.count >= resamples / 2 {
            let lowerRank = max(tail, 0.0001)
            result[key] = Interval(
                lower: Percentile.nearestRank(lowerRank, of: values)!,
                upper: Percentile.nearestRank(100 - tail, of: values)!)
        }
        return result
    }

    /// One resample of a side: runs with replacement, then requests with replacement in each.
    static func draw(_ runs: [ScenarioSamples.Run], using generator: inout SplitMix64) -> [RequestSample] {
        let nonEmpty = runs.filter { !$0.requests.isEmpty }
        guard !nonEmpty.isEmpty else { return [] }
        var out: [RequestSample] = []
        if nonEmpty.count == 1 {
            let requests = nonEmpty[0].requests
            for _ in 0..<requests.count { out.append(requests[Int.random(in: 0..<requests.count, using: &generator)]) }
            return out
        }
        for _ in 0..<nonEmpty.count {
            let requests = nonEmpty[Int.random(in: 0..<nonEmpty.count, using: &generator)].requests
            for _ in 0..<requests.count { out.append(requests[Int.random(in: 0..<requests.count, using: &generator)]) }
        }
        return out
    }

    /// FNV-1a of `text`: a seed that, unlike `Hasher`, is the same in every process.
    static func seed(_ text: String) -> UInt64 { FNV1a.hash(text) }
}
