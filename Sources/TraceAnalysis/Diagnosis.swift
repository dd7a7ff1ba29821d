import Reproducible
import SessionTrace
import TraceModel

/// What is wrong with a run: every analysis over one or more stores, their findings in one list
/// ranked by what they cost (more time first, then more tokens). `trace-report check`.
public struct Diagnosis: Sendable {
    public var stores: [String]
    /// Every finding, ranked.
    public var findings: [Finding]
    /// The findings grouped (kind, session, subject), most costly group first.
    public var groups: [FindingGroup]
    /// What could not be checked, one sentence each (no argument text captured, turns inferred).
    public var notes: [String]
    /// The price table the findings' dollars come from; nil when none was given.
    public var prices: PriceTable?

    /// Runs every analysis with its default options on each trace; with `prices`, each finding's
    /// tokens are priced too.
    public static func analyze(_ traces: [RecordedTrace], prices: PriceTable? = nil) -> Diagnosis {
        analyze(traces.map { ($0, $0.runs.map(RunTurns.init)) }, prices: prices)
    }

    /// Runs every analysis on each trace whose runs' turns are already grouped, in its order: turns
    /// are grouped once for the repeated-call analysis, for locating every finding and for the caller.
    package static func analyze(
        _ traces: [(trace: RecordedTrace, turns: [RunTurns])], prices: PriceTable?
    ) -> Diagnosis {
        var findings: [Finding] = []
        var notes: [String] = []
        for (trace, turns) in traces {
            let tools = ToolFindings.analyze(trace, options: ToolFindings.Options(), turns: turns)
            findings += Self.findings(trace, turns: turns, tools: tools, prices: prices)
            let store = TerminalText.sanitized(trace.path)
            if tools.toolCallCount > 0, tools.callsComparable == 0 {
                notes.append(
                    "\(store): near-identical arguments not checked: no argument sketch (a store before "
                        + "schema 3) and no tool arguments captured")
            }
            if tools.inferredTurns { notes.append("\(store): turns inferred from finish reasons") }
            let requests = trace.runs.lazy.flatMap(\.requests)
            if requests.contains(where: { $0.timeToFirstToken != nil }),
               !requests.contains(where: { $0.serverTimings != nil }) {
                notes.append("\(store): first-token waits not checked: the server reported no timings")
            }
        }
        findings.sort {
            if $0.cost != $1.cost { return Finding.Cost.ranksBefore($0.cost, $1.cost) }
            return ($0.store, $0.ts, $0.kind.rawValue) < ($1.store, $1.ts, $1.kind.rawValue)
        }
        return Diagnosis(
            stores: traces.map(\.trace.path), findings: findings, groups: FindingGroup.grouping(findings), notes: notes,
            prices: prices)
    }

    /// A single cache break that lost fewer cached tokens than this is noise: re-reading that many
    /// tokens costs less than the spread of one request's time to first token. So is a break after
    /// which the first token came no later (its time-to-first-token tax is zero or negative). A
    /// chronic break is never noise: it recurs on every request, and grows with the prompt.
    public static let cacheBreakTokenFloor: Int64 = 256

    /// Whether a cache break that lost `tokens` and changed the time to first token by `ttft` is
    /// within noise (``cacheBreakTokenFloor``); unknown amounts are not judged.
    static func isNoise(cachedTokensLost tokens: Int64?, ttftIncrease ttft: Int64?) -> Bool {
        if let tokens, tokens < cacheBreakTokenFloor { return true }
        if let ttft, ttft <= 0 { return true }
        return false
    }

