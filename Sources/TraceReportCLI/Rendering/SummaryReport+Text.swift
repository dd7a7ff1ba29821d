import Reproducible
import SessionTrace
import TraceAnalysis
import TraceModel
import TraceStore

extension SummaryReport {
    /// The report for a person: one table per grouping; at most `sessionLimit` session rows.
    package func text(sessionLimit: Int = 20) -> String {
        let store = TerminalText.sanitized(path)
        let unclosedWarnings = runs.compactMap(\.unclosed).map { "warning: " + TerminalText.sanitized($0.description) + "\n" }
            .joined()
        guard requestCount > 0 else {
            var out = "\(store): no requests recorded"
            if droppedCount > 0 { out += " (\(Format.count(droppedCount)) events were dropped)" }
            return out + "\n" + unclosedWarnings
        }
        var out = "\(store): \(Format.count(requestCount)) requests in \(runs.count) run"
            + (runs.count == 1 ? "" : "s") + ", \(Format.count(errorCount)) failed, "
            + "\(Format.count(droppedCount)) events dropped\n"
        if droppedCount > 0 {
            out += "warning: the trace is incomplete; \(Format.count(droppedCount)) events could not be recorded\n"
        }
        out += unclosedWarnings
        out += "\nBy run\n" + table(runs, first: ("run", { group in
            let id = "run " + ShortID.run(group.runID ?? 0)
            return group.label.map { "\(id) \(TerminalText.fitted($0, width: 24))" } ?? id
        }), dropped: true)
        let shown = sessions.prefix(sessionLimit)
        // A session's `#` number is unique within its run: over several runs, the run is named too.
        let severalRuns = runs.count > 1
        out += "\nBy session\n" + table(Array(shown), first: ("session", { group in
            let label = TerminalText.fitted(group.label ?? "", width: 28)
            let run = severalRuns ? "run " + ShortID.run(group.runID ?? 0) + " " : ""
            return run + (group.sessionID.map { ShortID.record($0) + " " + label } ?? label)
        }), dropped: false)
        if sessions.count > shown.count {
            out += "  … \(sessions.count - shown.count) more sessions; --limit N shows more, --json shows all\n"
        }
        out += "\nBy profile/model\n" + table(profiles, first: ("profile/model", { group in
            TerminalText.fitted(group.profile ?? "", width: 16) + " / " + TerminalText.fitted(group.model ?? "", width: 24)
        }), dropped: false)
        let waits = profiles.compactMap { group in group.ttftMedianParts.map { (group, $0) } }
        if !waits.isEmpty {
            out += "\nTime to first token of each profile/model's median request, in parts that add up to it\n"
            for (group, median) in waits {
                let parts = median.parts.named.map { "\($0.label) " + ($0.value.map(Format.duration) ?? "not reported") }
                out += "  " + TerminalText.fitted(group.profile ?? "", width: 16) + " / "
                    + TerminalText.fitted(group.model ?? "", width: 24) + "  ttft " + Format.duration(median.parts.ttft)
                    + " = " + parts.joined(separator: " + ") + "\n"
            }
        }
        out += """

            Percentiles are nearest-rank. prompt p50 and rest p50 split the time to first token, over \
            the requests whose server reported its timings: the server's own prompt processing, and \
            the rest (queueing, network, the client); "no timings" where no server reported them. tok/s: (output_tokens - 1) / (dur - ttft). cache hit: \
            server-reported cached input tokens over input tokens, summed; "not reported" where the \
            server gave no cache figures. model time: sum of request durations; tool time: sum of \
            tool-call durations.

            """
        out += costNote
        return out
    }

    /// Where the costs come from, or that there are none.
    var costNote: String {
        guard let prices else { return "cost: no prices given (--prices FILE)\n" }
        let unpriced = runs.saturatingSum(\.unpricedRequests)
        var note = "cost: dollars per million tokens from \(TerminalText.sanitized(prices.path))"
        if unpriced > 0 { note += "; \(Format.count(unpriced)) requests of models without a price not counted" }
        return note + "\n"
    }

    private func table(
        _ groups: [Group], first: (title: String, cell: (Group) -> String), dropped: Bool
    ) -> String {
        var columns: [(String, TextTable.Alignment)] = [
            (first.title, .left), ("requests", .right), ("ttft p50", .right), ("p95", .right), ("max", .right),
            ("prompt p50", .right), ("rest p50", .right),
            ("tok/s p50", .right), ("latency p50", .right), ("p95", .right), ("model time", .right),
            ("tool time", .right), ("cache hit", .right), ("errors", .right),
        ]
        if prices != nil { columns.insert(("cost", .right), at: columns.count - 1) }
        if dropped { columns.append(("dropped", .right)) }
        var table = TextTable(columns)
        for group in groups {
            var cells = [
                first.cell(group), Format.count(group.requests), Format.duration(group.ttftP50),
                Format.duration(group.ttftP95), Format.duration(group.ttftMax),
                group.splitRequests > 0 ? Format.duration(group.ttftPromptP50) : "no timings",
                group.splitRequests > 0 ? Format.duration(group.ttftRestP50) : "no timings", Format.rate(group.tokensPerSecondP50),
                Format.duration(group.latencyP50), Format.duration(group.latencyP95), Format.duration(group.modelTime),
                Format.duration(group.toolTime),
                group.cacheHitRate.map(Format.percent) ?? "not reported", Format.count(group.errors),
            ]
            if prices != nil { cells.insert(PriceTable.dollars(group.cost), at: cells.count - 1) }
            if dropped { cells.append(Format.count(group.droppedEvents ?? 0)) }
            table.add(cells)
        }
        return table.rendered()
    }
}
