import TraceAnalysis
import TraceModel

/// The latency gate: every budgeted metric of every scenario the baseline and the current runs
/// share, judged against its budget and, for timing metrics, against noise.
///
/// A timing metric (ttft, latency, tokens_per_second) regresses when its change exceeds the
/// budget (ratio AND floor) and the bootstrap interval of the change (``Bootstrap``) lies wholly
/// on the worse side of zero. A behaviour metric regresses when it exceeds its budget: token and
/// call counts do not move with machine load. `repeated_tool_calls.new` counts repeated-call
/// findings (``ToolFindings``) the baseline did not have.
///
/// Token and call counts do move with the model's answers, which differ from machine to machine.
/// Each scenario's ``Workload`` is compared first; when the model wrote other answers with the
/// same settings on a machine not said to be the same, the checks that follow the model's text are
/// "not comparable" beyond their budget, and latency is judged at the baseline's answer length.
public struct GateEvaluation: Sendable {
    public enum Verdict: String, Sendable {
        case pass
        /// Beyond the budget, but the interval includes no change: noise, not a regression.
        case noise = "within noise"
        case regression
        /// One side has no value for the metric (no request reported it).
        case noData = "no data"
        /// Beyond the budget, but the model wrote other answers (``Workload/Kind/otherAnswers``)
        /// and the metric follows its text: the runs do not show what the change did.
        case notComparable = "not comparable"
    }

    public struct Row: Sendable {
        public var group: ScenarioKey
        public var budget: GateBudget
        public var baselineValue: Double?
        public var currentValue: Double?
        public var baselineSamples: Int
        public var currentSamples: Int
        /// The bootstrap interval of `current − baseline`, for timing metrics.
        public var interval: Bootstrap.Interval?
        public var verdict: Verdict
        /// For repeated tool calls: the new findings.
        public var newFindings: [RepeatedCall] = []
        /// True when the row was judged for what the model's other text does not explain (``Workload``).
        public var restated = false

        public var key: MetricKey { budget.key }
        public var delta: Double? {
            guard let baselineValue, let currentValue else { return nil }
            return currentValue - baselineValue
        }

        /// One sentence on what changed, for annotations and JUnit failures.
        public var message: String {
            let metric = key.metric
            if key.statistic == .new {
                let names = newFindings.map(\.description).joined(separator: "; ")
                return "\(newFindings.count) new repeated tool call finding(s): \(names)"
            }
            var text = "\(key) went from \(metric.format(baselineValue)) to \(metric.format(currentValue))"
                + " (\(metric.formatDelta(delta))"
            if let base = baselineValue, let delta, base != 0 {
                text += ", " + (delta >= 0 ? "+" : "-") + Format.fixed(abs(delta / base) * 100, 0) + "%"
            }
            text += ")"
            if let interval {
                text += "; 95% CI of the change \(metric.formatDelta(interval.lower)) to \(metric.formatDelta(interval.upper))"
            }
            if restated { text += "; restated for the model's other text (see the workload note)" }
            return text + "; budget \(budget.limitText)"
        }
    }

    public var rows: [Row]
    /// Each gated scenario's workload against the baseline's.
    public var workloads: [Workload]
    /// Baseline scenarios the current runs did not record, and new scenarios not gated.
    public var notes: [String]
    public var minSamples: Int
    public var confidence: Double

    public var regressions: [Row] { rows.filter { $0.verdict == .regression } }
    public var passed: Bool { regressions.isEmpty }

    /// Why the gate could not judge: exit 2.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        case tooFewSamples(group: ScenarioKey, side: String, count: Int, minimum: Int)
        case nothingInCommon(baseline: [ScenarioKey], current: [ScenarioKey])

        /// The first few scenarios, each cut to a readable length, and how many more there are.
        private static func list(_ keys: [ScenarioKey]) -> String {
            let shown = keys.prefix(5).map { TerminalText.fitted($0.description, width: 80) }
            return shown.joined(separator: ", ") + (keys.count > 5 ? " and \(keys.count - 5) more" : "")
        }

