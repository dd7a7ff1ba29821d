import TraceModel
import TraceStore

/// A budget or gate configuration that does not parse; `description` is one sentence for the user.
public struct BudgetError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// How much worse a metric may get before the gate fails: a ratio of the baseline's value, an
/// absolute floor, or both, in which case a regression must exceed BOTH. The ratio keeps a slow
/// scenario from failing on a tiny relative wobble; the floor keeps a fast one from failing on a
/// change of a few milliseconds that is large only in percent.
///
/// Grammar (command line and config file alike):
///
/// ```text
/// budget   := key ":" limits | key ":" "off"
/// key      := metric "." statistic          ttft.p95, latency.p50, cache_hit_rate.overall
/// limits   := limit { "and" limit }
/// limit    := [sign] number unit
/// unit     := "%"                            relative to the baseline's value
///           | "ns" | "us" | "ms" | "s"        ttft, latency
///           | "tok/s" | ""                    tokens_per_second
///           | ""                              tool_calls (per request), repeated_tool_calls (count)
///           | "tok" | ""                      input_tokens
///           | "pt"                            cache_hit_rate (percentage points)
/// sign     := "+" for metrics where higher is worse, "-" for tokens_per_second and cache_hit_rate
/// ```
public struct GateBudget: Sendable, Hashable, CustomStringConvertible {
    public var key: MetricKey
    /// Allowed worsening as a fraction of the baseline's value (0.15 for `+15%`).
    public var relative: Double?
    /// Allowed worsening in the metric's unit: ns, tokens/s, calls, tokens, a ratio (0.05 = 5 pt).
    public var absolute: Double?

    public init(key: MetricKey, relative: Double?, absolute: Double?) {
        self.key = key
        self.relative = relative
        self.absolute = absolute
    }

    /// The budget as written: `ttft.p50: +50% and +100 ms`.
    public var description: String { "\(key): \(limitText)" }

    /// The limits alone: `+50% and +100 ms`.
    public var limitText: String {
        let sign = key.metric.higherIsWorse ? "+" : "-"
        var parts: [String] = []
        if let relative { parts.append(sign + Format.fixed(relative * 100, relative * 100 == (relative * 100).rounded() ? 0 : 1) + "%") }
        if let absolute {
            switch key.metric {
            case .ttft, .latency: parts.append(sign + Format.duration(Int64(absolute.rounded())))
            case .cacheHitRate: parts.append(sign + Format.fixed(absolute * 100, 1) + "pt")
            case .tokensPerSecond: parts.append(sign + Format.fixed(absolute, 1) + " tok/s")
            default: parts.append(sign + (absolute == absolute.rounded() ? Format.fixed(absolute, 0) : Format.fixed(absolute, 2)))
            }
        }
        return parts.joined(separator: " and ")
    }

    /// True when a change of `delta` from `base` exceeds every limit of the budget.
    public func isExceeded(base: Double, delta: Double) -> Bool {
        let worse = key.metric.higherIsWorse ? delta : -delta
        guard worse > 0 else { return false }
        if let relative, !(worse > relative * abs(base)) { return false }
        if let absolute, !(worse > absolute) { return false }
        return true
    }

    /// The budgets used when none are given, chosen so that unchanged configurations pass on a
    /// loaded two-core machine (see `benchmarks/gate-false-alarms.sh`): timing is judged at the
    /// median, which a few slow requests do not move, with ratios and floors wide enough for load
    /// from other processes; behaviour metrics are tight, as they do not depend on load.
    public static let defaults: [GateBudget] = [
        "ttft.p50: +50% and +150ms",
        "latency.p50: +50% and +500ms",
        "tokens_per_second.p50: -33% and -3tok/s",
        "tool_calls.mean: +25% and +0.25",
        "input_tokens.p50: +20% and +32",
        "cache_hit_rate.mean: -5% and -3pt",
        "repeated_tool_calls.new: +0",
    ].map { try! GateBudget.parse($0)! }

