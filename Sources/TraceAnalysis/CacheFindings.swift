import SessionTrace
import TraceModel

/// Requests that broke the prompt prefix the server could have reused, why, and what it cost.
///
/// Each request is compared with the previous request of its session; the first request of a
/// session has nothing to break. What forms the reusable prefix: the model, the instructions, the
/// tool definitions, then the transcript. The evidence that one of them changed:
///
/// - **model**: `provider`/`model` differ, or a `model` handoff;
/// - **instructions**: `instructions_fingerprint` differs, or an `instructions` handoff;
/// - **tools**: `tools_fingerprint` (names, descriptions and schemas) differs, or a `tools`
///   handoff (names);
/// - **history**: fewer leading transcript entries were reused than the previous request sent
///   (`reused_prefix_entries < transcript_entries` of the previous one), with the instructions
///   unchanged: the history was rewritten, as by a rolling window or a summary;
/// - **profile**: a `profile` handoff, or `profile` differs. A profile switch alone changes
///   nothing the server caches; it is named with the changes it brought, or alone when the
///   server's cached tokens show a break.
///
/// An append-only conversation, tool rounds included, shows none of these. Where the server
/// reports cached input tokens, they decide: the previous prompt could be reused up to
/// `min(previous input_tokens, input_tokens)` tokens; if the request's cached tokens fall short
/// of that by more than ``tolerance(reusable:)``, the break is confirmed and the shortfall is
/// the cached tokens it lost; if not, the server kept its cache and there is no break.
///
/// The tax of a break: the cached tokens lost, and the time to first token gained against the
/// previous request of the session. With a ``PriceTable``, the tax in dollars (the lost tokens at
/// the input price instead of the cached-input price) and, over every request, what caching saved
/// (cached tokens at the cached-input price instead of the input price) and what cache writes cost
/// over plain input (``Money``).
///
/// **Chronic breaks.** When the instructions or the tool definitions changed on every follow-up
/// request of a session (at least ``chronicThreshold`` of them), the prefix is busted by design (a
/// timestamp in the instructions, a schema serialized in another order each time): the session's
/// breaks of that segment are one ``ChronicBreak`` with their total tax, not a series of findings.
/// With payload capture, each break names the shape of the change (``PrefixChange``), never the value.
public struct CacheFindings: Sendable {
    public enum Cause: String, Sendable, CaseIterable {
        case modelSwitch = "model_switch"
        case profileSwitch = "profile_switch"
        case instructionsChanged = "instructions_changed"
        case toolsChanged = "tools_changed"
        case historyTransform = "history_transform"
    }

    public struct Finding: Sendable, Hashable {
        public var runID: Int64
        public var sessionID: Int64
        public var sessionLabel: String
        public var request: RequestRecord
        public var previous: RequestRecord
        /// Why the prefix changed, in the order of ``Cause``.
        public var causes: [Cause]
        /// The session's handoffs between the two requests.
        public var handoffs: [HandoffRecord]
        /// What the server could have reused of the previous prompt, in tokens, when it reports them.
        public var reusableTokens: Int64?
        /// Reusable tokens the server did not take from its cache; nil when it reports no cached
        /// tokens.
        public var cachedTokensLost: Int64?
        /// This request's time to first token minus the previous request's.
        public var ttftIncrease: Int64?
        /// The lost tokens' extra dollars: input price minus cached-input price; nil without a price.
        public var taxDollars: Double?
        /// The shape of the change of each prefix segment that changed, where both texts were captured.
        public var shapes: [Cause: PrefixChange] = [:]
        public var runStart: Int64

        /// True when the server's cached tokens confirm the break.
        public var confirmedByServer: Bool { cachedTokensLost != nil }

