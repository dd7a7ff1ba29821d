import Reproducible
import SessionTrace
import TraceModel
import TraceStore

/// Latency, generation rate, cache and error figures per run, per session and per profile/model.
///
/// Percentiles are nearest-rank (see ``Percentile``). Generation rate is output tokens after the
/// first over the time since the first, `(output_tokens - 1) / ((dur - ttft) / 1e9)`, for
/// requests where it is measurable. Cache hit rate is the server-reported cached input tokens
/// over input tokens, each summed over the requests that report both. Model time is the sum of
/// request durations; tool time the sum of tool-call durations. The time to first token is also
/// split, where the server reported its timings, into its prompt processing and the rest
/// (``TTFTSplit``), each with its own median.
public struct SummaryReport: Sendable {
    /// The figures of one group of requests.
    /// A request and the parts of its wait.
    public struct MedianWait: Sendable, Hashable {
        public var requestID: Int64
        public var parts: TTFTSplit.Parts
    }

    public struct Group: Sendable, Hashable {
        /// What the group is: a run, a session or a profile/model pair.
        public enum Kind: String, Sendable { case run, session, profile }

        public var kind: Kind
        public var runID: Int64?
        public var sessionID: Int64?
        /// The run's or session's label; nil for profile/model groups.
        public var label: String?
        public var profile: String?
        public var model: String?
        /// The earliest request's `ts`, for ordering.
        public var firstTimestamp: Int64
        public var requests: Int64 = 0
        public var ttftP50: Int64?
        public var ttftP95: Int64?
        public var ttftMax: Int64?
        /// Requests whose server reported its timings, so that their time to first token splits
        /// into the server's prompt processing and the rest (``TTFTSplit``).
        public var splitRequests: Int64 = 0
        /// Median of those requests' server prompt processing; nil when no server reported timings.
        public var ttftPromptP50: Int64?
        /// Median of those requests' rest of the wait: queueing, network and the client.
        public var ttftRestP50: Int64?
        /// The request at the median time to first token and its wait in five parts, which add up
        /// to its time to first token (``TTFTSplit/Parts``); nil when it has nothing to split it by.
        public var ttftMedianParts: MedianWait?
        public var tokensPerSecondP50: Double?
        public var latencyP50: Int64?
        public var latencyP95: Int64?
        /// Sum of request durations: the time spent waiting on the model.
        public var modelTime: Int64 = 0
        /// Sum of tool-call durations of the group's requests.
        public var toolTime: Int64 = 0
        public var toolCalls: Int64 = 0
        public var inputTokens: Int64 = 0
        public var cachedInputTokens: Int64 = 0
        /// `cachedInputTokens / inputTokens`; nil when no request reported both.
        public var cacheHitRate: Double?
        public var errors: Int64 = 0
        /// Dollars of the priced requests (``SummaryReport/prices``); nil when none was priced.
        public var cost: Double?
        /// Requests that reported tokens but whose model the price table has no price for.
        public var unpricedRequests: Int64 = 0
        /// Events the sinks could not record; known per run only.
        public var droppedEvents: Int64?
        /// Set when the run ended without closing (crashed or killed); known per run only.
        public var unclosed: UnclosedRun?
    }

    public var path: String
    /// The price table the costs come from; nil when no prices were given.
    public var prices: PriceTable?
    public var runs: [Group]
    public var sessions: [Group]
    /// One group per profile and model pair, across runs, most requests first.
    public var profiles: [Group]

    public var requestCount: Int64 { runs.saturatingSum(\.requests) }
    public var errorCount: Int64 { runs.saturatingSum(\.errors) }
    public var droppedCount: Int64 { runs.saturatingSum { $0.droppedEvents ?? 0 } }

    /// The fields the summary reads, by kind and store column: a store or an LTTng trace is read
    /// for these alone.
    package static let fieldsRead: FieldSelection = [
        .run: ["label"],
        .session: ["label"],
        .request: [
            "session_id", "ts", "dur", "ttft", "profile", "provider", "model", "input_tokens",
            "cached_input_tokens", "output_tokens", "error", "cache_write_tokens",
            // Whether the server reported timings, and its prompt processing: the TTFT split; with
            // the queue and the client's phases, the five parts of the median request's wait.
            "server_prompt_tokens", "server_prompt_dur", "server_queue_dur", "client_first_byte", "client_sent",
        ],
        .toolCall: ["request_id", "session_id", "dur"],
        .dropped: ["count"],
    ]

