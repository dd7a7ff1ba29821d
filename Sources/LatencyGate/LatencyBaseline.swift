import Foundation
import LTTngReader
import Reproducible
import SessionTrace
import TraceAnalysis
import TraceModel
import TraceStore

/// One request's figures, as the gate and `diff` compare them: the raw sample, so a baseline
/// keeps whole distributions and can be resampled, not just their percentiles.
public struct RequestSample: Sendable, Hashable {
    public var ttft: Int64?
    public var latency: Int64
    public var tokensPerSecond: Double?
    public var toolCalls: Int64
    public var inputTokens: Int64?
    public var cachedInputTokens: Int64?
    /// Output tokens and server-reported cache writes, for pricing; nil where not reported (and in
    /// baselines written before they were kept).
    public var outputTokens: Int64?
    public var cacheWriteTokens: Int64?
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

    public init(
        ttft: Int64?, latency: Int64, tokensPerSecond: Double?, toolCalls: Int64, inputTokens: Int64?,
        cachedInputTokens: Int64?, outputTokens: Int64? = nil, cacheWriteTokens: Int64? = nil,
        provider: String? = nil, cost: Double? = nil, maxTokens: Int64? = nil, temperature: Double? = nil,
        earlierOutputTokens: Int64? = nil
    ) {
        self.ttft = ttft
        self.latency = latency
        self.tokensPerSecond = tokensPerSecond
        self.toolCalls = toolCalls
        self.inputTokens = inputTokens
        self.cachedInputTokens = cachedInputTokens
        self.outputTokens = outputTokens
        self.cacheWriteTokens = cacheWriteTokens
        self.provider = provider
        self.cost = cost
        self.maxTokens = maxTokens
        self.temperature = temperature
        self.earlierOutputTokens = earlierOutputTokens
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

/// What a scenario's requests are grouped by.
public enum ScenarioGrouping: String, Sendable, CaseIterable {
    /// The run's label (`planner-demo --label`); `(no label)` without one.
    case label
    /// The name of the innermost app interval enclosing the request (`PlanTurn`); `(no interval)`.
    case interval
}

/// A group's identity: scenario (label or interval name), profile and model.
public struct ScenarioKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var scenario: String
    public var profile: String
    public var model: String

    public init(scenario: String, profile: String, model: String) {
        self.scenario = scenario
        self.profile = profile
        self.model = model
    }

    public var description: String { "\(scenario) / \(profile) / \(model)" }

    public static func < (lhs: ScenarioKey, rhs: ScenarioKey) -> Bool {
        (lhs.scenario, lhs.profile, lhs.model) < (rhs.scenario, rhs.profile, rhs.model)
    }
}

/// A repeated-tool-call finding, by what stays the same from run to run: kind, session, tool.
public struct RepeatedCall: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var kind: String
    public var session: String
    public var tool: String

    /// The finding of `kind` (`repeat`, `loop`) for `tool` in the session labelled `session`.
    public init(kind: String, session: String, tool: String) {
        self.kind = kind
        self.session = session
        self.tool = tool
    }

    public var description: String { "\(kind) \(tool) in \(session)" }

    public static func < (lhs: RepeatedCall, rhs: RepeatedCall) -> Bool {
        (lhs.kind, lhs.session, lhs.tool) < (rhs.kind, rhs.session, rhs.tool)
    }
}

/// Per-request samples of one scenario, kept per run so resampling can respect that requests of
/// one run share its machine's load.
public struct ScenarioSamples: Sendable, Hashable {
    public struct Run: Sendable, Hashable {
        /// The run's id, or 0 for a baseline's run whose id was not kept.
        public var runID: Int64
        public var requests: [RequestSample]
        /// The machine's speed during the run: the median over all the run's requests (of every
        /// scenario) of the server's generation time per token (`server_predicted_dur /
        /// server_predicted_tokens`), in ns; nil when the server reported no timings.
        public var serverNanosPerToken: Double? = nil
    }

