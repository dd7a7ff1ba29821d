import Reproducible
import TraceAnalysis
import TraceModel
import TraceStore

/// The implausible values a command read (see ``StoreAnomaly``), as its report shows them: a
/// `note:` line each after a text report, an `anomalies` array in `--json`, so the figures that
/// rest on values read as the nearest plausible one are never taken at face value.
enum AnomalyNotes {
    /// One `note:` line per anomaly, safe for a terminal; empty when there are none.
    static func text(_ anomalies: [StoreAnomaly]) -> String {
        anomalies.map { "note: " + TerminalText.sanitized($0.description) + "\n" }.joined()
    }

    /// The anomalies as the `anomalies` key of a JSON report.
    static func json(_ anomalies: [StoreAnomaly]) -> OrderedJSON {
        .array(anomalies.map { anomaly in
            .object([
                ("store", .string(anomaly.path)),
                ("table", .string(anomaly.table)),
                ("column", .string(anomaly.column)),
                ("plausible", .string(anomaly.plausible)),
                ("out_of_range", .int(anomaly.outOfRange)),
                ("lowest", .string(anomaly.lowest)),
                ("highest", .string(anomaly.highest)),
                ("fractions", .int(anomaly.fractions)),
                ("not_numbers", .int(anomaly.notNumbers)),
            ])
        })
    }

    /// `report` with an `anomalies` key added last, when `report` is a JSON object, and an
    /// `unclosed_runs` key before it when a run ended without closing.
    static func adding(
        _ anomalies: [StoreAnomaly], unclosed: [UnclosedRun] = [], to report: OrderedJSON
    ) -> OrderedJSON {
        guard case .object(let members) = report else { return report }
        let runs: [(String, OrderedJSON)] = unclosed.isEmpty ? [] : [("unclosed_runs", .array(unclosed.map(\.json)))]
        return .object(members + runs + [("anomalies", json(anomalies))])
    }

    /// One `warning:` line per run that ended without closing, safe for a terminal.
    static func text(_ unclosed: [UnclosedRun]) -> String {
        unclosed.map { "warning: " + TerminalText.sanitized($0.description) + "\n" }.joined()
    }
}

extension CommandContext {
    /// Writes a report rendered from a redacted input (its notes redacted too) as `--json` asks:
    /// JSON with an `anomalies` key (and `unclosed_runs`), or the text with a `warning:` line per
    /// unclosed run and a `note:` line per anomaly after it, as it is.
    func writeReport(
        json: Bool, anomalies: [StoreAnomaly], unclosed: [UnclosedRun] = [], text: () -> String,
        object: () -> OrderedJSON
    ) {
        if json {
            writeRedacted(json: AnomalyNotes.adding(anomalies, unclosed: unclosed, to: object()))
        } else {
            writeRedacted(text() + AnomalyNotes.text(unclosed) + AnomalyNotes.text(anomalies))
        }
    }
}
