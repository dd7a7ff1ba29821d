import Reproducible
import SessionTrace
import TraceAnalysis
import TraceModel

extension OversizedToolOutputs {
    /// The findings for people, one block each; empty when there are none.
    package var text: String {
        var out = ""
        for finding in findings {
            out += "\n" + finding.headline + "\n"
            out +=
                "  session \(TerminalText.fitted(finding.sessionLabel, width: 40)), call at "
                + Format.duration(finding.call.ts &- finding.runStart) + ", inflated request "
                + ShortID.record(finding.inflated.requestID)
                + " (\(Format.count(finding.inflated.promptBytes)) prompt bytes, "
                + "\(Format.count(finding.inflated.inputTokens)) input tokens)\n"
        }
        return out
    }
}