    public var key: ScenarioKey
    public var runs: [Run]
    /// Repeated-tool-call findings among the group's requests (``ToolFindings``).
    public var repeatedCalls: [RepeatedCall]

    /// Every request of every run.
    public var requests: [RequestSample] { runs.flatMap(\.requests) }
    public var requestCount: Int { runs.reduce(0) { $0 + $1.requests.count } }
}

/// The distributions of the gated metrics per scenario, from one or more recorded stores: what
/// `trace-report baseline` writes (JSON, meant to be checked in) and what `gate` and `diff`
/// compare.
///
/// ```swift
/// let current = try LatencyBaseline.make(paths: ["run-1.sqlite", "run-2.sqlite"], grouping: .label)
/// let baseline = try LatencyBaseline.read(path: "tracefiles/baseline/planner-baseline.json")
/// let result = GateEvaluation.evaluate(baseline: baseline, current: current, budgets: .defaults)
/// ```
public struct LatencyBaseline: Sendable {
    /// The file format's version. 1: `groups[].runs[]` hold per-request arrays, aligned.
    public static let formatVersion: Int64 = 1
    /// The `kind` every baseline file carries, so a wrong JSON file is told apart.
    public static let formatKind = "sessiontrace-latency-baseline"
    /// Most requests kept per group; past it the requests are thinned evenly (every k-th).
    public static let sampleCap = 5000

    public var grouping: ScenarioGrouping
    /// The stores the samples came from, as given.
    public var sources: [String]
    public var groups: [ScenarioSamples]
    /// Columns of the stores that held implausible values, read as the nearest plausible one.
    public var anomalies: [StoreAnomaly] = []

    public init(grouping: ScenarioGrouping, sources: [String], groups: [ScenarioSamples]) {
        self.grouping = grouping
        self.sources = sources
        self.groups = groups
    }

    public func group(_ key: ScenarioKey) -> ScenarioSamples? { groups.first { $0.key == key } }

    // MARK: - Machine speed

    /// The median machine speed of the runs (``ScenarioSamples/Run/serverNanosPerToken``), each
    /// run counted once; nil when no run has server timings.
    public var medianServerNanosPerToken: Double? {
        var byRun: [Int64: Double] = [:]
        var anonymous: [Double] = []
        for group in groups {
            for run in group.runs {
                guard let speed = run.serverNanosPerToken else { continue }
                if run.runID != 0 { byRun[run.runID] = speed } else { anonymous.append(speed) }
            }
        }
        return Percentile.nearestRank(50, of: Array(byRun.values) + anonymous)
    }

    /// The samples as if every run had run at `reference` ns per generated token: times to first
    /// token and latencies scaled by `reference / run speed`, rates by its inverse. A run on a
    /// machine twice as busy generates at half the speed and is halved back. Runs without server
    /// timings are left as recorded.
    public func normalized(toServerNanosPerToken reference: Double) -> LatencyBaseline {
        var copy = self
        for index in copy.groups.indices {
            copy.groups[index].runs = copy.groups[index].runs.map { run in
                guard let speed = run.serverNanosPerToken, speed > 0 else { return run }
                let factor = reference / speed
                var scaled = run
                scaled.requests = run.requests.map { request in
                    var request = request
                    request.ttft = request.ttft.map { Self.scaled($0, by: factor) }
                    request.latency = Self.scaled(request.latency, by: factor)
                    request.tokensPerSecond = request.tokensPerSecond.map { $0 / factor }
                    return request
                }
                return scaled
            }
        }
        return copy
    }

    /// `duration × factor`, held within plausible durations however slow or fast the run was.
    private static func scaled(_ duration: Int64, by factor: Double) -> Int64 {
        PlausibleRange.nearest(Double(duration) * factor, in: PlausibleRange.duration) ?? duration
    }

