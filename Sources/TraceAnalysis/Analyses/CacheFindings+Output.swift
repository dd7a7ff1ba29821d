extension CacheFindings {
    /// The report for people.
    public var text: String {
        let store = TerminalText.sanitized(path)
        guard followUpRequests > 0 else {
            return "\(store): no request followed another in its session; nothing to compare\n"
        }
        var out =
            "\(store): \(findings.count) of \(Format.count(Int64(followUpRequests))) follow-up requests "
            + "broke the cached prefix\n"
        guard !findings.isEmpty else { return out }
        out +=
            "cache tax: \(Format.count(cachedTokensLost)) cached tokens lost, "
            + "\(Format.signedDuration(ttftIncrease)) time to first token\n"
        var byCause: [(Cause, Int)] = []
        for cause in Cause.allCases {
            let count = findings.filter { $0.causes.contains(cause) }.count
            if count > 0 { byCause.append((cause, count)) }
        }
        out += "causes: " + byCause.map { "\($0.0.phrase) \($0.1)" }.joined(separator: ", ") + "\n"
        for finding in findings {
            out +=
                "\nsession \(TerminalText.fitted(finding.sessionLabel, width: 40)), request "
                + ShortID.record(finding.request.requestID)
                + " at \(Format.duration(finding.request.ts &- finding.runStart))\n"
            out += "  \(finding.explanation)\n"
            var cost = "  cost vs request \(ShortID.record(finding.previous.requestID)): "
            if let lost = finding.cachedTokensLost, let reusable = finding.reusableTokens {
                cost += "\(Format.count(lost)) of \(Format.count(reusable)) reusable tokens not cached"
            } else {
                cost += "cached tokens not reported"
            }
            cost +=
                ", ttft \(Format.duration(finding.previous.timeToFirstToken)) → "
                + "\(Format.duration(finding.request.timeToFirstToken)) "
                + "(\(Format.signedDuration(finding.ttftIncrease)))"
            out += cost + "\n"
        }
        return out
    }

    public var json: JSONValue {
        .object([
            ("store", .string(path)),
            ("follow_up_requests", .int(Int64(followUpRequests))),
            (
                "cache_tax",
                .object([
                    ("cached_tokens_lost", .int(cachedTokensLost)),
                    ("ttft_increase_ns", .int(ttftIncrease)),
                ])
            ),
            ("findings", .array(findings.map(\.json))),
        ])
    }
}

extension CacheFindings.Finding {
    public var json: JSONValue {
        .object([
            ("run_id", .id(runID)),
            ("session_id", .id(sessionID)),
            ("session", .string(sessionLabel)),
            ("request_id", .id(request.requestID)),
            ("previous_request_id", .id(previous.requestID)),
            ("ts", .int(request.ts)),
            ("causes", .array(causes.map { .string($0.rawValue) })),
            (
                "handoffs",
                .array(
                    handoffs.map { handoff in
                        .object([
                            ("kind", .string(handoff.kind)), ("from", .string(handoff.from)),
                            ("to", .string(handoff.to)), ("ts", .int(handoff.ts)),
                        ])
                    })
            ),
            ("model", .string("\(request.provider)/\(request.model)")),
            ("previous_model", .string("\(previous.provider)/\(previous.model)")),
            ("profile", .string(request.profile)),
            ("previous_profile", .string(previous.profile)),
            ("instructions_fingerprint", .string(request.instructionsFingerprint)),
            ("previous_instructions_fingerprint", .string(previous.instructionsFingerprint)),
            ("tools_fingerprint", .string(request.toolsFingerprint)),
            ("previous_tools_fingerprint", .string(previous.toolsFingerprint)),
            ("reused_prefix_entries", .int(request.reusedPrefixEntries)),
            ("previous_transcript_entries", .int(previous.transcriptEntries)),
            ("transcript_entries", .int(request.transcriptEntries)),
            ("cached_input_tokens", .int(request.cachedInputTokens)),
            ("previous_input_tokens", .int(previous.inputTokens)),
            ("reusable_tokens", .int(reusableTokens)),
            ("cached_tokens_lost", .int(cachedTokensLost)),
            ("confirmed_by_server", .bool(confirmedByServer)),
            ("ttft_ns", .int(request.timeToFirstToken)),
            ("previous_ttft_ns", .int(previous.timeToFirstToken)),
            ("ttft_increase_ns", .int(ttftIncrease)),
        ])
    }
}