        public var description: String {
            switch self {
            case .tooFewSamples(let group, let side, let count, let minimum):
                "scenario '\(TerminalText.fitted(group.description, width: 80))' has \(count) "
                    + "request\(count == 1 ? "" : "s") in the \(side), fewer than the \(minimum) needed "
                    + "(--min-samples); record more runs"
            case .nothingInCommon(let baseline, let current):
                "no scenario of the baseline (\(Self.list(baseline))) is in the current runs "
                    + "(\(current.isEmpty ? "no requests" : Self.list(current))); check the run label, --group-by "
                    + "and the profile and model names"
            }
        }
    }

    /// Judges `current` against `baseline` with `configuration`.
    public static func evaluate(
        baseline: LatencyBaseline, current: LatencyBaseline, configuration: GateConfiguration = GateConfiguration(),
        bootstrap: Bootstrap = Bootstrap()
    ) throws(Failure) -> GateEvaluation {
        var notes: [String] = []
        var baseline = baseline
        var current = current
        if configuration.normalizesSpeed {
            if let reference = baseline.medianServerNanosPerToken, let now = current.medianServerNanosPerToken {
                baseline = baseline.normalized(toServerNanosPerToken: reference)
                current = current.normalized(toServerNanosPerToken: reference)
                notes.append("timing normalized to the baseline's server speed, \(Format.fixed(reference / 1e6, 1)) ms "
                    + "a generated token; the current runs' median was \(Format.fixed(now / 1e6, 1)) ms "
                    + "(\(Format.fixed(now / reference, 2))×); --speed raw compares raw times")
            } else {
                notes.append("timing not normalized: the \(baseline.medianServerNanosPerToken == nil ? "baseline" : "current runs") "
                    + "has no server timings")
            }
        }
        var pairs: [(ScenarioSamples, ScenarioSamples)] = []
        for group in baseline.groups {
            if let mine = current.group(group.key) {
                pairs.append((group, mine))
            } else {
                notes.append("scenario '\(group.key)' of the baseline was not in the current runs; not gated")
            }
        }
        for group in current.groups where baseline.group(group.key) == nil {
            notes.append("scenario '\(group.key)' is new (not in the baseline); not gated")
        }
        guard !pairs.isEmpty else {
            throw .nothingInCommon(baseline: baseline.groups.map(\.key), current: current.groups.map(\.key))
        }
        for (before, after) in pairs {
            if before.requestCount < configuration.minSamples {
                throw .tooFewSamples(group: before.key, side: "baseline", count: before.requestCount,
                                     minimum: configuration.minSamples)
            }
            if after.requestCount < configuration.minSamples {
                throw .tooFewSamples(group: after.key, side: "current runs", count: after.requestCount,
                                     minimum: configuration.minSamples)
            }
        }
        let budgets = configuration.budgets.sorted { $0.key < $1.key }
        var rows: [Row] = []
        var workloads: [Workload] = []
        for (before, after) in pairs {
            let workload = Workload.compare(baseline: before, current: after, sameMachine: configuration.sameMachine)
            workloads.append(workload)
            var judged: [GateMetric: (baseline: ScenarioSamples, current: ScenarioSamples)] = [:]
            for metric in GateMetric.allCases {
                judged[metric] = workload.restated(baseline: before, current: after, for: metric)
            }
            var intervals: [MetricKey: Bootstrap.Interval] = [:]
            for metric in GateMetric.allCases where metric.isTiming {
                let keys = budgets.map(\.key).filter { $0.metric == metric }
                guard !keys.isEmpty else { continue }
                let (left, right) = judged[metric] ?? (before, after)
                intervals.merge(bootstrap.intervals(baseline: left, current: right, keys: keys)) { first, _ in first }
            }
            for budget in budgets {
                let metric = budget.key.metric
                let beforeRows = (judged[metric]?.baseline ?? before).requests
                let afterRows = (judged[metric]?.current ?? after).requests
                var row = Row(
                    group: before.key, budget: budget, baselineValue: nil, currentValue: nil,
                    baselineSamples: beforeRows.count, currentSamples: afterRows.count, interval: nil, verdict: .pass,
                    restated: judged[metric] != nil)
                if budget.key.statistic == .new {
                    let known = Set(before.repeatedCalls)
                    row.newFindings = after.repeatedCalls.filter { !known.contains($0) }
                    row.baselineValue = Double(before.repeatedCalls.count)
                    row.currentValue = Double(after.repeatedCalls.count)
                    if Double(row.newFindings.count) > (budget.absolute ?? 0) {
                        row.verdict = workload.cannotCompare(metric) ? .notComparable : .regression
                    }
                    rows.append(row)
                    continue
                }
                row.baselineValue = budget.key.value(of: beforeRows)
                row.currentValue = budget.key.value(of: afterRows)
                guard let base = row.baselineValue, let delta = row.delta else {
                    row.verdict = .noData
                    rows.append(row)
                    continue
                }
                row.interval = intervals[budget.key]
                if budget.isExceeded(base: base, delta: delta) {
                    if metric.isTiming {
                        let beyondNoise = row.interval?.isWorse(for: metric) ?? false
                        row.verdict = beyondNoise ? .regression : .noise
                    } else {
                        row.verdict = workload.cannotCompare(metric) ? .notComparable : .regression
                    }
                }
                rows.append(row)
            }
        }
        notes += workloads.compactMap(\.line)
        return GateEvaluation(rows: rows, workloads: workloads, notes: notes, minSamples: configuration.minSamples,
                              confidence: bootstrap.confidence)
    }
}
