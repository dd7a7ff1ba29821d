import Redaction
import Reproducible
import SessionTrace
import TraceAnalysis
import TraceModel

/// The data the web viewer reads: every run of one or two stores, their findings and summary,
/// as one JSON object (format in `docs/viewer-data.md`), with every string redacted.
///
/// ```swift
/// let trace = try TraceLoader.load(path: "run.sqlite")
/// let data = ViewerData.build([trace])
/// print(data.json.compact(), data.redaction.summary)
/// ```
///
/// Ids are strings, since 64-bit ids lose digits as JavaScript numbers; times are nanoseconds
/// since the start of their run (``RecordedRun/startTime``), which fit a JavaScript number exactly
/// for runs shorter than 104 days.
public struct ViewerData: Sendable {
    /// The format's version, `"version"` in the JSON.
    public static let version: Int64 = 1

    /// The document, ready to serialize.
    public var json: OrderedJSON
    /// What the redactor replaced while building it, by kind.
    public var redaction: RedactionReport
    /// Runs, requests, tool calls and handoffs in the document, for the CLI's one-line report.
    public var runCount: Int
    public var requestCount: Int
    public var toolCallCount: Int
    public var handoffCount: Int

    /// Builds the viewer's document for `traces`: one, or two for a diff, whose runs are shown one
    /// above the other on the same time scale.
    ///
    /// - Parameter redactor: applied to every string through ``RedactedTrace``, the one redaction
    ///   every export goes through; findings and summaries are computed from the redacted records.
    /// With `prices`, each request, run and finding also carries its cost in dollars; `diff`, the
    /// JSON of `trace-report diff` on the two traces, is carried as it is for the comparison panel.
    public static func build(
        _ traces: [RecordedTrace], redactor: Redactor = .standard, prices: PriceTable? = nil,
        diff: OrderedJSON? = nil
    ) -> ViewerData {
        var report = RedactionReport()
        let traces = traces.map { trace -> RecordedTrace in
            let redacted = RedactedTrace.redact(trace, with: redactor)
            report.merge(redacted.report)
            return redacted.trace
        }
        let builder = Builder(prices: prices)
        var runs: [OrderedJSON] = []
        var findings: [OrderedJSON] = []
        var groups: [OrderedJSON] = []
        var summaries: [OrderedJSON] = []
        var counts = (requests: 0, tools: 0, handoffs: 0)
        for (storeIndex, trace) in traces.enumerated() {
            var runIndex: [Int64: Int] = [:]
            for (offset, run) in trace.runs.enumerated() { runIndex[run.run.runID] = runs.count + offset }
            let turns = trace.runs.map(RunTurns.init)
            let (storeFindings, storeGroups) = builder.findings(
                trace, turns: turns, runIndex: runIndex, firstGroup: groups.count)
            groups += storeGroups.map { $0.json(offset: findings.count, builder: builder) }
            // Events a finding names: a band lists those it holds, so the finding marks the band.
            var named = Set<Int64>()
            for case .object(let members) in storeFindings {
                for case ("eventIDs", .array(let ids)) in members {
                    for case .string(let id) in ids { if let value = Int64(id) { named.insert(value) } }
                }
            }
            for (run, turns) in zip(trace.runs, turns) {
                runs.append(
                    builder.run(run, turns: turns, store: trace.path, storeIndex: storeIndex, named: named))
                counts.requests += run.requests.count
                counts.tools += run.toolCalls.count
                counts.handoffs += run.handoffs.count
            }
            // Unpriced: the header's dollars come from `Builder.Money`, so each request is priced once.
            let summary = SummaryReport.compute(trace: trace)
            for run in trace.runs {
                let group = summary.runs.first { $0.runID == run.run.runID }
                summaries.append(builder.summary(group, run: run))
            }
            findings += storeFindings
        }
        let json = OrderedJSON.object([
            ("version", .int(version)),
            ("runs", .array(runs)),
            ("findings", .array(findings)),
            ("findingGroups", .array(groups)),
            ("summary", .object([("runs", .array(summaries))])),
            ("diff", diff ?? .null),
            ("redaction", .object([
                ("counts", .object(report.sortedCounts.map { ($0.kind.rawValue, .int(Int64($0.count))) })),
            ])),
        ])
        return ViewerData(
            json: json, redaction: report, runCount: runs.count, requestCount: counts.requests,
            toolCallCount: counts.tools, handoffCount: counts.handoffs)
    }
}

/// Turns redacted records into the viewer's JSON.
private struct Builder {
    /// Dollars per million tokens; nil: no costs in the document.
    let prices: PriceTable?

