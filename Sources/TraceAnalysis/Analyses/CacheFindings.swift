import SessionTrace

/// Requests that broke the prompt prefix the server could have reused, why, and what it cost.
///
/// A request breaks the prefix when it does not extend the previous request of its session:
/// fewer leading entries were byte-identical to the previous prompt (`reused_prefix_entries`) than
/// the previous prompt had (`transcript_entries`). The cause is named from the handoff rows of the
/// session between the previous request's start and this one's (model, profile, instructions or
/// tools changed); with no handoff, the history itself was transformed, for example by a rolling
/// window that drops entries from the front.
///
/// Cost is measured against a *baseline*: the most recent earlier request of the session whose
/// prefix was intact (the session's first request counts as intact). Comparing with the previous
/// request instead would hide the cost of a rolling window, where every request after the first
/// break is cold again. `cachedTokensLost` is the baseline's cached input tokens minus this
/// request's; `ttftIncrease` this request's time to first token minus the baseline's. The cache
/// tax is the sum of the positive parts.
public struct CacheFindings: Sendable {
    public enum Cause: String, Sendable, CaseIterable {
        case historyTransform = "history_transform"
        case instructionsChanged = "instructions_changed"
        case toolsChanged = "tools_changed"
        case modelSwitch = "model_switch"
        case profileSwitch = "profile_switch"
    }

    public struct Finding: Sendable, Hashable {
        public var runID: Int64
        public var sessionID: Int64
        public var sessionLabel: String
        public var request: RequestRecord
        public var previous: RequestRecord
        public var baseline: RequestRecord
        /// Why the prefix changed; several when several handoffs preceded the request.
        public var causes: [Cause]
        /// The handoffs behind `causes`; empty for a history transform.
        public var handoffs: [HandoffRecord]
        public var cachedTokensLost: Int64?
        public var ttftIncrease: Int64?
        public var runStart: Int64

        /// A sentence on what changed, for people.
        public var explanation: String {
            if causes == [.historyTransform] {
                var text = "history transform: only \(request.reusedPrefixEntries) of the previous "
                    + "\(previous.transcriptEntries) entries were reused (entries \(previous.transcriptEntries) → "
                    + "\(request.transcriptEntries))"
                if request.transcriptEntries <= previous.transcriptEntries {
                    text += "; the transcript did not grow, as when a rolling window drops entries from the front"
                }
                return text
            }
            return handoffs.map { handoff in
                let kind = Cause.from(handoffKind: handoff.kind).map(\.phrase) ?? handoff.kind
                return "\(kind): \(TerminalText.fitted(handoff.from, width: 32)) → \(TerminalText.fitted(handoff.to, width: 32))"
            }.joined(separator: "; ")
        }
    }

    public var path: String
    public var findings: [Finding]
    /// Requests that had a previous request in their session, so could have reused a prefix.
    public var followUpRequests: Int

    public var cachedTokensLost: Int64 { findings.reduce(0) { $0 + max(0, $1.cachedTokensLost ?? 0) } }
    public var ttftIncrease: Int64 { findings.reduce(0) { $0 + max(0, $1.ttftIncrease ?? 0) } }

    /// Handoffs this long after a request's start still count as its cause: the middleware may
    /// record a handoff just after stamping the request's start.
    public static let handoffTolerance: Int64 = 1_000_000

    public static func analyze(_ trace: RecordedTrace) -> CacheFindings {
        var findings: [Finding] = []
        var followUps = 0
        for run in trace.runs {
            let handoffsBySession = Dictionary(grouping: run.handoffs.filter { $0.sessionID != nil }, by: { $0.sessionID! })
            let requestsBySession = Dictionary(grouping: run.requests.filter { $0.sessionID != nil }, by: { $0.sessionID! })
            for (sessionID, unsorted) in requestsBySession {
                let requests = unsorted.sorted { ($0.ts, $0.requestID) < ($1.ts, $1.requestID) }
                let handoffs = handoffsBySession[sessionID] ?? []
                var baseline = requests[0]
                for index in requests.indices.dropFirst() {
                    followUps += 1
                    let previous = requests[index - 1]
                    let request = requests[index]
                    guard request.reusedPrefixEntries < previous.transcriptEntries else {
                        baseline = request
                        continue
                    }
                    let seen = handoffs.filter {
                        $0.ts > previous.ts && $0.ts <= request.ts + handoffTolerance
                    }.sorted { ($0.ts, $0.handoffID) < ($1.ts, $1.handoffID) }
                    var causes: [Cause] = []
                    for handoff in seen {
                        if let cause = Cause.from(handoffKind: handoff.kind), !causes.contains(cause) {
                            causes.append(cause)
                        }
                    }
                    if causes.isEmpty { causes = [.historyTransform] }
                    findings.append(
                        Finding(
                            runID: run.run.runID, sessionID: sessionID, sessionLabel: run.sessionLabel(sessionID),
                            request: request, previous: previous, baseline: baseline, causes: causes,
                            handoffs: causes == [.historyTransform] ? [] : seen,
                            cachedTokensLost: difference(baseline.cachedInputTokens, request.cachedInputTokens),
                            ttftIncrease: difference(request.timeToFirstToken, baseline.timeToFirstToken),
                            runStart: run.startTime))
                }
            }
        }
        findings.sort { ($0.request.ts, $0.request.requestID) < ($1.request.ts, $1.request.requestID) }
        return CacheFindings(path: trace.path, findings: findings, followUpRequests: followUps)
    }

