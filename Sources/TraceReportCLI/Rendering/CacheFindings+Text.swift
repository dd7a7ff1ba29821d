import Reproducible
import TraceAnalysis
import TraceModel

extension CacheFindings {
    /// The report for people: the breaks, then the first-token waits the prompt does not explain.
    package var text: String {
        let waitsText = waits.text
        return breaksText + (waitsText.isEmpty ? "" : "\n" + waitsText)
    }

    private var breaksText: String {
        let store = TerminalText.sanitized(path)
        guard followUpRequests > 0 else {
            return "\(store): no request followed another in its session; nothing to compare\n"
        }
        var out =
            "\(store): \(findings.count + chronic.reduce(0) { $0 + $1.breaks.count }) of "
            + "\(Format.count(Int64(followUpRequests))) follow-up requests broke the cached prefix\n"
        if cacheReportedRequests == 0 { out += "cached input tokens: not reported by the server\n" }
        out += moneyText
        for item in chronic { out += "\n" + item.headline + "\n  " + item.costText + "\n" }
        guard !findings.isEmpty else { return out }
        out +=
            "cache tax: \(Format.count(cachedTokensLost)) cached tokens lost, "
            + "\(Format.signedDuration(ttftIncrease)) time to first token"
            + (money.map { ", \(PriceTable.dollars($0.tax))" } ?? "") + "\n"
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
            if let dollars = finding.taxDollars { cost += ", \(PriceTable.dollars(dollars))" }
            cost +=
                ", ttft \(Format.duration(finding.previous.timeToFirstToken)) → "
                + "\(Format.duration(finding.request.timeToFirstToken)) "
                + "(\(Format.signedDuration(finding.ttftIncrease)))"
            out += cost + "\n"
        }
        return out
    }
}