    func text(_ value: String) -> OrderedJSON {
        .string(value)
    }

    func text(_ value: String?) -> OrderedJSON {
        value.map(OrderedJSON.string) ?? .null
    }


    func run(
        _ recorded: RecordedRun, turns: RunTurns, store: String, storeIndex: Int, named: Set<Int64>
    ) -> OrderedJSON {
        let start = recorded.startTime
        let record = recorded.run
        let storeName = store.split(separator: "/").last.map(String.init) ?? store
        let banded = ViewerBands.bandedSessions(recorded)
        let bands = ViewerBands.bands(recorded, sessions: banded, named: named, turns: turns.turns)
        let money = prices.map { prices in
            Dictionary(grouping: recorded.requests.filter { $0.sessionID != nil }, by: { $0.sessionID! })
                .mapValues { Money(prices, $0) }
        }
        let sessions: [OrderedJSON] = recorded.sessions.map { session in
            var members: [(String, OrderedJSON)] = [
                ("id", .id(session.sessionID)), ("label", text(session.label)),
                ("ts", .int(session.ts - start)), ("dur", .int(session.dur)),
            ]
            if let money { members += (money[session.sessionID] ?? Money()).members }
            return .object(members)
        }
        func isBanded(_ session: Int64?) -> Bool { session.map(banded.contains) ?? false }
        let bandedRequests = Set(recorded.requests.filter { isBanded($0.sessionID) }.map(\.requestID))
        let requests: [OrderedJSON] = recorded.requests.filter { !isBanded($0.sessionID) }.map { request in
            var members: [(String, OrderedJSON)] = [
                ("id", .id(request.requestID)), ("sessionID", .id(request.sessionID)),
                ("parentID", .id(request.parentID)), ("ts", .int(request.ts - start)),
                ("dur", .int(request.dur)),
                ("ttft", .int(request.timeToFirstToken)), ("profile", text(request.profile)),
                ("provider", text(request.provider)), ("model", text(request.model)),
                ("inputTokens", .int(request.inputTokens)),
                ("cachedInputTokens", .int(request.cachedInputTokens)),
                ("outputTokens", .int(request.outputTokens)), ("promptBytes", .int(request.promptBytes)),
                ("transcriptEntries", .int(request.transcriptEntries)),
                ("reusedPrefixEntries", .int(request.reusedPrefixEntries)),
                ("finishReason", text(request.finishReason)), ("error", text(request.error)),
                ("instructions", text(request.instructionsFingerprint)), ("tools", text(request.toolsFingerprint)),
                ("rate", .double(request.tokensPerSecond)), ("cost", .double(prices?.cost(of: request))),
            ]
            if let dollars = prices?.cacheDollars(of: request) {
                // What the cache saved on this request, and what writing it cost above the input price.
                members.append(("cacheSaved", .double(dollars.saved)))
                members.append(("cacheWritePremium", .double(dollars.writePremium)))
            }
            if let timings = request.serverTimings {
                members.append(("server", .object([
                    ("promptTokens", .int(timings.promptTokens)),
                    ("cachedTokens", .int(timings.cachedTokens)),
                    ("promptDur", .int(timings.promptDuration)),
                    ("predictedTokens", .int(timings.predictedTokens)),
                    ("predictedDur", .int(timings.predictedDuration)),
                ])))
            }
            if let parts = TTFTSplit.Parts(request) {
                // The five parts of the wait in order; ns null: not reported.
                members.append(("ttftParts", .array(parts.named.map { part in
                    .object([("label", .string(part.label)), ("ns", .int(part.value))])
                })))
            }
            return .object(members)
        }
        let toolCalls: [OrderedJSON] = recorded.toolCalls.filter { call in
            !(call.sessionID.map(banded.contains) ?? call.requestID.map(bandedRequests.contains) ?? false)
        }.map { call in
            .object([
                ("id", .id(call.toolCallID)), ("requestID", .id(call.requestID)),
                ("sessionID", .id(call.sessionID)), ("ts", .int(call.ts - start)),
                ("dur", .int(call.dur)),
                ("name", text(call.name)), ("callID", text(call.callID)),
                ("fingerprint", text(call.argumentsFingerprint)),
                ("argumentsBytes", .int(call.argumentsBytes)), ("outputBytes", .int(call.outputBytes)),
                ("outcome", text(call.outcome.rawValue)), ("error", text(call.error)),
            ])
        }
        let handoffs: [OrderedJSON] = recorded.handoffs.map { handoff in
            .object([
                ("id", .id(handoff.handoffID)), ("sessionID", .id(handoff.sessionID)),
                ("ts", .int(handoff.ts - start)), ("kind", text(handoff.kind.rawValue)), ("from", text(handoff.from)),
                ("to", text(handoff.to)),
            ])
        }
        let intervals: [OrderedJSON] = recorded.intervals.map { interval in
            let metadata: [(String, OrderedJSON)] = interval.metadata.keys.sorted().map { key in
                let value: OrderedJSON
                switch interval.metadata[key]! {
                case .string(let string): value = text(string)
                case .int(let number): value = .int(number)
                case .double(let number): value = .double(number)
                case .bool(let flag): value = .bool(flag)
                }
                return (key, value)
            }
            return .object([
                ("id", .id(interval.intervalID)), ("parentID", .id(interval.parentID)),
                ("sessionID", .id(interval.sessionID)), ("ts", .int(interval.ts - start)),
                ("dur", .int(interval.dur)), ("name", text(interval.name)), ("metadata", .object(metadata)),
                ("error", text(interval.error)),
            ])
        }
        let payloads: [OrderedJSON] = recorded.payloads.map { payload in
            .object([
                ("id", .id(payload.payloadID)), ("parentID", .id(payload.parentID)),
                ("ts", .int(payload.ts - start)), ("kind", .string(payload.kind.rawValue)),
                ("text", .string(payload.text)),
            ])
        }
        // User turns: recorded `turn_id`s, or inferred from finish reasons in older stores.
        let turnObjects: [OrderedJSON] = turns.turns.filter { !isBanded($0.sessionID) }.map { turn in
            .object([
                ("turnID", .id(turn.turnID)), ("inferred", .bool(turn.isInferred)),
                ("sessionID", .id(turn.sessionID)), ("requestIDs", .array(turn.requests.map { .id($0.requestID) })),
            ])
        }
        let dropped: [OrderedJSON] = recorded.dropped.map { row in
            .object([
                ("ts", .int(row.ts - start)), ("sink", text(row.sinkName)), ("reason", text(row.reason.rawValue)),
                ("count", .int(row.count)),
            ])
        }
        return .object([
            ("runID", .id(record.runID)), ("label", text(record.label)), ("host", text(record.host)),
            ("commandLine", text(record.commandLine)), ("gitRevision", text(record.gitRevision)),
            ("toolVersion", text(record.toolVersion)), ("store", text(storeName)),
            ("storeIndex", .int(Int64(storeIndex))),
            ("wallClockStart", recorded.hasRunRecord ? .int(record.wallClockStart) : .null),
            ("sessions", .array(sessions)), ("requests", .array(requests)), ("toolCalls", .array(toolCalls)),
            ("handoffs", .array(handoffs)), ("intervals", .array(intervals)), ("payloads", .array(payloads)),
            ("dropped", .array(dropped)), ("turns", .array(turnObjects)), ("bands", .array(bands)),
        ])
    }