    /// Why a baseline or store could not be read; one sentence for the user.
    public enum LoadError: Error, Sendable, CustomStringConvertible {
        case store(TraceInputError)
        case unreadable(path: String, reason: String)
        case notABaseline(path: String, reason: String)
        case newerVersion(path: String, version: Int64)

        public var description: String {
            switch self {
            case .store(let error): error.description
            case .unreadable(let path, let reason): "\(path) could not be read: \(reason)"
            case .notABaseline(let path, let reason): "\(path) is not a latency baseline (\(reason))"
            case .newerVersion(let path, let version):
                "\(path) is a baseline of version \(version), newer than this tool's \(LatencyBaseline.formatVersion)"
            }
        }
    }

    // MARK: - From stores

    /// Groups the requests of every run of `traces` by scenario, profile and model.
    public static func make(traces: [RecordedTrace], grouping: ScenarioGrouping) -> LatencyBaseline {
        var runsByKey: [ScenarioKey: [ScenarioSamples.Run]] = [:]
        var repeated: [ScenarioKey: Set<RepeatedCall>] = [:]
        for trace in traces {
            var keysByRequest: [Int64: ScenarioKey] = [:]
            for run in trace.runs {
                let intervals = Dictionary(run.intervals.map { ($0.intervalID, $0.name) },
                                           uniquingKeysWith: { first, _ in first })
                var perKey: [ScenarioKey: [RequestSample]] = [:]
                var order: [ScenarioKey] = []
                let earlier = earlierOutputTokens(of: run.requests)
                for (position, request) in run.requests.enumerated() {
                    let scenario: String
                    switch grouping {
                    case .label: scenario = run.run.label ?? "(no label)"
                    case .interval: scenario = request.parentID.flatMap { intervals[$0] } ?? "(no interval)"
                    }
                    let key = ScenarioKey(scenario: scenario, profile: request.profile, model: request.model)
                    keysByRequest[request.requestID] = key
                    if perKey[key] == nil { order.append(key) }
                    perKey[key, default: []].append(RequestSample(
                        ttft: request.timeToFirstToken, latency: request.dur, tokensPerSecond: request.tokensPerSecond,
                        toolCalls: Int64(run.toolCallsByRequest[request.requestID]?.count ?? 0),
                        inputTokens: request.inputTokens, cachedInputTokens: request.cachedInputTokens,
                        outputTokens: request.outputTokens, cacheWriteTokens: request.cacheWriteTokens,
                        provider: request.provider, maxTokens: request.maxTokens, temperature: request.temperature,
                        earlierOutputTokens: earlier[position]))
                }
                let perToken = run.requests.compactMap { request -> Double? in
                    guard let timings = request.serverTimings, timings.predictedTokens > 0,
                        timings.predictedDuration > 0
                    else { return nil }
                    return Double(timings.predictedDuration) / Double(timings.predictedTokens)
                }
                let speed = Percentile.nearestRank(50, of: perToken)
                for key in order {
                    runsByKey[key, default: []].append(
                        ScenarioSamples.Run(runID: run.run.runID, requests: perKey[key]!, serverNanosPerToken: speed))
                }
            }
            for finding in ToolFindings.analyze(trace).findings {
                guard let first = finding.requestIDs.first, let key = keysByRequest[first] else { continue }
                repeated[key, default: []].insert(
                    RepeatedCall(kind: finding.kind.rawValue, session: finding.sessionLabel, tool: finding.tool))
            }
        }
        let groups = runsByKey.keys.sorted().map { key in
            ScenarioSamples(key: key, runs: capped(runsByKey[key]!), repeatedCalls: (repeated[key] ?? []).sorted())
        }
        var baseline = LatencyBaseline(grouping: grouping, sources: traces.map(\.path), groups: groups)
        baseline.anomalies = traces.flatMap(\.anomalies)
        return baseline
    }