    /// Aggregates a store by streaming its records (``fieldsRead`` only) through the one ``Fold``:
    /// a million requests cost one pass over the table and a linear-time selection per percentile.
    public static func compute(
        reader: StoreReader, prices: PriceTable? = nil
    ) throws(StoreError) -> SummaryReport {
        try compute(readers: [reader], prices: prices)
    }

    /// Aggregates several stores as one (their runs side by side), streaming each through the
    /// same ``Fold``; `path` names them all, comma-separated.
    public static func compute(
        readers: [StoreReader], prices: PriceTable? = nil
    ) throws(StoreError) -> SummaryReport {
        var fold = Fold(prices: prices)
        for reader in readers {
            try reader.forEachRecord(selecting: fieldsRead) { event, runID in fold.add(event, runID: runID) }
            fold.unclosed += try reader.unclosedRuns()
        }
        return fold.finish(path: readers.map(\.path).joined(separator: ", "))
    }

    /// Aggregates a loaded trace through the same ``Fold``; the same figures as ``compute(reader:)``.
    public static func compute(trace: RecordedTrace, prices: PriceTable? = nil) -> SummaryReport {
        var fold = Fold(prices: prices)
        for run in trace.runs {
            let runID = run.run.runID
            fold.add(.run(run.run), runID: runID)
            for session in run.sessions { fold.add(.session(session), runID: runID) }
            for request in run.requests { fold.add(.request(request), runID: runID) }
            for call in run.toolCalls { fold.add(.toolCall(call), runID: runID) }
            for dropped in run.dropped { fold.add(.dropped(dropped), runID: runID) }
        }
        fold.unclosed = trace.unclosedRuns
        return fold.finish(path: trace.path)
    }

    // MARK: - Accumulation

    /// A request of a run: how a tool call finds the request it was made for.
    private struct RunRequest: Hashable {
        var runID: Int64
        var requestID: Int64
    }

    private struct SessionKey: Hashable {
        var runID: Int64
        var sessionID: Int64?
    }

    private struct ProfileKey: Hashable {
        var profile: String
        var model: String
    }

    /// The raw values of one group until percentiles are taken.
    private struct Accumulator {
        var group: Group
        var ttfts: [Int64] = []
        var rates: [Double] = []
        var latencies: [Int64] = []
        var prompts: [Int64] = []
        var rests: [Int64] = []
        var waits: [(ttft: Int64, requestID: Int64, parts: TTFTSplit.Parts?)] = []

        mutating func add(_ request: RequestRecord, cost: Double?, priced: Bool) {
            group.requests += 1
            if let cost {
                group.cost = (group.cost ?? 0) + cost
            } else if priced, request.inputTokens != nil || request.outputTokens != nil {
                group.unpricedRequests += 1
            }
            group.firstTimestamp = min(group.firstTimestamp, request.ts)
            group.modelTime = group.modelTime.saturatingAdd(request.dur)
            latencies.append(request.dur)
            if let ttft = request.timeToFirstToken {
                ttfts.append(ttft)
                waits.append((ttft, request.requestID, TTFTSplit.Parts(request)))
                if let serverPromptDuration = request.serverTimings?.promptDuration {
                    let split = TTFTSplit(ttft: ttft, serverPromptDuration: serverPromptDuration)
                    prompts.append(split.prompt)
                    rests.append(split.rest)
                }
                if let outputTokens = request.outputTokens, outputTokens > 1, request.dur > ttft {
                    rates.append(Double(outputTokens - 1) / (Double(request.dur - ttft) / 1e9))
                }
            }
            if let inputTokens = request.inputTokens, let cachedInputTokens = request.cachedInputTokens {
                group.inputTokens = group.inputTokens.saturatingAdd(inputTokens)
                group.cachedInputTokens = group.cachedInputTokens.saturatingAdd(cachedInputTokens)
            }
            if request.error != nil { group.errors += 1 }
        }