        /// A sentence on what changed, for people.
        public var explanation: String {
            causes.map { cause in
                switch cause {
                case .historyTransform:
                    let (before, after) = (previous.transcriptEntries, request.transcriptEntries)
                    var text =
                        "history transform: \(request.reusedPrefixEntries) of the previous \(before) entries "
                        + "reused (entries \(before) → \(after))"
                    if after <= before {
                        text += ", the transcript did not grow, as when a rolling window drops entries "
                            + "from the front"
                    }
                    return text
                case .modelSwitch:
                    return "model switch: "
                        + TerminalText.fitted("\(previous.provider)/\(previous.model)", width: 40)
                        + " → " + TerminalText.fitted("\(request.provider)/\(request.model)", width: 40)
                case .profileSwitch:
                    return "profile switch: " + TerminalText.fitted(previous.profile, width: 32) + " → "
                        + TerminalText.fitted(request.profile, width: 32)
                case .instructionsChanged, .toolsChanged:
                    let kind: HandoffRecord.Kind = cause == .toolsChanged ? .tools : .instructions
                    if let handoff = handoffs.last(where: { $0.kind == kind }) {
                        return "\(cause.phrase): \(TerminalText.fitted(handoff.from, width: 32)) → "
                            + TerminalText.fitted(handoff.to, width: 32)
                            + (shapes[cause].map { ", \($0.phrase)" } ?? "")
                    }
                    return "\(cause.phrase) (fingerprint changed)"
                        + (shapes[cause].map { ": \($0.phrase)" } ?? "")
                }
            }.joined(separator: "; ")
        }
    }

    /// Caching in dollars, over every request of the trace whose model has a price.
    public struct Money: Sendable, Hashable {
        public var prices: PriceTable
        /// Cached input tokens at the cached-input price instead of the input price.
        public var savings: Double = 0
        /// Cache-write tokens at the cache-write price over the input price (Anthropic's premium).
        public var writePremium: Double = 0
        /// The breaks' tax (``Finding/taxDollars``), summed.
        public var tax: Double = 0
        /// Requests with tokens whose model has no price.
        public var unpricedRequests = 0
    }

    /// One prompt-prefix segment that changed on every follow-up request of a session.
    public struct ChronicBreak: Sendable, Hashable {
        /// `instructionsChanged` or `toolsChanged`.
        public var cause: Cause
        /// The session's breaks, one per follow-up request.
        public var breaks: [Finding]
        /// The shapes of the changes, where captured, in ``PrefixChange`` order.
        public var shapes: [PrefixChange] {
            PrefixChange.allCases.filter { shape in breaks.contains { $0.shapes[cause] == shape } }
        }
        public var cachedTokensLost: Int64? {
            let known = breaks.compactMap(\.cachedTokensLost)
            return known.isEmpty ? nil : known.reduce(0, &+)
        }
        public var ttftIncrease: Int64 { breaks.reduce(0) { $0 &+ max(0, $1.ttftIncrease ?? 0) } }
        public var taxDollars: Double? {
            let known = breaks.compactMap(\.taxDollars)
            return known.isEmpty ? nil : known.reduce(0, +)
        }
    }

    /// Follow-up requests of a session that must all change one segment for a chronic break.
    public static let chronicThreshold = 3

    public var path: String
    /// The one-off breaks: every break not part of a chronic one.
    public var findings: [Finding]
    /// Segments busted on every request of a session, each reported once.
    public var chronic: [ChronicBreak]
    /// Requests that had a previous request in their session, so could have reused a prefix.
    public var followUpRequests: Int
    /// Requests whose server reported cached input tokens (0 included); when none did, the cache
    /// figures are "not reported", never 0%.
    public var cacheReportedRequests: Int
    /// Requests that reported cache-write tokens.
    public var cacheWriteRequests: Int
    /// Dollars, when a price table was given.
    public var money: Money?
    /// Slow first tokens that the prompt does not explain, which no break caused either.
    public var waits: UnexplainedWaits

    public var cachedTokensLost: Int64 { findings.reduce(0) { $0 &+ ($1.cachedTokensLost ?? 0) } }
    public var ttftIncrease: Int64 { findings.reduce(0) { $0 &+ max(0, $1.ttftIncrease ?? 0) } }

