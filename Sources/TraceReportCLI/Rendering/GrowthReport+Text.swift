import Reproducible
import SessionTrace
import TraceAnalysis
import TraceModel

extension GrowthReport {
    package var text: String {
        let store = TerminalText.sanitized(path)
        guard !sessions.isEmpty else { return "\(store): no requests recorded\n" }
        let window = Format.count(options.contextWindow)
        var out = "\(store): prompt growth in \(sessions.count) session" + (sessions.count == 1 ? "" : "s")
            + ", context window \(window) tokens\n"
        var table = TextTable([
            ("session", .left), ("requests", .right), ("entries", .right), ("prompt bytes", .right),
            ("input tokens", .right), ("peak share", .right), ("input tokens per request", .left),
        ])
        for session in sessions {
            let first = session.requests.first!
            let last = session.requests.last!
            let tokens = session.requests.map { $0.inputTokens ?? 0 }
            let ceiling = max(tokens.max() ?? 0, 1)
            table.add([
                TerminalText.fitted(session.label, width: 28), Format.count(Int64(session.requests.count)),
                "\(first.transcriptEntries) → \(last.transcriptEntries)",
                "\(Format.count(first.promptBytes)) → \(Format.count(last.promptBytes))",
                "\(Format.count(first.inputTokens)) → \(Format.count(last.inputTokens))",
                Format.percent(session.peakShare),
                Self.sparkline(tokens, ceiling: ceiling, width: 32),
            ])
        }
        out += "\n" + table.rendered()
        out += "\nLargest prompts\n"
        var largestTable = TextTable([
            ("session", .left), ("request", .left), ("entries", .right), ("prompt bytes", .right),
            ("input tokens", .right), ("share of window", .right),
        ])
        for prompt in largest {
            largestTable.add([
                TerminalText.fitted(prompt.sessionLabel, width: 28), ShortID.record(prompt.request.requestID),
                Format.count(prompt.request.transcriptEntries), Format.count(prompt.request.promptBytes),
                Format.count(prompt.request.inputTokens), Format.percent(prompt.share),
            ])
        }
        out += largestTable.rendered()
        let flagged = findings
        out += "\n"
        if flagged.isEmpty {
            out += "No prompt reached \(Format.percent(options.warnShare)) of the context window.\n"
        }
        for session in flagged {
            let request = session.firstOverWarning!
            out += "near the context window: session \(TerminalText.fitted(session.label, width: 40)) reached "
                + "\(Format.percent(session.peakShare)) of \(window) tokens; first over "
                + "\(Format.percent(options.warnShare)) at request \(ShortID.record(request.requestID)) "
                + "(\(Format.count(request.inputTokens)) tokens, \(request.transcriptEntries) entries)\n"
        }
        return out
    }

    /// A sparkline of `values` against `ceiling`, at most `width` characters (requests are
    /// bucketed, each character the largest of its bucket, when there are more).
    static func sparkline(_ values: [Int64], ceiling: Int64, width: Int) -> String {
        guard !values.isEmpty, ceiling > 0 else { return "" }
        let buckets = min(values.count, width)
        var out = ""
        for bucket in 0..<buckets {
            let range = (bucket * values.count / buckets)..<((bucket + 1) * values.count / buckets)
            let value = values[range].max() ?? 0
            let level = Int((Double(value) / Double(ceiling) * 7).rounded())
            out.append(levels[min(max(level, 0), 7)])
        }
        return out
    }

    /// Eight levels of a bar, for a sparkline of input tokens per request.
    static let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
}