    /// The findings of every analysis of one trace, unranked.
    static func findings(
        _ trace: RecordedTrace, turns: [RunTurns], tools: ToolFindings, prices: PriceTable?
    ) -> [Finding] {
        let locator = Locator(trace, turns: turns)
        /// `tokens` of `request`'s model at the price `part` picks; nil without a price.
        func dollars(
            _ tokens: Int64?, _ request: RequestRecord, _ part: (PriceTable.Price) -> Double
        ) -> Double? {
            guard let tokens, let price = prices?.price(provider: request.provider, model: request.model)
            else { return nil }
            return Double(tokens) * part(price) / 1e6
        }
        /// The known amounts, summed; nil when none is known.
        func sum(_ amounts: [Double?]) -> Double? {
            let known = amounts.compactMap { $0 }
            return known.isEmpty ? nil : known.reduce(0, +)
        }
        /// The dollars of whole requests; nil when none of them has a price.
        func dollars(of requests: [RequestRecord]) -> Double? { sum(requests.map { prices?.cost(of: $0) }) }
        var out: [Finding] = []
        for item in tools.findings {
            let kind: Finding.Kind =
                switch item.kind {
                case .loop: .loop
                case .polling: .polling
                case .identicalArguments: .identicalArguments
                case .nearIdenticalArguments: .nearIdenticalArguments
                }
            out.append(
                locator.finding(
                    kind, run: item.runID, session: item.sessionID, requests: item.requestIDs,
                    calls: item.calls.map(\.record.toolCallID), ts: item.calls[0].record.ts,
                    subject: Set(item.calls.map(\.record.name)).sorted().joined(separator: "+"),
                    summary: item.headline,
                    evidence: item.json,
                    cost: Finding.Cost(
                        time: item.cost, tokens: item.extraRoundTokens ?? 0,
                        dollars: dollars(of: item.extraRounds)),
                    detail: "tools"))
        }
        let cache = CacheFindings.analyze(trace, prices: prices)
        for item in cache.chronic {
            let first = item.breaks[0]
            var summary = item.headline
            if let lost = item.cachedTokensLost { summary += ": \(Format.count(lost)) cached tokens lost" }
            out.append(
                locator.finding(
                    .chronicCacheBreak, run: first.runID, session: first.sessionID,
                    requests: item.breaks.map(\.request.requestID), calls: [], ts: first.request.ts,
                    summary: summary, evidence: item.json,
                    cost: Finding.Cost(
                        time: item.ttftIncrease, tokens: item.cachedTokensLost ?? 0, dollars: item.taxDollars),
                    detail: "cache"))
        }
        for item in cache.findings {
            var summary = "cache break (" + item.causes.map(\.phrase).joined(separator: ", ") + ")"
            if let lost = item.cachedTokensLost { summary += ": \(Format.count(lost)) cached tokens lost" }
            if let slower = item.ttftIncrease {
                summary += ", \(Format.signedDuration(slower)) time to first token"
            }
            out.append(
                locator.finding(
                    .cacheBreak, run: item.runID, session: item.sessionID, requests: [item.request.requestID],
                    calls: [], ts: item.request.ts, subject: item.causes.map(\.phrase).joined(separator: ", "),
                    noise: isNoise(cachedTokensLost: item.cachedTokensLost, ttftIncrease: item.ttftIncrease),
                    summary: summary, evidence: item.json,
                    cost: Finding.Cost(
                        time: max(0, item.ttftIncrease ?? 0), tokens: item.cachedTokensLost ?? 0,
                        dollars: item.taxDollars),
                    detail: "cache"))
        }
        for item in cache.waits.findings {
            out.append(
                locator.finding(
                    .unexplainedTTFT, run: item.runID, session: item.sessionID,
                    requests: item.waits.map(\.request.requestID), calls: [], ts: item.waits[0].request.ts,
                    summary: item.headline, evidence: item.json, cost: Finding.Cost(time: item.excess),
                    detail: "cache"))
        }
        for item in CappedAnswers.analyze(trace).findings {
            out.append(
                locator.finding(
                    .cappedAnswer, run: item.runID, session: item.sessionID,
                    requests: item.capped.map(\.requestID),
                    calls: [], ts: item.capped[0].ts, summary: item.headline, evidence: item.json,
                    cost: Finding.Cost(
                        time: item.generationTime, tokens: item.outputTokens ?? 0,
                        dollars: sum(item.capped.map { dollars($0.outputTokens, $0, \.output) })),
                    detail: "capped"))
        }
        for item in OversizedToolOutputs.analyze(trace).findings {
            out.append(
                locator.finding(
                    .oversizedToolOutput, run: item.runID, session: item.sessionID,
                    requests: (item.call.requestID.map { [$0] } ?? []) + [item.inflated.requestID],
                    calls: [item.call.toolCallID], ts: item.call.ts, subject: item.call.name,
                    summary: item.headline, evidence: item.json,
                    cost: Finding.Cost(
                        tokens: item.estimatedTokens ?? 0,
                        dollars: dollars(item.estimatedTokens, item.inflated, \.input)),
                    detail: "tools"))
        }
        let growth = GrowthReport.analyze(trace)
        for session in growth.findings {
            guard let first = session.firstOverWarning else { continue }
            let peak = session.largest ?? first
            let grown = (peak.inputTokens ?? 0) &- (session.requests[0].inputTokens ?? 0)
            out.append(
                locator.finding(
                    .promptGrowth, run: session.runID, session: session.sessionID,
                    requests: first.requestID == peak.requestID
                        ? [first.requestID] : [first.requestID, peak.requestID],
                    calls: [], ts: first.ts,
                    summary: "prompt growth: reached \(Format.percent(session.peakShare)) of the "
                        + "\(Format.count(growth.options.contextWindow))-token context window",
                    evidence: growth.sessionJSON(session),
                    cost: Finding.Cost(tokens: max(0, grown), dollars: dollars(max(0, grown), peak, \.input)),
                    detail: "growth", bySession: false))
        }
        return out
    }