        mutating func finish() -> Group {
            var group = group
            if !ttfts.isEmpty {
                group.ttftP50 = Percentile.select(&ttfts, rank: Percentile.rank(50, count: ttfts.count))
                group.ttftP95 = Percentile.select(&ttfts, rank: Percentile.rank(95, count: ttfts.count))
                group.ttftMax = ttfts.max()
                // The request at the median (the lowest id among ties, whatever the order): one pass.
                if let p50 = group.ttftP50,
                    let median = waits.filter({ $0.ttft == p50 }).min(by: { $0.requestID < $1.requestID })
                {
                    group.ttftMedianParts = median.parts.map { MedianWait(requestID: median.requestID, parts: $0) }
                }
            }
            if !prompts.isEmpty {
                group.splitRequests = Int64(prompts.count)
                group.ttftPromptP50 = Percentile.select(&prompts, rank: Percentile.rank(50, count: prompts.count))
                group.ttftRestP50 = Percentile.select(&rests, rank: Percentile.rank(50, count: rests.count))
            }
            if !rates.isEmpty {
                group.tokensPerSecondP50 = Percentile.select(&rates, rank: Percentile.rank(50, count: rates.count))
            }
            if !latencies.isEmpty {
                group.latencyP50 = Percentile.select(&latencies, rank: Percentile.rank(50, count: latencies.count))
                group.latencyP95 = Percentile.select(&latencies, rank: Percentile.rank(95, count: latencies.count))
            }
            if group.inputTokens > 0 {
                group.cacheHitRate = Double(group.cachedInputTokens) / Double(group.inputTokens)
            }
            return group
        }
    }