    /// Parses one budget, `ttft.p95: +15% and +50ms`; nil for `ttft.p95: off`.
    public static func parse(_ text: String) throws(BudgetError) -> GateBudget? {
        guard let colon = text.firstIndex(of: ":") else {
            throw BudgetError("a budget reads 'metric.statistic: +15% and +50ms', not '\(TerminalText.fitted(text, width: 120))'")
        }
        let key = try parseKey(String(text[..<colon]).trimmingSpaces)
        let limits = String(text[text.index(after: colon)...]).trimmingSpaces
        if limits == "off" { return nil }
        var budget = GateBudget(key: key, relative: nil, absolute: nil)
        // Limits are separated by the word `and`; `50 ms` may keep its space.
        var parts = [""]
        for word in limits.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            if word == "and" { parts.append("") } else { parts[parts.count - 1] += word }
        }
        guard !parts.contains(where: \.isEmpty) else {
            throw BudgetError("budget \(key) has an empty limit")
        }
        for part in parts {
            try budget.add(limit: part)
        }
        return budget
    }

    /// Parses `ttft.p95`.
    static func parseKey(_ text: String) throws(BudgetError) -> MetricKey {
        let pieces = text.split(separator: ".", maxSplits: 1).map(String.init)
        let metrics = GateMetric.allCases.map(\.rawValue).joined(separator: ", ")
        guard pieces.count == 2, let metric = GateMetric(rawValue: pieces[0]) else {
            throw BudgetError("unknown budget metric '\(TerminalText.fitted(text, width: 120))'; use one of \(metrics), "
                + "then . and a statistic (p50, p95, mean)")
        }
        guard let statistic = GateStatistic.parse(pieces[1]), statistic.applies(to: metric) else {
            let hint = switch metric {
            case .cacheHitRate: "overall, mean or pNN"
            case .repeatedToolCalls: "new"
            default: "pNN (p50, p95) or mean"
            }
            throw BudgetError("\(metric.rawValue) takes the statistic \(hint), not '\(TerminalText.fitted(pieces[1], width: 120))'")
        }
        return MetricKey(metric, statistic)
    }

    private mutating func add(limit text: String) throws(BudgetError) {
        var body = Substring(text)
        let metric = key.metric
        if let first = body.first, first == "+" || first == "-" {
            let plus = first == "+"
            if plus != metric.higherIsWorse {
                throw BudgetError("\(key) gets worse by going \(metric.higherIsWorse ? "up" : "down"), so its limit "
                    + "takes '\(metric.higherIsWorse ? "+" : "-")', not '\(TerminalText.fitted(text, width: 120))'")
            }
            body = body.dropFirst()
        }
        var bodyText = String(body).replacingSpaces
        if metric == .cost, bodyText.hasPrefix("$") { bodyText.removeFirst() }
        if bodyText.hasSuffix("%") {
            guard relative == nil, let value = Double(bodyText.dropLast()), value.isFinite, value >= 0 else {
                throw BudgetError("budget \(key) has a bad or second ratio '\(TerminalText.fitted(text, width: 120))'")
            }
            relative = value / 100
            return
        }
        let units: [(String, Double)]
        switch metric {
        case .ttft, .latency: units = [("ns", 1), ("us", 1e3), ("µs", 1e3), ("ms", 1e6), ("s", 1e9)]
        case .tokensPerSecond: units = [("tok/s", 1), ("/s", 1), ("", 1)]
        case .inputTokens: units = [("tokens", 1), ("tok", 1), ("", 1)]
        case .cacheHitRate: units = [("pt", 0.01)]
        case .toolCalls, .repeatedToolCalls: units = [("", 1)]
        case .cost: units = [("", 1)]
        }
        for (suffix, scale) in units where bodyText.hasSuffix(suffix) {
            let number = String(bodyText.dropLast(suffix.count))
            guard let value = Double(number), value.isFinite, value >= 0 else { continue }
            guard absolute == nil else { throw BudgetError("budget \(key) has two absolute limits") }
            // Limits are read as the values they bound are: within what a store can hold.
            let largest = Double(
                [.ttft, .latency].contains(metric) ? PlausibleRange.duration.upperBound : PlausibleRange.count.upperBound)
            guard value * scale <= largest else {
                throw BudgetError("budget \(key) has a limit beyond any value a run can have: "
                    + "'\(TerminalText.fitted(text, width: 120))'")
            }
            absolute = value * scale
            return
        }
        throw BudgetError("budget \(key) needs a ratio like 15% or \(metric.absoluteUnitHint), "
            + "not '\(TerminalText.fitted(text, width: 120))'")
    }
}