    /// Names where a finding is: its session's label, its turn, the detail command's arguments.
    private struct Locator {
        let trace: RecordedTrace
        let turns: [Int64: RunTurns]
        /// Session labels that name one session in the store, so `--session LABEL` finds it.
        let uniqueLabels: Set<String>

        /// `turns`: those of each run of `trace`, in its order.
        init(_ trace: RecordedTrace, turns: [RunTurns]) {
            self.trace = trace
            self.turns = Dictionary(
                zip(trace.runs.map(\.run.runID), turns), uniquingKeysWith: { first, _ in first })
            var counts: [String: Int] = [:]
            for run in trace.runs {
                for session in run.sessions { counts[session.label, default: 0] += 1 }
            }
            uniqueLabels = Set(counts.filter { $0.value == 1 }.keys)
        }

        func finding(
            _ kind: Finding.Kind, run runID: Int64, session: Int64?, requests: [Int64], calls: [Int64],
            ts: Int64, subject: String = "", noise: Bool = false, summary: String, evidence: OrderedJSON,
            cost: Finding.Cost, detail command: String, bySession: Bool = true
        ) -> Finding {
            let run = trace.runs.first { $0.run.runID == runID }
            let label = run?.sessionLabel(session) ?? "(no session)"
            let turnsOfRequests = Set(requests.compactMap { turns[runID]?.position(of: $0) })
            let turn = turnsOfRequests.count == 1 ? turns[runID]?.turns[turnsOfRequests.first!] : nil
            var detail = [command]
            if bySession, let session {
                detail += ["--session", uniqueLabels.contains(label) ? label : String(session)]
            }
            detail.append(trace.path)
            return Finding(
                kind: kind, subject: subject, severity: noise ? .noise : .of(cost), store: trace.path, runID: runID, sessionID: session, sessionLabel: label,
                turnIndex: turn?.index, turnID: turn?.turnID, requestIDs: requests,
                toolCallIDs: calls, ts: ts, summary: summary, evidence: evidence, cost: cost, detail: detail)
        }
    }
}

// MARK: - Output

extension Diagnosis {

    public var json: OrderedJSON {
        .object([
            ("stores", .array(stores.map { .string($0) })),
            (
                "counts",
                .object(
                    Finding.Kind.allCases.map { kind in
                        (kind.rawValue, .int(Int64(findings.filter { $0.kind == kind }.count)))
                    })
            ),
            ("prices", .string(prices?.path)),
            ("findings", .array(findings.map(\.json))),
            ("groups", .array(groups.map(\.json))),
            ("notes", .array(notes.map { .string($0) })),
        ])
    }
}