    /// Handoffs this long after a request's start still count as its cause: the middleware may
    /// record a handoff just after stamping the request's start.
    public static let handoffTolerance: Int64 = 1_000_000

    /// Cached tokens a server may fall short of the reusable prefix without a break: it re-reads
    /// the few tokens at the boundary of the previous prompt. 4 tokens or 2%, whichever is more.
    static func tolerance(reusable: Int64) -> Int64 { max(4, reusable / 50) }

    public static func analyze(_ trace: RecordedTrace, prices: PriceTable? = nil) -> CacheFindings {
        var findings: [Finding] = []
        var chronic: [ChronicBreak] = []
        var followUps = 0
        var money = prices.map { Money(prices: $0) }
        let requests = trace.runs.lazy.flatMap(\.requests)
        if let prices {
            for request in requests where request.inputTokens != nil || request.outputTokens != nil {
                guard let dollars = prices.cacheDollars(of: request) else {
                    money?.unpricedRequests += 1
                    continue
                }
                money?.savings += dollars.saved
                money?.writePremium += dollars.writePremium
            }
        }
        for run in trace.runs {
            let handoffsBySession = Dictionary(
                grouping: run.handoffs.lazy.filter { $0.sessionID != nil }, by: { $0.sessionID! }
            ).mapValues { $0.sorted { ($0.ts, $0.handoffID) < ($1.ts, $1.handoffID) } }
            for case (let sessionID?, let requests) in run.requestsBySession() {
                var prefix = PrefixTexts(run: run, request: requests[0])
                var sessionFindings: [Finding] = []
                for (previous, request) in zip(requests, requests.dropFirst()) {
                    followUps += 1
                    let before = prefix
                    prefix.update(run: run, request: request)
                    let handoffs = Self.handoffs(
                        in: handoffsBySession[sessionID] ?? [], after: previous.ts,
                        through: request.ts &+ handoffTolerance)
                    guard let finding = judge(request, after: previous, handoffs: handoffs) else { continue }
                    let price = prices?.price(provider: request.provider, model: request.model)
                    let tax = price.flatMap { price in
                        finding.lost.map { Double($0) * (price.input - price.cachedInput) / 1e6 }
                    }
                    money?.tax += tax ?? 0
                    sessionFindings.append(
                        Finding(
                            runID: run.run.runID, sessionID: sessionID,
                            sessionLabel: run.sessionLabel(sessionID),
                            request: request, previous: previous, causes: finding.causes, handoffs: handoffs,
                            reusableTokens: finding.reusable, cachedTokensLost: finding.lost,
                            ttftIncrease: difference(request.timeToFirstToken, previous.timeToFirstToken),
                            taxDollars: tax, shapes: before.shapes(to: prefix), runStart: run.startTime))
                }
                var chronicRequests = Set<Int64>()
                for cause in [Cause.instructionsChanged, .toolsChanged] {
                    let breaks = sessionFindings.filter { $0.causes.contains(cause) }
                    let followUps = requests.count - 1
                    guard followUps >= chronicThreshold, breaks.count == followUps else { continue }
                    chronic.append(ChronicBreak(cause: cause, breaks: breaks))
                    chronicRequests.formUnion(breaks.map(\.request.requestID))
                }
                findings += sessionFindings.filter { !chronicRequests.contains($0.request.requestID) }
            }
        }
        chronic.sort {
            ($0.breaks[0].request.ts, $0.cause.rawValue) < ($1.breaks[0].request.ts, $1.cause.rawValue)
        }
        findings.sort { ($0.request.ts, $0.request.requestID) < ($1.request.ts, $1.request.requestID) }
        return CacheFindings(
            path: trace.path, findings: findings, chronic: chronic, followUpRequests: followUps,
            cacheReportedRequests: requests.count { $0.cachedInputTokens != nil },
            cacheWriteRequests: requests.count { $0.cacheWriteTokens != nil }, money: money,
            waits: UnexplainedWaits.analyze(trace))
    }

