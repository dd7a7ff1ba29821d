import Reproducible
import TraceAnalysis
import TraceModel

extension ToolFindings {
    /// The report for people.
    package var text: String {
        let store = TerminalText.sanitized(path)
        guard toolCallCount > 0 else { return "\(store): no tool calls recorded\n" }
        var out =
            "\(store): \(findings.count) finding" + (findings.count == 1 ? "" : "s") + " in "
            + "\(Format.count(Int64(toolCallCount))) tool calls"
        if !findings.isEmpty {
            out += ", repeats cost \(Format.duration(cost))"
        }
        out += "\n"
        if callsComparable == 0 {
            out += """
                note: near-identical arguments were not checked: the calls have no argument sketch \
                (a store before schema 3) and no captured tool_arguments; identical arguments are \
                found by fingerprint all the same.

                """
        } else if callsComparable < toolCallCount {
            out +=
                "note: arguments comparable (sketch or captured text) for \(callsComparable) of "
                + "\(toolCallCount) calls; near-identical arguments checked among those only.\n"
        }
        if inferredTurns { out += "note: turns inferred from finish reasons (the store records none).\n" }
        for finding in findings {
            out += "\n" + finding.headline + "\n"
            out += "  session \(TerminalText.fitted(finding.sessionLabel, width: 40))"
            if let turn = finding.turnIndex { out += ", turn \(turn + 1)" }
            out +=
                ", request" + (finding.requestIDs.count == 1 ? " " : "s ")
                + finding.requestIDs.map(ShortID.record).joined(separator: ", ") + "\n"
            out += "  cost: " + finding.costText + "\n"
            let repeats = Set(finding.repeatIDs)
            for (index, call) in finding.calls.enumerated() {
                let at = "at " + Format.duration(call.record.ts &- finding.runStart)
                var line =
                    "    \(index + 1). \(at), \(Format.duration(call.record.dur)), \(call.record.outcome.rawValue)"
                line += repeats.contains(call.record.toolCallID) ? ", repeat" : ""
                if let arguments = call.arguments {
                    line += "  " + TerminalText.fitted(arguments, width: 60)
                } else {
                    line +=
                        "  fingerprint " + TerminalText.fitted(call.record.argumentsFingerprint, width: 16)
                }
                out += line + "\n"
            }
        }
        return out
    }
}