    /// The one fold of the summary: every source (a store, a loaded trace, an LTTng stream) hands
    /// it its records one by one, in any order, and ``finish(path:)`` gives the report.
    package struct Fold {
        let prices: PriceTable?
        private var runLabels: [Int64: String?] = [:]
        private var sessionLabels: [Int64: String] = [:]
        private var dropped: [Int64: Int64] = [:]
        /// The runs that ended without closing, as the store's reader found them.
        package var unclosed: [UnclosedRun] = []
        private var runs: [Accumulator] = []
        private var runIndex: [Int64: Int] = [:]
        private var sessions: [Accumulator] = []
        private var sessionIndex: [SessionKey: Int] = [:]
        private var profiles: [Accumulator] = []
        private var profileIndex: [ProfileKey: Int] = [:]
        /// Each request's profile/model group, for the tool calls made for it: a list, looked up at
        /// the end for the requests a tool call names only, so a million requests cost no table.
        private var requestProfiles: [(request: RunRequest, profile: Int)] = []
        /// Tool calls, added once every request is known: a call may be read before its request.
        private var toolCalls: [(runID: Int64, requestID: Int64?, sessionID: Int64?, dur: Int64)] = []

        package init(prices: PriceTable?) { self.prices = prices }
        /// The group each of the last request's keys found: consecutive requests mostly share them.
        private var lastRun: (key: Int64, slot: Int)?
        private var lastSession: (key: SessionKey, slot: Int)?
        private var lastProfile: (key: ProfileKey, slot: Int)?

        /// Adds one record of run `runID`; kinds the summary does not read are ignored.
        package mutating func add(_ event: TraceEvent, runID: Int64) {
            switch event {
            case .run(let run): runLabels[runID] = run.label
            case .session(let session): sessionLabels[session.sessionID] = session.label
            case .request(let request): add(request, runID: runID)
            case .toolCall(let call):
                toolCalls.append((runID, call.requestID, call.sessionID, call.dur))
            case .dropped(let record): dropped[runID] = dropped[runID, default: 0].saturatingAdd(record.count)
            case .handoff, .interval, .instant, .chunk, .payload: break
            }
        }

        private mutating func runSlot(_ runID: Int64) -> Int {
            if let last = lastRun, last.key == runID { return last.slot }
            let slot: Int
            if let index = runIndex[runID] {
                slot = index
            } else {
                runs.append(Accumulator(group: Group(kind: .run, runID: runID, firstTimestamp: .max)))
                slot = runs.count - 1
                runIndex[runID] = slot
            }
            lastRun = (runID, slot)
            return slot
        }

        private mutating func sessionSlot(_ key: SessionKey) -> Int {
            if let last = lastSession, last.key == key { return last.slot }
            let slot: Int
            if let index = sessionIndex[key] {
                slot = index
            } else {
                sessions.append(Accumulator(
                    group: Group(kind: .session, runID: key.runID, sessionID: key.sessionID, firstTimestamp: .max)))
                slot = sessions.count - 1
                sessionIndex[key] = slot
            }
            lastSession = (key, slot)
            return slot
        }

        private mutating func profileSlot(_ key: ProfileKey) -> Int {
            if let last = lastProfile, last.key == key { return last.slot }
            let slot: Int
            if let index = profileIndex[key] {
                slot = index
            } else {
                profiles.append(
                    Accumulator(group: Group(kind: .profile, profile: key.profile, model: key.model, firstTimestamp: .max)))
                slot = profiles.count - 1
                profileIndex[key] = slot
            }
            lastProfile = (key, slot)
            return slot
        }

        /// Adds a request to its run, its session and its profile/model group.
        private mutating func add(_ request: RequestRecord, runID: Int64) {
            let cost = prices?.cost(of: request)
            let priced = prices != nil
            let slots = [
                runSlot(runID), sessionSlot(SessionKey(runID: runID, sessionID: request.sessionID)),
                profileSlot(ProfileKey(profile: request.profile, model: request.model)),
            ]
            runs[slots[0]].add(request, cost: cost, priced: priced)
            sessions[slots[1]].add(request, cost: cost, priced: priced)
            profiles[slots[2]].add(request, cost: cost, priced: priced)
            requestProfiles.append((RunRequest(runID: runID, requestID: request.requestID), slots[2]))
        }

        /// Adds a tool call's time to its run, its session and its request's profile/model group;
        /// calls without a known request (a run that recorded tools only) count in their run and
        /// session all the same.
        private mutating func addToolCall(runID: Int64, sessionID: Int64?, profileSlot pair: Int?, dur: Int64) {
            let run = runSlot(runID)
            runs[run].group.toolTime = runs[run].group.toolTime.saturatingAdd(dur)
            runs[run].group.toolCalls += 1
            let session = sessionSlot(SessionKey(runID: runID, sessionID: sessionID))
            sessions[session].group.toolTime = sessions[session].group.toolTime.saturatingAdd(dur)
            sessions[session].group.toolCalls += 1
            if let pair {
                profiles[pair].group.toolTime = profiles[pair].group.toolTime.saturatingAdd(dur)
                profiles[pair].group.toolCalls += 1
            }
        }

        /// The report of every record added.
        package mutating func finish(path: String) -> SummaryReport {
            let named = Set(toolCalls.compactMap { call in
                call.requestID.map { RunRequest(runID: call.runID, requestID: $0) }
            })
            var profileOfRequest: [RunRequest: Int] = [:]
            for (request, profile) in named.isEmpty ? [] : requestProfiles
            where named.contains(request) && profileOfRequest[request] == nil {
                profileOfRequest[request] = profile
            }
            for call in toolCalls {
                let profile = call.requestID.flatMap { profileOfRequest[RunRequest(runID: call.runID, requestID: $0)] }
                addToolCall(runID: call.runID, sessionID: call.sessionID, profileSlot: profile, dur: call.dur)
            }
            toolCalls = []
            requestProfiles = []
            for (runID, _) in dropped { _ = runSlot(runID) }
            for run in unclosed { _ = runSlot(run.runID) }
            let unclosedByID = Dictionary(unclosed.map { ($0.runID, $0) }) { first, _ in first }
            var runGroups = runs.indices.map { runs[$0].finish() }
            for index in runGroups.indices {
                let id = runGroups[index].runID!
                runGroups[index].label = runLabels[id] ?? nil
                runGroups[index].droppedEvents = dropped[id] ?? 0
                runGroups[index].unclosed = unclosedByID[id]
            }
            var sessionGroups = sessions.indices.map { sessions[$0].finish() }
            for index in sessionGroups.indices {
                let id = sessionGroups[index].sessionID
                sessionGroups[index].label = id.map { sessionLabels[$0] ?? "session \($0)" } ?? "(no session)"
            }
            runGroups.sort { ($0.firstTimestamp, $0.runID ?? 0) < ($1.firstTimestamp, $1.runID ?? 0) }
            sessionGroups.sort { ($0.firstTimestamp, $0.sessionID ?? -1) < ($1.firstTimestamp, $1.sessionID ?? -1) }
            let profileGroups = profiles.indices.map { profiles[$0].finish() }.sorted {
                ($0.requests, $1.profile ?? "", $1.model ?? "") > ($1.requests, $0.profile ?? "", $0.model ?? "")
            }
            return SummaryReport(
                path: path, prices: prices, runs: runGroups, sessions: sessionGroups, profiles: profileGroups)
        }
    }
}

