import Reproducible
import SessionTrace
import TraceAnalysis
import TraceModel

extension CappedAnswers {
    package var text: String {
        let store = TerminalText.sanitized(path)
        guard requestCount > 0 else { return "\(store): no requests recorded\n" }
        let hits = findings.reduce(0) { $0 + $1.capped.count }
        var out =
            "\(store): \(hits) of \(Format.count(Int64(requestCount))) requests stopped at their token cap\n"
        for finding in findings {
            out += "\n" + finding.headline + "\n"
            out +=
                "  cost: \(Format.duration(finding.generationTime)) generating, "
                + "\(Format.count(finding.outputTokens)) output tokens in the cut answers\n"
            for request in finding.capped {
                out +=
                    "    request \(ShortID.record(request.requestID)) at "
                    + Format.duration(request.ts &- finding.runStart)
                    + ": \(Format.count(request.outputTokens)) output tokens, finish reason "
                    + TerminalText.fitted(request.finishReason ?? "", width: 20) + "\n"
            }
        }
        return out
    }
}