    /// For each request, the output tokens of the requests that ended before it began (requests
    /// that reported none count 0): what the model had written that the request's prompt may carry.
    static func earlierOutputTokens(of requests: [RequestRecord]) -> [Int64] {
        let byEnd = requests.indices.sorted { requests[$0].ts &+ requests[$0].dur < requests[$1].ts &+ requests[$1].dur }
        let byStart = requests.indices.sorted { requests[$0].ts < requests[$1].ts }
        var result = Array(repeating: Int64(0), count: requests.count)
        var written: Int64 = 0
        var next = 0
        for index in byStart {
            while next < byEnd.count, requests[byEnd[next]].ts &+ requests[byEnd[next]].dur <= requests[index].ts {
                written = written.saturatingAdd(requests[byEnd[next]].outputTokens ?? 0)
                next += 1
            }
            result[index] = written
        }
        return result
    }

    /// Every request priced by `prices` (see ``RequestSample/cost``), from its provider, model and
    /// tokens; a request whose output tokens or provider are unknown stays unpriced.
    public func priced(by prices: PriceTable) -> LatencyBaseline {
        var copy = self
        for index in copy.groups.indices {
            let model = copy.groups[index].key.model
            for run in copy.groups[index].runs.indices {
                for row in copy.groups[index].runs[run].requests.indices {
                    var request = copy.groups[index].runs[run].requests[row]
                    guard let provider = request.provider, request.outputTokens != nil else { continue }
                    request.cost = prices.cost(
                        provider: provider, model: model, inputTokens: request.inputTokens,
                        cachedInputTokens: request.cachedInputTokens, cacheWriteTokens: request.cacheWriteTokens,
                        outputTokens: request.outputTokens)
                    copy.groups[index].runs[run].requests[row] = request
                }
            }
        }
        return copy
    }

    /// Loads stores (`.sqlite`) and baseline files (`.json`) and pools them into one.
    public static func make(paths: [String], grouping: ScenarioGrouping?) throws(LoadError) -> LatencyBaseline {
        var traces: [RecordedTrace] = []
        var files: [LatencyBaseline] = []
        for path in paths {
            if path.hasSuffix(".json") {
                files.append(try read(path: path))
            } else {
                do { traces.append(try TraceLoader.load(path: path, chunks: false)) } catch { throw .store(error) }
            }
        }
        let chosen = grouping ?? files.first?.grouping ?? .label
        for file in files where file.grouping != chosen {
            throw .notABaseline(
                path: file.sources.first ?? "baseline",
                reason: "it groups by \(file.grouping.rawValue), not by \(chosen.rawValue)")
        }
        var pooled = make(traces: traces, grouping: chosen)
        for file in files { pooled = pooled.merged(with: file) }
        pooled.sources = paths
        return pooled
    }