    private static func difference(_ first: Int64?, _ second: Int64?) -> Int64? {
        guard let first, let second else { return nil }
        return first - second
    }
}

extension CacheFindings.Cause {
    /// The cause a handoff of `kind` (`model`, `profile`, `instructions`, `tools`) stands for.
    public static func from(handoffKind kind: String) -> Self? {
        switch kind {
        case "model": .modelSwitch
        case "profile": .profileSwitch
        case "instructions": .instructionsChanged
        case "tools": .toolsChanged
        default: nil
        }
    }

    var phrase: String {
        switch self {
        case .historyTransform: "history transform"
        case .instructionsChanged: "instructions changed"
        case .toolsChanged: "tools changed"
        case .modelSwitch: "model switch"
        case .profileSwitch: "profile switch"
        }
    }
}

// MARK: - Output

extension CacheFindings {
    public var text: String {
        let store = TerminalText.sanitized(path)
        guard followUpRequests > 0 else {
            return "\(store): no request followed another in its session; nothing to compare\n"
        }
        var out = "\(store): \(findings.count) of \(Format.count(Int64(followUpRequests))) follow-up requests "
            + "broke the cached prefix\n"
        guard !findings.isEmpty else { return out }
        out += "cache tax: \(Format.count(cachedTokensLost)) cached tokens lost, "
            + "\(Format.signedDuration(ttftIncrease)) time to first token\n"
        var byCause: [(Cause, Int)] = []
        for cause in Cause.allCases {
            let count = findings.filter { $0.causes.contains(cause) }.count
            if count > 0 { byCause.append((cause, count)) }
        }
        out += "causes: " + byCause.map { "\($0.0.phrase) \($0.1)" }.joined(separator: ", ") + "\n"
        for finding in findings {
            out += "\nsession \(TerminalText.fitted(finding.sessionLabel, width: 40)), request "
                + ToolFindings.shortID(finding.request.requestID)
                + " at \(Format.duration(finding.request.ts - finding.runStart))\n"
            out += "  \(finding.explanation)\n"
            let cached = "cached tokens \(Format.count(finding.baseline.cachedInputTokens)) → "
                + "\(Format.count(finding.request.cachedInputTokens))"
            let ttft = "ttft \(Format.duration(finding.baseline.timeToFirstToken)) → "
                + "\(Format.duration(finding.request.timeToFirstToken)) (\(Format.signedDuration(finding.ttftIncrease)))"
            out += "  cost vs request \(ToolFindings.shortID(finding.baseline.requestID)): \(cached), \(ttft)\n"
        }
        return out
    }

    public var json: JSONValue {
        .object([
            ("store", .string(path)),
            ("follow_up_requests", .int(Int64(followUpRequests))),
            ("cache_tax", .object([
                ("cached_tokens_lost", .int(cachedTokensLost)),
                ("ttft_increase_ns", .int(ttftIncrease)),
            ])),
            ("findings", .array(findings.map { finding in
                .object([
                    ("run_id", .int(finding.runID)),
                    ("session_id", .int(finding.sessionID)),
                    ("session", .string(finding.sessionLabel)),
                    ("request_id", .int(finding.request.requestID)),
                    ("previous_request_id", .int(finding.previous.requestID)),
                    ("baseline_request_id", .int(finding.baseline.requestID)),
                    ("ts", .int(finding.request.ts)),
                    ("causes", .array(finding.causes.map { .string($0.rawValue) })),
                    ("handoffs", .array(finding.handoffs.map { handoff in
                        .object([
                            ("kind", .string(handoff.kind)), ("from", .string(handoff.from)),
                            ("to", .string(handoff.to)), ("ts", .int(handoff.ts)),
                        ])
                    })),
                    ("reused_prefix_entries", .int(finding.request.reusedPrefixEntries)),
                    ("previous_transcript_entries", .int(finding.previous.transcriptEntries)),
                    ("transcript_entries", .int(finding.request.transcriptEntries)),
                    ("cached_input_tokens", .int(finding.request.cachedInputTokens)),
                    ("baseline_cached_input_tokens", .int(finding.baseline.cachedInputTokens)),
                    ("cached_tokens_lost", .int(finding.cachedTokensLost)),
                    ("ttft_ns", .int(finding.request.timeToFirstToken)),
                    ("baseline_ttft_ns", .int(finding.baseline.timeToFirstToken)),
                    ("ttft_increase_ns", .int(finding.ttftIncrease)),
                ])
            })),
        ])
    }
}