    /// Dollars over some requests, with a price file: what they cost, what the cache saved on them
    /// and what writing it cost above the input price (`PriceTable.cacheDollars`).
    struct Money {
        var cost: Double?
        var saved = 0.0
        var writePremium = 0.0

        init() {}

        init(_ prices: PriceTable, _ requests: [RequestRecord]) {
            for request in requests {
                if let dollars = prices.cost(of: request) { cost = (cost ?? 0) + dollars }
                if let cache = prices.cacheDollars(of: request) {
                    saved += cache.saved
                    writePremium += cache.writePremium
                }
            }
        }

        var members: [(String, OrderedJSON)] { [("cost", .double(cost))] + cacheMembers }

        /// What the cache saved and what writing it cost, without the cost.
        var cacheMembers: [(String, OrderedJSON)] {
            [("cacheSaved", .double(saved)), ("cacheWritePremium", .double(writePremium))]
        }
    }

    /// The header's figures for one run, from ``SummaryReport``; with prices, the cache's dollars.
    func summary(_ group: SummaryReport.Group?, run: RecordedRun) -> OrderedJSON {
        guard let group else {
            return .object([("runID", .id(run.run.runID)), ("requests", .int(0))])
        }
        // The run's cost is the one its requests add up to, as `SummaryReport`'s is with the same prices.
        let money = prices.map { Money($0, run.requests) }
        return .object((money?.cacheMembers ?? []) + [
            ("runID", .id(run.run.runID)), ("requests", .int(group.requests)),
            ("ttftP50", .int(group.ttftP50)), ("ttftP95", .int(group.ttftP95)),
            ("ttftMax", .int(group.ttftMax)),
            ("tokensPerSecondP50", .double(group.tokensPerSecondP50)), ("latencyP50", .int(group.latencyP50)),
            ("latencyP95", .int(group.latencyP95)), ("modelTime", .int(group.modelTime)),
            ("toolTime", .int(group.toolTime)), ("toolCalls", .int(group.toolCalls)),
            ("inputTokens", .int(group.inputTokens)), ("cachedInputTokens", .int(group.cachedInputTokens)),
            ("cacheHitRate", .double(group.cacheHitRate)), ("errors", .int(group.errors)),
            ("droppedEvents", .int(group.droppedEvents)),
            ("unclosed", .string(group.unclosed?.description)), ("cost", .double(money?.cost)),
        ])
    }