    /// Both baselines' runs, group by group.
    public func merged(with other: LatencyBaseline) -> LatencyBaseline {
        var byKey = Dictionary(groups.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        for group in other.groups {
            if var mine = byKey[group.key] {
                mine.runs = Self.capped(mine.runs + group.runs)
                mine.repeatedCalls = Array(Set(mine.repeatedCalls).union(group.repeatedCalls)).sorted()
                byKey[group.key] = mine
            } else {
                byKey[group.key] = group
            }
        }
        var merged = LatencyBaseline(grouping: grouping, sources: sources + other.sources,
                                     groups: byKey.keys.sorted().map { byKey[$0]! })
        merged.anomalies = anomalies + other.anomalies
        return merged
    }

    /// Thins runs evenly so a group keeps at most ``sampleCap`` requests in all.
    static func capped(_ runs: [ScenarioSamples.Run]) -> [ScenarioSamples.Run] {
        let total = runs.reduce(0) { $0 + $1.requests.count }
        guard total > sampleCap else { return runs }
        let stride = Int((Double(total) / Double(sampleCap)).rounded(.up))
        return runs.map { run in
            ScenarioSamples.Run(
                runID: run.runID,
                requests: run.requests.enumerated().filter { $0.offset % stride == 0 }.map(\.element),
                serverNanosPerToken: run.serverNanosPerToken)
        }
    }

    // MARK: - JSON

    /// The baseline as JSON: keys in a fixed order, groups sorted, so a re-recorded baseline
    /// diffs cleanly in review.
    public var json: OrderedJSON {
        .object([
            ("kind", .string(Self.formatKind)),
            ("version", .int(Self.formatVersion)),
            ("group_by", .string(grouping.rawValue)),
            ("percentile_method", .string("nearest-rank")),
            ("sources", .array(sources.map(OrderedJSON.string))),
            ("groups", .array(groups.map(Self.json(group:)))),
        ])
    }

    private static func json(group: ScenarioSamples) -> OrderedJSON {
        let rows = group.requests
        func summary(_ metric: GateMetric) -> OrderedJSON {
            let p50 = MetricKey(metric, .percentile(50)).value(of: rows)
            let p95 = MetricKey(metric, .percentile(95)).value(of: rows)
            return .object([("p50", rounded(metric, p50)), ("p95", rounded(metric, p95))])
        }
        return .object([
            ("scenario", .string(group.key.scenario)),
            ("profile", .string(group.key.profile)),
            ("model", .string(group.key.model)),
            ("samples", .int(Int64(rows.count))),
            ("runs_count", .int(Int64(group.runs.count))),
            ("summary", .object([
                ("ttft_ns", summary(.ttft)),
                ("tokens_per_second", summary(.tokensPerSecond)),
                ("latency_ns", summary(.latency)),
                ("tool_calls_mean", rounded(.toolCalls, MetricKey(.toolCalls, .mean).value(of: rows))),
                ("input_tokens", summary(.inputTokens)),
                ("cache_hit_rate", rounded(.cacheHitRate, MetricKey(.cacheHitRate, .overall).value(of: rows))),
            ])),
            ("repeated_tool_calls", .array(group.repeatedCalls.map { call in
                .object([("kind", .string(call.kind)), ("session", .string(call.session)), ("tool", .string(call.tool))])
            })),
            ("runs", .array(group.runs.map { run in
                .object([
                    ("run_id", .int(run.runID)),
                    ("server_ns_per_token", .int(run.serverNanosPerToken.map { Int64($0.rounded()) })),
                    ("ttft_ns", .array(run.requests.map { .int($0.ttft) })),
                    ("latency_ns", .array(run.requests.map { .int($0.latency) })),
                    ("tokens_per_second", .array(run.requests.map { rounded(.tokensPerSecond, $0.tokensPerSecond) })),
                    ("tool_calls", .array(run.requests.map { .int($0.toolCalls) })),
                    ("input_tokens", .array(run.requests.map { .int($0.inputTokens) })),
                    ("cached_input_tokens", .array(run.requests.map { .int($0.cachedInputTokens) })),
                    ("output_tokens", .array(run.requests.map { .int($0.outputTokens) })),
                    ("cache_write_tokens", .array(run.requests.map { .int($0.cacheWriteTokens) })),
                    ("provider", .array(run.requests.map { .string($0.provider) })),
                    ("max_tokens", .array(run.requests.map { .int($0.maxTokens) })),
                    ("temperature", .array(run.requests.map { $0.temperature.map(OrderedJSON.double) ?? .null })),
                    ("earlier_output_tokens", .array(run.requests.map { .int($0.earlierOutputTokens) })),
                ])
            })),
        ])
    }

    /// Integers stay integers; rates keep three decimals, ratios four, so files stay readable.
    private static func rounded(_ metric: GateMetric, _ value: Double?) -> OrderedJSON {
        guard let value, value.isFinite else { return .null }
        switch metric {
        case .tokensPerSecond, .toolCalls: return .double((value * 1000).rounded() / 1000)
        case .cacheHitRate: return .double((value * 10000).rounded() / 10000)
        default: return .int(Int64(value.rounded()))
        }
    }

    /// Writes the baseline's JSON to `path`, replacing it.
    public func write(path: String) throws(LoadError) {
        do {
            try Data((json.serialized() + "\n").utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw .unreadable(path: path, reason: "\(error.localizedDescription)")
        }
    }

    /// Reads a baseline file written by ``write(path:)``.
    public static func read(path: String) throws(LoadError) -> LatencyBaseline {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "\(error.localizedDescription)" : "it does not exist"
            throw .unreadable(path: path, reason: reason)
        }
        let root: [String: Any]
        do {
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw LoadError.notABaseline(path: path, reason: "the JSON is not an object")
            }
            root = object
        } catch let error as LoadError {
            throw error
        } catch {
            throw .notABaseline(path: path, reason: "it is not valid JSON")
        }
        guard root["kind"] as? String == formatKind else {
            throw .notABaseline(path: path, reason: "no \"kind\": \"\(formatKind)\"")
        }
        guard let version = try sample(root["version"], "version", in: PlausibleRange.identifier, path: path) else {
            throw .notABaseline(path: path, reason: "no version")
        }
        guard version <= formatVersion else { throw .newerVersion(path: path, version: version) }
        guard let groupBy = (root["group_by"] as? String).flatMap(ScenarioGrouping.init(rawValue:)) else {
            throw .notABaseline(path: path, reason: "group_by is not label or interval")
        }
        guard let groupObjects = root["groups"] as? [[String: Any]] else {
            throw .notABaseline(path: path, reason: "no groups array")
        }
        var groups: [ScenarioSamples] = []
        for (index, object) in groupObjects.enumerated() {
            guard let scenario = object["scenario"] as? String, let profile = object["profile"] as? String,
                let model = object["model"] as? String, let runObjects = object["runs"] as? [[String: Any]]
            else {
                throw .notABaseline(path: path, reason: "group \(index + 1) lacks scenario, profile, model or runs")
            }
            var runs: [ScenarioSamples.Run] = []
            for run in runObjects {
                guard let latencies = run["latency_ns"] as? [Any] else {
                    throw .notABaseline(path: path, reason: "a run of group \(index + 1) has no latency_ns")
                }
                /// Column `name` of the run, each value checked by `sample`.
                func column<Value>(
                    _ name: String, _ sample: (Any?, String) throws(LoadError) -> Value?
                ) throws(LoadError) -> [Value?] {
                    // Columns added after version 1 was first written may be absent: unknown.
                    guard let values = run[name] as? [Any] else {
                        return Array(repeating: nil, count: latencies.count)
                    }
                    guard values.count == latencies.count else {
                        throw .notABaseline(path: path, reason: "\(name) of group \(index + 1) is not aligned")
                    }
                    var checked: [Value?] = []
                    for value in values { checked.append(try sample(value, "\(name) of group \(index + 1)")) }
                    return checked
                }
                func integer(_ range: ClosedRange<Int64>) -> (Any?, String) throws(LoadError) -> Int64? {
                    { value, name throws(LoadError) in try Self.sample(value, name, in: range, path: path) }
                }
                let latency = try column("latency_ns", integer(PlausibleRange.duration))
                let ttft = try column("ttft_ns", integer(PlausibleRange.duration))
                let rate = try column("tokens_per_second") { value, name throws(LoadError) in
                    try Self.sample(value, name, in: 0...Double.greatestFiniteMagnitude, path: path)
                }
                let tools = try column("tool_calls", integer(PlausibleRange.count))
                let input = try column("input_tokens", integer(PlausibleRange.count))
                let cached = try column("cached_input_tokens", integer(PlausibleRange.count))
                let output = try column("output_tokens", integer(PlausibleRange.count))
                let written = try column("cache_write_tokens", integer(PlausibleRange.count))
                let caps = try column("max_tokens", integer(PlausibleRange.count))
                let temperatures = try column("temperature") { value, name throws(LoadError) in
                    try Self.sample(value, name, in: 0...Double.greatestFiniteMagnitude, path: path)
                }
                let earlier = try column("earlier_output_tokens", integer(PlausibleRange.count))
                let providers = try column("provider") { value, name throws(LoadError) -> String? in
                    guard let value, !(value is NSNull) else { return nil }
                    guard let text = value as? String else {
                        throw .notABaseline(path: path, reason: "\(name) holds a value that is not a string")
                    }
                    return text
                }
                var requests: [RequestSample] = []
                for row in latency.indices {
                    guard let latency = latency[row] else {
                        throw .notABaseline(path: path, reason: "a latency of group \(index + 1) is not a number")
                    }
                    requests.append(RequestSample(
                        ttft: ttft[row], latency: latency, tokensPerSecond: rate[row], toolCalls: tools[row] ?? 0,
                        inputTokens: input[row], cachedInputTokens: cached[row], outputTokens: output[row],
                        cacheWriteTokens: written[row], provider: providers[row], maxTokens: caps[row],
                        temperature: temperatures[row], earlierOutputTokens: earlier[row]))
                }
                let speed = try Self.sample(
                    run["server_ns_per_token"], "server_ns_per_token of group \(index + 1)",
                    in: 0...Double(PlausibleRange.duration.upperBound), path: path)
                runs.append(ScenarioSamples.Run(
                    runID: try Self.sample(run["run_id"], "run_id of group \(index + 1)",
                                           in: PlausibleRange.identifier, path: path) ?? 0,
                    requests: requests, serverNanosPerToken: speed))
            }
            let repeated = (object["repeated_tool_calls"] as? [[String: Any]] ?? []).compactMap { call in
                (call["kind"] as? String).flatMap { kind in
                    (call["session"] as? String).flatMap { session in
                        (call["tool"] as? String).map { RepeatedCall(kind: kind, session: session, tool: $0) }
                    }
                }
            }
            groups.append(ScenarioSamples(
                key: ScenarioKey(scenario: scenario, profile: profile, model: model), runs: runs,
                repeatedCalls: repeated.sorted()))
        }
        return LatencyBaseline(grouping: groupBy, sources: [path], groups: groups.sorted { $0.key < $1.key })
    }

