import Reproducible
import TraceModel

extension CacheFindings {

    /// Savings and premiums in dollars, or that no prices were given.
    package var moneyText: String {
        guard let money else { return "dollars: no prices given (--prices FILE)\n" }
        var out =
            cacheReportedRequests == 0
            ? "caching saved: not reported" : "caching saved \(PriceTable.dollars(money.savings))"
        if cacheWriteRequests > 0 {
            out += "; cache writes cost \(PriceTable.dollars(money.writePremium)) over input"
        }
        if money.unpricedRequests > 0 {
            out +=
                "; \(Format.count(Int64(money.unpricedRequests))) requests of models without a price not counted"
        }
        return out + "\n"
    }

    public var json: OrderedJSON {
        .object([
            ("store", .string(path)),
            ("follow_up_requests", .int(Int64(followUpRequests))),
            ("cache_reported_requests", .int(Int64(cacheReportedRequests))),
            ("cache_write_requests", .int(Int64(cacheWriteRequests))),
            (
                "cache_tax",
                .object([
                    ("cached_tokens_lost", .int(cachedTokensLost)),
                    ("ttft_increase_ns", .int(ttftIncrease)),
                    ("usd", .double(money?.tax)),
                ])
            ),
            (
                "dollars",
                money.map { money in
                    .object([
                        ("prices", .string(money.prices.path)), ("savings", .double(money.savings)),
                        ("cache_write_premium", .double(money.writePremium)), ("tax", .double(money.tax)),
                        ("unpriced_requests", .int(Int64(money.unpricedRequests))),
                    ])
                } ?? .null
            ),
            ("findings", .array(findings.map(\.json))),
            ("chronic", .array(chronic.map(\.json))),
            ("unexplained_waits", waits.json),
        ])
    }
}

extension CacheFindings.ChronicBreak {
    /// One line: which segment, in which session, how often, and its shape.
    public var headline: String {
        let segment = cause == .toolsChanged ? "tool definitions" : "instructions"
        var line =
            "chronic cache break: the \(segment) changed on every one of \(breaks.count) follow-up "
            + "requests of session \(TerminalText.fitted(breaks[0].sessionLabel, width: 40))"
        if !shapes.isEmpty { line += " (" + shapes.map(\.phrase).joined(separator: ", ") + ")" }
        return line
    }

    /// The total tax, for people.
    package var costText: String {
        var text = "tax: "
        text +=
            cachedTokensLost.map { "\(Format.count($0)) cached tokens lost, " } ?? "cached tokens not reported, "
        text += "\(Format.signedDuration(ttftIncrease)) time to first token"
        if let dollars = taxDollars { text += ", \(PriceTable.dollars(dollars))" }
        return text
    }

    public var json: OrderedJSON {
        .object([
            ("run_id", .id(breaks[0].runID)),
            ("session_id", .id(breaks[0].sessionID)),
            ("session", .string(breaks[0].sessionLabel)),
            ("cause", .string(cause.rawValue)),
            ("shapes", .array(shapes.map { .string($0.rawValue) })),
            ("request_ids", .array(breaks.map { .id($0.request.requestID) })),
            ("cached_tokens_lost", .int(cachedTokensLost)),
            ("ttft_increase_ns", .int(ttftIncrease)),
            ("tax_usd", .double(taxDollars)),
            ("breaks", .array(breaks.map(\.json))),
        ])
    }
}

extension CacheFindings.Finding {
    public var json: OrderedJSON {
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
                            ("kind", .string(handoff.kind.rawValue)), ("from", .string(handoff.from)),
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
            ("tax_usd", .double(taxDollars)),
            (
                "shapes",
                .object(CacheFindings.Cause.allCases.compactMap { cause in
                    shapes[cause].map { (cause.rawValue, .string($0.rawValue)) }
                })
            ),
        ])
    }
}