// MARK: - Output

extension SummaryReport {

    /// The report as JSON; keys are documented in `docs/trace-report.md`.
    public var json: OrderedJSON {
        .object([
            ("store", .string(path)),
            ("percentile_method", .string("nearest-rank")),
            ("requests", .int(requestCount)),
            ("errors", .int(errorCount)),
            ("dropped_events", .int(droppedCount)),
            ("prices", .string(prices?.path)),
            ("runs", .array(runs.map(\.json))),
            ("sessions", .array(sessions.map(\.json))),
            ("profiles", .array(profiles.map(\.json))),
        ])
    }
}

extension SummaryReport.Group {
    public var json: OrderedJSON {
        var members: [(String, OrderedJSON)] = []
        switch kind {
        case .run:
            members += [("run_id", .id(runID)), ("run_short_id", .string(runID.map(ShortID.run))), ("label", .string(label))]
        case .session:
            members += [
                ("run_id", .id(runID)), ("run_short_id", .string(runID.map(ShortID.run))), ("session_id", .id(sessionID)),
                ("session_short_id", .string(sessionID.map(ShortID.record))), ("label", .string(label)),
            ]
        case .profile:
            members += [("profile", .string(profile)), ("model", .string(model))]
        }
        members += [
            ("requests", .int(requests)),
            ("ttft_ns", .object([("p50", .int(ttftP50)), ("p95", .int(ttftP95)), ("max", .int(ttftMax))])),
            (
                "ttft_split",
                .object([
                    ("requests", .int(splitRequests)), ("server_prompt_p50_ns", .int(ttftPromptP50)),
                    ("rest_p50_ns", .int(ttftRestP50)),
                ])
            ),
            (
                "ttft_p50_request",
                ttftMedianParts.map { median in
                    .object([
                        ("request_id", .id(median.requestID)),
                        ("request_short_id", .string(ShortID.record(median.requestID))), ("ttft_ns", .int(median.parts.ttft)),
                        ("parts", median.parts.json),
                    ])
                } ?? .null
            ),
            ("tokens_per_second_p50", .double(tokensPerSecondP50)),
            ("latency_ns", .object([("p50", .int(latencyP50)), ("p95", .int(latencyP95)), ("sum", .int(modelTime))])),
            ("model_time_ns", .int(modelTime)),
            ("tool_time_ns", .int(toolTime)),
            ("tool_calls", .int(toolCalls)),
            ("input_tokens", .int(inputTokens)),
            ("cached_input_tokens", .int(cachedInputTokens)),
            ("cache_hit_rate", .double(cacheHitRate)),
            ("cost_usd", .double(cost)),
            ("unpriced_requests", .int(unpricedRequests)),
            ("errors", .int(errors)),
        ]
        if kind == .run {
            members.append(("dropped_events", .int(droppedEvents ?? 0)))
            members.append(("ended_without_closing", unclosed.map(\.json) ?? .null))
        }
        return .object(members)
    }
}
