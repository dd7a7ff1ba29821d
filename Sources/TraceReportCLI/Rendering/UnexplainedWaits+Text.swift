import Reproducible
import SessionTrace
import TraceAnalysis
import TraceModel

extension UnexplainedWaits {
    /// The section of `trace-report cache` for people.
    package var text: String {
        guard checkedRequests > 0 else {
            return uncheckedRequests > 0
                ? "first-token waits: not checked, the server reported no timings\n" : ""
        }
        var out =
            "first-token waits: \(findings.reduce(0) { $0 + $1.waits.count }) of "
            + "\(Format.count(Int64(checkedRequests))) requests waited far longer than their prompt explains"
        if uncheckedRequests > 0 { out += " (\(Format.count(Int64(uncheckedRequests))) without server timings)" }
        out += "\n"
        for finding in findings {
            out += "\n" + finding.headline + "\n"
            for wait in finding.waits {
                out +=
                    "  request \(ShortID.record(wait.request.requestID)): ttft \(Format.duration(wait.split.ttft))"
                    + " = prompt \(Format.duration(wait.split.prompt)) + rest \(Format.duration(wait.split.rest))\n"
            }
        }
        return out
    }
}
