import TraceAnalysis
import TraceModel

/// Whether one scenario's current runs did the baseline's work: answers of the same length,
/// the same amount of the model's earlier text, and prompts of the same size.
///
/// The same agent gets other answers from the same model on another machine: another CPU, thread
/// count or server build rounds floats differently, and greedy decoding follows the first token
/// that differs. Other answers make other later prompts (a transcript, instructions that quote an
/// earlier answer, tool results for other arguments), so prompt sizes, cache hits, tool calls and
/// cost follow the model's text as much as the agent's code. How much of a prompt is the model's
/// text cannot be known from the counts alone (an agent may quote an answer once, twice or not at
/// all), so the gate does not guess it:
///
/// - When the model wrote other text with the same settings (``Kind/otherAnswers``), a check of a
///   metric that follows the text (`input_tokens`, `cache_hit_rate`, `tool_calls`,
///   `repeated_tool_calls`, `cost`) that is beyond its budget is "not comparable": a warning that
///   names the figures, never a regression. Timing is still judged, with the generation after the
///   first token scaled to the baseline's mean answer length (restating never makes a current
///   request look worse than it was).
/// - Answers count as other when their length, or the model's text before each request, differs by
///   more than ``materialRatio`` (half the default `input_tokens` budget, so that text too close to
///   call "other" cannot carry a prompt past that budget) and the floors below, and more than the
///   baseline's own runs differ from each other.
/// - When both sides ran on one machine and server (`gate --same-machine`, the A/B flow), the
///   model's other text is the change's doing (``Kind/changedAnswers``) and everything is judged as
///   it stands.
public struct Workload: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        /// Answers, earlier text and prompts as in the baseline.
        case same
        /// Prompts of another size, with the same answers and earlier text: the agent's prompts.
        case otherPrompts = "other prompts"
        /// Answers of another length, asked for with other settings: the agent asked for them.
        case otherSettings = "other settings"
        /// Answers or earlier text of another length with the same settings, from another machine
        /// (or one not said to be the same): the model writes otherwise there.
        case otherAnswers = "other answers"
        /// Answers or earlier text of another length with the same settings, on the same machine
        /// and server (`--same-machine`): the change made the model write otherwise.
        case changedAnswers = "changed answers"
    }

    /// A difference is material when it exceeds this fraction of the baseline's value, the
    /// absolute floor below, and the spread between the baseline's own runs.
    public static let materialRatio = 0.1
    /// Output tokens per request: smaller differences are a word or two of one answer.
    public static let materialOutputTokens = 8.0
    /// Prompt tokens, and earlier text per request: the default `input_tokens` budget's floor.
    public static let materialPromptTokens = 32.0

    /// The metrics that follow the model's text: not comparable when the model wrote other text.
    public static let textFollowing: Set<GateMetric> = [.inputTokens, .cacheHitRate, .toolCalls, .repeatedToolCalls, .cost]

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
    /// The response caps and temperatures asked for, as `cap 64, temperature 0`, each side.
    public var baselineSettings: String
    public var currentSettings: String

    /// Compares the workload of `current` with that of `baseline`, one scenario's samples each;
    /// `sameMachine` when both ran on one machine and model server.
    public static func compare(baseline: ScenarioSamples, current: ScenarioSamples, sameMachine: Bool = false)
        -> Workload
    {
        let output = Figures(baseline, current) { $0.outputTokens.map(Double.init) }
        let earlier = Figures(baseline, current) { $0.earlierOutputTokens.map(Double.init) }
        let prompts = Figures(baseline, current, statistic: .percentile(50)) { $0.inputTokens.map(Double.init) }
        let before = settings(of: baseline.requests)
        let after = settings(of: current.requests)
        let kind: Kind =
            if output.differ(floor: materialOutputTokens) && before != after {
                .otherSettings
            } else if output.differ(floor: materialOutputTokens) || earlier.differ(floor: materialPromptTokens) {
                sameMachine ? .changedAnswers : .otherAnswers
            } else if prompts.differ(floor: materialPromptTokens) {
                .otherPrompts
            } else {
                .same
            }
        return Workload(
            key: baseline.key, kind: kind, baselineOutputTokens: output.baseline, currentOutputTokens: output.current,
            baselineEarlierText: earlier.baseline, currentEarlierText: earlier.current,
            baselinePromptTokens: prompts.baseline, currentPromptTokens: prompts.current,
            baselineSettings: describe(before), currentSettings: describe(after))
    }

    /// True when a check of `metric` follows the model's answers and cannot be restated.
    public func cannotCompare(_ metric: GateMetric) -> Bool {
        kind == .otherAnswers && Self.textFollowing.contains(metric)
    }

    /// Both sides' samples for judging `metric`, with what the model's other text explains taken
    /// away: latency at the baseline's answer length (see the type's documentation); nil when
    /// nothing is restated for it.
    public func restated(baseline: ScenarioSamples, current: ScenarioSamples, for metric: GateMetric)
        -> (baseline: ScenarioSamples, current: ScenarioSamples)?
    {
        switch metric {
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
                + "machine; latency judged at the baseline's answer length, and input tokens, cache hit rate, tool "
                + "calls and cost not comparable; gate against base runs of this machine (the A/B flow, "
                + "--same-machine) to judge them all"
        case .changedAnswers:
            return head + ": the model wrote other text with the same settings on the same machine, so the change "
                + "made it; judged as it stands"
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