    /// The findings `trace-report check` gives on one store (``Diagnosis``), in its groups
    /// (``FindingGroup``: most costly first, the groups within noise after the others), each
    /// naming the requests and tool calls it is about, its group and its severity; and the groups,
    /// each with the indexes of its findings in the store's list. Groups are numbered from
    /// `firstGroup`, where the store's start in the document's list.
    func findings(_ trace: RecordedTrace, turns: [RunTurns], runIndex: [Int64: Int], firstGroup: Int)
        -> (findings: [OrderedJSON], groups: [FindingGroupEntry])
    {
        let groups = FindingGroup.grouping(Diagnosis.analyze([(trace, turns)], prices: prices).findings)
        let ordered = groups.filter { $0.severity != .noise } + groups.filter { $0.severity == .noise }
        var findings: [OrderedJSON] = []
        var entries: [FindingGroupEntry] = []
        for (groupIndex, group) in ordered.enumerated() {
            var members: [Int] = []
            for finding in group.instances {
                members.append(findings.count)
                findings.append(json(finding, group: firstGroup + groupIndex, runIndex: runIndex))
            }
            entries.append(FindingGroupEntry(group: group, members: members, run: runIndex[group.first.runID]))
        }
        return (findings, entries)
    }

    private func json(_ finding: Finding, group: Int, runIndex: [Int64: Int]) -> OrderedJSON {
        var detail = "session \(finding.sessionLabel)"
        if let turn = finding.turnIndex { detail += ", turn \(turn + 1)" }
        detail += "; requests " + finding.requestIDs.map(ShortID.record).joined(separator: ", ")
        let cost = Self.costText(finding.cost)
        if !cost.isEmpty { detail += "; cost " + cost }
        var events: [Int64] = []
        for id in finding.toolCallIDs + finding.requestIDs where !events.contains(id) { events.append(id) }
        return .object([
            ("kind", .string(finding.kind.rawValue)), ("run", .int(runIndex[finding.runID].map(Int64.init))),
            ("subject", text(finding.subject)), ("title", text(finding.summary)), ("detail", text(detail)), ("eventIDs", .array(events.map { .id($0) })),
            ("group", .int(Int64(group))), ("severity", .string(finding.severity.rawValue)),
            ("sessionID", .id(finding.sessionID)), ("dollars", .double(finding.cost.dollars)),
        ])
    }

    /// `1.20 s, 340 tokens`; empty when the cost is nothing.
    static func costText(_ cost: Finding.Cost) -> String {
        var parts: [String] = []
        if cost.time > 0 { parts.append(Format.duration(cost.time)) }
        if cost.tokens > 0 { parts.append("\(Format.count(cost.tokens)) tokens") }
        if let dollars = cost.dollars, dollars != 0 { parts.append(PriceTable.dollars(dollars)) }
        return parts.joined(separator: ", ")
    }

    /// One group of a store's findings, for the viewer's list; `members` index the store's findings.
    struct FindingGroupEntry {
        var group: FindingGroup
        var members: [Int]
        var run: Int?

        /// The entry with the members' indexes moved by `offset`, where the store's findings start in
        /// the document's list.
        func json(offset: Int, builder: Builder) -> OrderedJSON {
            let first = group.first
            var detail = "session \(first.sessionLabel)"
            if group.count > 1 {
                detail += "; \(Format.count(Int64(group.count))) times over "
                    + Format.duration(group.last.ts &- first.ts)
            }
            let cost = Builder.costText(group.cost)
            if !cost.isEmpty { detail += "; cost " + cost }
            return .object([
                ("kind", .string(group.kind.rawValue)), ("run", .int(run.map(Int64.init))),
                ("subject", builder.text(first.subject)), ("title", builder.text(first.summary)),
                ("detail", builder.text(detail)), ("count", .int(Int64(group.count))),
                ("severity", .string(group.severity.rawValue)),
                ("findings", .array(members.map { .int(Int64($0 + offset)) })),
            ])
        }
    }
}
