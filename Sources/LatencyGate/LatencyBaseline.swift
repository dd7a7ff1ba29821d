import Foundation
import LTTngReader
import Reproducible
import SessionTrace
import TraceAnalysis
import TraceModel
import TraceStore

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

    /// The samples as if every request had run at `reference` ns per generated token: its time to
    /// first token and latency scaled by `reference / speed`, its rate by the inverse, where speed
    /// is the machine's around it (``RequestSample/nearbyServerNanosPerToken``), else its run's. A
    /// request on a machine twice as busy generates at half the speed and is halved back. Runs
    /// without server timings are left as recorded.
    public func normalized(toServerNanosPerToken reference: Double) -> LatencyBaseline {
        var copy = self
        for index in copy.groups.indices {
            copy.groups[index].runs = copy.groups[index].runs.map { run in
                guard let runSpeed = run.serverNanosPerToken, runSpeed > 0 else { return run }
                var scaled = run
                scaled.requests = run.requests.map { request in
                    let nearby = request.nearbyServerNanosPerToken ?? 0
                    let factor = reference / (nearby > 0 ? nearby : runSpeed)
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
                let perToken = run.requests.map { request -> Double? in
                    guard let timings = request.serverTimings, timings.predictedTokens > 0,
                        timings.predictedDuration > 0
                    else { return nil }
                    return Double(timings.predictedDuration) / Double(timings.predictedTokens)
                }
                let nearby = NearbySpeed.of(perToken: perToken, starts: run.requests.map(\.ts))
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
                        toolCalls: Int64(run.toolCallsByRequest[request.requestID]?.count ?? 0), usage: request.usage,
                        provider: request.provider, maxTokens: request.maxTokens, temperature: request.temperature,
                        earlierOutputTokens: earlier[position], nearbyServerNanosPerToken: nearby[position]))
                }
                let speed = Percentile.nearestRank(50, of: perToken.compactMap { $0 })
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
                    request.cost = prices.cost(provider: provider, model: model, usage: request.usage)
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
            ("runs", .array(group.runs.map(json(run:)))),
        ])
    }

    private static func json(run: ScenarioSamples.Run) -> OrderedJSON {
        let rows = run.requests
        var members: [(String, OrderedJSON)] = [
            ("run_id", .id(run.runID)),
            ("server_ns_per_token", .int(run.serverNanosPerToken.map { Int64($0.rounded()) })),
            ("ttft_ns", .array(rows.map { .int($0.ttft) })),
            ("latency_ns", .array(rows.map { .int($0.latency) })),
            ("tokens_per_second", .array(rows.map { rounded(.tokensPerSecond, $0.tokensPerSecond) })),
            ("tool_calls", .array(rows.map { .int($0.toolCalls) })),
        ]
        for count in RequestUsage.counts {
            let path: WritableKeyPath<RequestUsage, Int64?> = count.path
            members.append((count.column, .array(rows.map { .int($0.usage[keyPath: path]) })))
        }
        members += [
            ("provider", .array(rows.map { .string($0.provider) })),
            ("max_tokens", .array(rows.map { .int($0.maxTokens) })),
            ("temperature", .array(rows.map { $0.temperature.map(OrderedJSON.double) ?? .null })),
            ("earlier_output_tokens", .array(rows.map { .int($0.earlierOutputTokens) })),
            ("nearby_server_ns_per_token", .array(rows.map { .int($0.nearbyServerNanosPerToken.map { Int64($0.rounded()) }) })),
        ]
        return .object(members)
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
}