/// The gate's settings: budgets by key, and the least samples a group needs.
public struct GateConfiguration: Sendable {
    public var budgets: [GateBudget]
    public var minSamples: Int
    /// Scale timing to the baseline's machine speed first (see
    /// ``LatencyBaseline/normalized(toServerNanosPerToken:)``); on by default.
    public var normalizesSpeed = true
    /// Both sides ran on one machine and model server (the A/B flow): where the model wrote other
    /// text, the change made it, and every check is judged as it stands (``Workload/Kind/changedAnswers``).
    public var sameMachine = false

    public static let defaultMinSamples = 3

    public init(budgets: [GateBudget] = GateBudget.defaults, minSamples: Int = defaultMinSamples) {
        self.budgets = budgets
        self.minSamples = minSamples
    }

    /// Applies budgets over the current ones: same key replaces, `off` removes, new keys add.
    public mutating func apply(budgetList text: String) throws(BudgetError) {
        for item in text.split(separator: ";").map({ String($0).trimmingSpaces }) where !item.isEmpty {
            try apply(budget: item)
        }
    }

    mutating func apply(budget text: String) throws(BudgetError) {
        guard let colon = text.firstIndex(of: ":") else {
            throw BudgetError("a budget reads 'metric.statistic: +15% and +50ms', not '\(TerminalText.fitted(text, width: 120))'")
        }
        let key = try GateBudget.parseKey(String(text[..<colon]).trimmingSpaces)
        budgets.removeAll { $0.key == key }
        if let budget = try GateBudget.parse(text) { budgets.append(budget) }
        budgets.sort { $0.key < $1.key }
    }

    /// Reads a config file: one budget a line, `min-samples: N`, `speed: raw|normalized`, `#`
    /// comments, blank lines.
    public mutating func apply(configText text: String, path: String) throws(BudgetError) {
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = String(rawLine)
            if let hash = line.firstIndex(of: "#") { line = String(line[..<hash]) }
            line = line.trimmingSpaces
            if line.isEmpty { continue }
            do throws(BudgetError) {
                if line.hasPrefix("speed") {
                    let value = line.dropFirst("speed".count).drop { $0 == " " || $0 == ":" }
                    guard value == "raw" || value == "normalized" else {
                        throw BudgetError("speed is raw or normalized")
                    }
                    normalizesSpeed = value == "normalized"
                } else if line.hasPrefix("min-samples") {
                    let value = line.dropFirst("min-samples".count).drop { $0 == " " || $0 == ":" }
                    guard let number = Int(value), number >= 1 else {
                        throw BudgetError("min-samples needs a whole number from 1 up")
                    }
                    minSamples = number
                } else {
                    try apply(budget: line)
                }
            } catch {
                throw BudgetError("\(TerminalText.sanitized(path)) line \(index + 1): \(error.message)")
            }
        }
    }
}

extension String {
    /// Without leading and trailing spaces and tabs (no Foundation needed).
    var trimmingSpaces: String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" || first == "\r" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text = text.dropLast() }
        return String(text)
    }

    /// Without any spaces, so `50 ms` reads as `50ms`.
    var replacingSpaces: String { String(filter { $0 != " " && $0 != "\t" }) }
}
