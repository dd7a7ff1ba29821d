import TraceAnalysis
import TraceModel

/// Whether one scenario's current runs did the baseline's work: answers of the same length,
/// the same amount of the model's earlier text, and prompts of the same size.
///
/// The same agent gets other answers from the same model on another machine: another CPU, thread
/// count or server build rounds floats differently, and greedy decoding follows the first token
/// that differs. Other answers make other later prompts (a transcript, or instructions that quote
/// an earlier answer, carry them), which move the prompt size and the cache hit rate although
/// nothing in the agent changed. So before it judges a scenario, the gate compares the workloads
/// and takes away, metric by metric, what the model's text explains:
///
/// - `input_tokens`: each current prompt less the growth, if any, of what the model had written
///   before it (``RequestSample/earlierOutputTokens``, as a mean per request): a prompt carries no
///   more of the model's text than the model wrote. A prompt that grew by more is the agent's.
/// - `cache_hit_rate`, when the current prompts are materially shorter: both sides' rates are
///   taken against the baseline's mean prompt size, from each request's uncached tokens. The same
///   16 tokens the cache missed are 3% of a 525-token prompt and 14% of a 116-token one; what the
///   cache failed to serve is the same. (Longer prompts with the same misses only raise the rate.)
/// - `latency`, when the model wrote longer answers with the same settings (response cap and
///   temperature): the generation after the first token is scaled to the baseline's mean answer
///   length. With other settings, longer answers are what the agent asked for, and count.
///
/// Restating never makes a current request look worse than it was. `tool_calls`,
/// `repeated_tool_calls` and `cost` follow the model's answers and cannot be restated: when the
/// model wrote other text with the same settings, beyond their budget they are "not comparable",
/// not regressions. The same-machine A/B flow (docs/trace-report.md) compares like with like.
public struct Workload: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        /// Answers, earlier text and prompts as in the baseline.
        case same
        /// Prompts of another size, with the same answers and earlier text: the agent's prompts.
        case otherPrompts = "other prompts"
        /// Answers of another length, asked for with other settings: the agent asked for them.
        case otherSettings = "other settings"
        /// Answers or earlier text of another length with the same settings: the model writes
        /// otherwise here, as on another machine.
        case otherAnswers = "other answers"
    }

    /// A difference is material when it exceeds this fraction of the baseline's value, the
    /// absolute floor below, and the spread between the baseline's own runs.
    public static let materialRatio = 0.25
    /// Output tokens per request: smaller differences are a word or two of one answer.
    public static let materialOutputTokens = 8.0
    /// Prompt tokens, and earlier text per request: the default `input_tokens` budget's floor.
    public static let materialPromptTokens = 32.0

    public var key: ScenarioKey
    public var kind: Kind
    /// Mean output tokens per request, baseline and current; nil where no request reported them.
    public var baselineOutputTokens: Double?
    public var currentOutputTokens: Double?
    /// Mean tokens the model had written in the run before each request, baseline and current.
    public var baselineEarlierText: Double?
    public var currentEarlierText: Double?
    /// Median input tokens per request, baseline and current.
    public var baselinePromptTokens: Double?
    public var currentPromptTokens: Double?
    /// True when the current prompts are materially shorter than the baseline's.
    public var promptsShorter: Bool
    /// The response caps and temperatures asked for, as `cap 64, temperature 0`, each side.
    public var baselineSettings: String
    public var currentSettings: String

    /// Compares the workload of `current` with that of `baseline`, one scenario's samples each.
    public static func compare(baseline: ScenarioSamples, current: ScenarioSamples) -> Workload {
        let output = Figures(baseline, current) { $0.outputTokens.map(Double.init) }
        let earlier = Figures(baseline, current) { $0.earlierOutputTokens.map(Double.init) }
        let prompts = Figures(baseline, current, statistic: .percentile(50)) { $0.inputTokens.map(Double.init) }
        let before = settings(of: baseline.requests)
        let after = settings(of: current.requests)
        let kind: Kind =
            if output.differ(floor: materialOutputTokens) {
                before == after ? .otherAnswers : .otherSettings
            } else if earlier.differ(floor: materialPromptTokens) {
                .otherAnswers
            } else if prompts.differ(floor: materialPromptTokens) {
                .otherPrompts
            } else {
                .same
            }
        let shorter = prompts.differ(floor: materialPromptTokens) && (prompts.current ?? 0) < (prompts.baseline ?? 0)
        return Workload(
            key: baseline.key, kind: kind, baselineOutputTokens: output.baseline, currentOutputTokens: output.current,
            baselineEarlierText: earlier.baseline, currentEarlierText: earlier.current,
            baselinePromptTokens: prompts.baseline, currentPromptTokens: prompts.current, promptsShorter: shorter,
            baselineSettings: describe(before), currentSettings: describe(after))
    }

    /// True when a check of `metric` follows the model's answers and cannot be restated.
    public func cannotCompare(_ metric: GateMetric) -> Bool {
        kind == .otherAnswers && [.toolCalls, .repeatedToolCalls, .cost].contains(metric)
    }

    /// Both sides' samples for judging `metric`, with what the model's text explains taken away
    /// (see the type's documentation); nil when nothing is restated for it.
    public func restated(baseline: ScenarioSamples, current: ScenarioSamples, for metric: GateMetric)
        -> (baseline: ScenarioSamples, current: ScenarioSamples)?
    {
        switch metric {
        case .inputTokens:
            guard let before = baselineEarlierText, let after = currentEarlierText else { return nil }
            let growth = Int64((after - before).rounded())
            guard growth > 0 else { return nil }
            var copy = current
            copy.mapRequests { request in
                request.inputTokens = request.inputTokens.map { max(0, $0 - growth) }
            }
            return (baseline, copy)
        case .cacheHitRate:
            let prompts = baseline.requests.compactMap { $0.inputTokens.map(Double.init) }
            guard promptsShorter, !prompts.isEmpty else { return nil }
            let size = max(1, Int64((prompts.reduce(0, +) / Double(prompts.count)).rounded()))
            func atBaselineSize(_ samples: ScenarioSamples) -> ScenarioSamples {
                var copy = samples
                copy.mapRequests { request in
                    guard let input = request.inputTokens, let cached = request.cachedInputTokens else { return }
                    request.inputTokens = size
                    request.cachedInputTokens = max(0, size - max(0, input - cached))
                }
                return copy
            }
            return (atBaselineSize(baseline), atBaselineSize(current))
        case .latency:
            guard kind == .otherAnswers, let before = baselineOutputTokens, let after = currentOutputTokens,
                after > before, before > 0
            else { return nil }
            let factor = before / after
            var copy = current
            copy.mapRequests { request in
                guard let ttft = request.ttft, request.latency > ttft else { return }
                request.latency = ttft + Int64((Double(request.latency - ttft) * factor).rounded())
            }
            return (baseline, copy)
        default:
            return nil
        }
    }

    /// One line for the report: what differs, with the figures, and how the gate judged it; nil
    /// when the workloads are the same.
    public var line: String? {
        let figures = [
            "output tokens a request " + Self.change(baselineOutputTokens, currentOutputTokens),
            "model text before each request " + Self.change(baselineEarlierText, currentEarlierText),
            "prompt tokens p50 " + Self.change(baselinePromptTokens, currentPromptTokens),
        ].joined(separator: ", ")
        let head = "workload of '\(key)' differs from the baseline's (\(figures))"
        switch kind {
        case .same:
            return nil
        case .otherPrompts:
            return head + ": the agent sends other prompts; judged as they stand"
        case .otherSettings:
            return head + ": other answers asked for with other settings (\(baselineSettings) -> "
                + "\(currentSettings)); judged as they stand"
        case .otherAnswers:
            return head + ": the model wrote other text with the same settings (\(currentSettings)), as on another "
                + "machine; input tokens, cache hit rate and latency judged for what that text does not explain, "
                + "tool calls and cost not comparable; gate against base runs of this machine (the A/B flow) to "
                + "judge them all"
        }
    }

    // MARK: - Helpers

    /// A statistic of one per-request value on both sides, and the spread of the baseline's runs.
    private struct Figures {
        var baseline: Double?
        var current: Double?
        /// The largest difference between two of the baseline's runs.
        var baselineSpread: Double

        init(_ before: ScenarioSamples, _ after: ScenarioSamples, statistic: GateStatistic = .mean,
             _ value: (RequestSample) -> Double?) {
            func summary(_ values: [Double]) -> Double? {
                guard !values.isEmpty else { return nil }
                if case .percentile(let p) = statistic { return Percentile.nearestRank(p, of: values) }
                return values.reduce(0, +) / Double(values.count)
            }
            baseline = summary(before.requests.compactMap(value))
            current = summary(after.requests.compactMap(value))
            let perRun = before.runs.compactMap { summary($0.requests.compactMap(value)) }
            baselineSpread = (perRun.max() ?? 0) - (perRun.min() ?? 0)
        }

        func differ(floor: Double) -> Bool {
            guard let baseline, let current else { return false }
            let difference = abs(current - baseline)
            return difference > Workload.materialRatio * abs(baseline) && difference > floor
                && difference > baselineSpread
        }
    }

    /// The distinct response caps and temperatures the requests asked for.
    private struct Settings: Hashable {
        var caps: Set<Int64?>
        var temperatures: Set<Double?>
    }

    private static func settings(of requests: [RequestSample]) -> Settings {
        Settings(caps: Set(requests.map(\.maxTokens)), temperatures: Set(requests.map(\.temperature)))
    }

    private static func describe(_ settings: Settings) -> String {
        func list<T: Comparable>(_ values: Set<T?>, _ text: (T) -> String) -> String {
            let known = values.compactMap { $0 }.sorted().map(text)
            let all = known + (values.contains(nil) ? ["unset"] : [])
            return all.isEmpty ? "unset" : all.joined(separator: "/")
        }
        return "cap " + list(settings.caps) { String($0) } + ", temperature " + list(settings.temperatures) {
            Format.fixed($0, $0 == $0.rounded() ? 0 : 2)
        }
    }

    /// `525 -> 114 (-78%)`.
    private static func change(_ before: Double?, _ after: Double?) -> String {
        func figure(_ value: Double?) -> String {
            guard let value, value.isFinite else { return "-" }
            return Format.fixed(value, value.rounded() == value ? 0 : 1)
        }
        var text = "\(figure(before)) -> \(figure(after))"
        if let before, let after, before != 0 {
            let change = (after - before) / abs(before) * 100
            text += " (" + (change >= 0 ? "+" : "-") + Format.fixed(abs(change), 0) + "%)"
        }
        return text
    }
}

extension ScenarioSamples {
    /// Applies `change` to every request of every run.
    fileprivate mutating func mapRequests(_ change: (inout RequestSample) -> Void) {
        for run in runs.indices {
            for index in runs[run].requests.indices { change(&runs[run].requests[index]) }
        }
    }
}