    /// The handoffs of `sorted` (by time) after `start` and at or before `end`, found by binary
    /// search: a session may hold thousands of requests and handoffs.
    static func handoffs(
        in sorted: [HandoffRecord], after start: Int64, through end: Int64
    ) -> [HandoffRecord] {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = low + (high - low) / 2
            if sorted[middle].ts <= start { low = middle + 1 } else { high = middle }
        }
        return Array(sorted[low...].prefix { $0.ts <= end })
    }

    /// The causes of a break between `previous` and `request`, nil when the prefix held.
    static func judge(
        _ request: RequestRecord, after previous: RequestRecord, handoffs: [HandoffRecord]
    ) -> (causes: [Cause], reusable: Int64?, lost: Int64?)? {
        let handedOff = Set(handoffs.map(\.kind))
        func changed(_ before: String?, _ after: String?) -> Bool {
            guard let before, let after else { return false }
            return before != after
        }
        var causes: Set<Cause> = []
        if previous.provider != request.provider || previous.model != request.model
            || handedOff.contains(.model)
        {
            causes.insert(.modelSwitch)
        }
        if changed(previous.instructionsFingerprint, request.instructionsFingerprint)
            || handedOff.contains(.instructions)
        {
            causes.insert(.instructionsChanged)
        }
        if changed(previous.toolsFingerprint, request.toolsFingerprint) || handedOff.contains(.tools) {
            causes.insert(.toolsChanged)
        }
        // Changed instructions reset the reused-entry count, so it says nothing of the history then.
        if request.reusedPrefixEntries < previous.transcriptEntries, !causes.contains(.instructionsChanged) {
            causes.insert(.historyTransform)
        }
        let profileSwitched = previous.profile != request.profile || handedOff.contains(.profile)

        // The server's word, where it reports cached tokens.
        var reusable: Int64?
        var lost: Int64?
        if let cached = request.cachedInputTokens, let before = previous.inputTokens, previous.error == nil {
            let bound = min(before, request.inputTokens ?? before)
            reusable = bound
            let shortfall = bound &- cached
            if shortfall > tolerance(reusable: bound) {
                lost = shortfall
            } else {
                return nil
            }
        }
        if causes.isEmpty {
            // A profile switch the server shows broke the cache; otherwise nothing broke.
            guard profileSwitched, lost != nil else { return nil }
        }
        if profileSwitched { causes.insert(.profileSwitch) }
        return (Cause.allCases.filter(causes.contains), reusable, lost)
    }

    private static func difference(_ first: Int64?, _ second: Int64?) -> Int64? {
        guard let first, let second else { return nil }
        return first &- second
    }
}

/// The latest captured instructions and tool definitions of a session, request by request.
private struct PrefixTexts {
    var instructions: String?
    var toolDefinitions: String?

    init(run: RecordedRun, request: RequestRecord) { update(run: run, request: request) }

    /// Takes the texts `request` captured; a segment that did not change captured none.
    mutating func update(run: RecordedRun, request: RequestRecord) {
        instructions = run.payload(.instructions, of: request.requestID) ?? instructions
        toolDefinitions = run.payload(.toolDefinitions, of: request.requestID) ?? toolDefinitions
    }

    /// The shape of each segment's change from these texts to `next`.
    func shapes(to next: PrefixTexts) -> [CacheFindings.Cause: PrefixChange] {
        var shapes: [CacheFindings.Cause: PrefixChange] = [:]
        if let old = instructions, let new = next.instructions {
            shapes[.instructionsChanged] = PrefixChange.shape(from: old, to: new)
        }
        if let old = toolDefinitions, let new = next.toolDefinitions {
            shapes[.toolsChanged] = PrefixChange.shape(from: old, to: new)
        }
        return shapes
    }
}

extension CacheFindings.Cause {
    package var phrase: String {
        switch self {
        case .historyTransform: "history transform"
        case .instructionsChanged: "instructions changed"
        case .toolsChanged: "tools changed"
        case .modelSwitch: "model switch"
        case .profileSwitch: "profile switch"
        }
    }
}