    /// A whole number of a baseline file: nil for null or absent; a number outside `range`, a
    /// fraction or anything else refuses the file, naming where and what.
    private static func sample(
        _ any: Any?, _ name: String, in range: ClosedRange<Int64>, path: String
    ) throws(LoadError) -> Int64? {
        guard let any, !(any is NSNull) else { return nil }
        if let value = any as? Int {
            guard range.contains(Int64(value)) else { throw outside(name, "\(value)", range, path) }
            return Int64(value)
        }
        guard let value = (any as? NSNumber)?.doubleValue else {
            throw .notABaseline(path: path, reason: "\(name) holds a value that is not a number")
        }
        guard value == value.rounded(), let whole = PlausibleRange.nearest(value, in: range),
            Double(whole) == value
        else {
            throw outside(name, "\(value)", range, path)
        }
        return whole
    }

    /// A real number of a baseline file: nil for null or absent; a number outside `range` (or not
    /// finite) or anything else refuses the file.
    private static func sample(
        _ any: Any?, _ name: String, in range: ClosedRange<Double>, path: String
    ) throws(LoadError) -> Double? {
        guard let any, !(any is NSNull) else { return nil }
        guard let value = (any as? NSNumber)?.doubleValue else {
            throw .notABaseline(path: path, reason: "\(name) holds a value that is not a number")
        }
        guard range.contains(value) else {
            throw .notABaseline(path: path, reason: "\(name) holds \(value), outside \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    private static func outside(_ name: String, _ value: String, _ range: ClosedRange<Int64>, _ path: String)
        -> LoadError
    {
        .notABaseline(path: path, reason: "\(name) holds \(value), outside \(PlausibleRange.describe(range))")
    }
}
