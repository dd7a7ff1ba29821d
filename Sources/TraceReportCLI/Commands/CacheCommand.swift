import TraceAnalysis

/// `trace-report cache STORE`: requests that broke the reusable prompt prefix, and the cost.
struct CacheCommand: ReportCommand {
    static let name = "cache"
    static let abstract =
        "Requests that broke the cached prompt prefix, their cause and the cache tax."
    static let operands = "STORE"
    static let discussion = """
        Each request is compared with the previous request of its session. Causes: model switch (provider
        or model differs), instructions or tools changed (fingerprints or handoffs), history transform
        (fewer leading entries reused than the previous request sent), profile switch (with one of those,
        or alone when the server's cached tokens drop). Where the server reports cached input tokens, a
        request that still took the previous prompt from the cache did not break it.
        Tax: reusable tokens the server did not take from its cache, and the time to first token gained
        against the previous request. With --prices: the tax in dollars, what caching saved and what
        cache writes cost over plain input.
        Then the first-token waits the prompt does not explain: requests whose time to first token, beyond
        the server's own prompt processing, is far above the run's usual (unexplained_ttft).
        """
    static let options: [OptionSpec] = [
        SessionOption.runSpec, SessionOption.spec, CommonOptions.failOnFindings, CommonOptions.json, CommonOptions.prices,
    ]

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure)
        -> ReportExitStatus
    {
        let trace = try SessionOption.loadTrace(arguments, for: Self.self, context: context)
        let report = CacheFindings.analyze(trace, prices: try CommonOptions.priceTable(arguments))
        context.writeReport(
            json: arguments.flag(CommonOptions.json), anomalies: trace.anomalies, unclosed: trace.unclosedRuns, text: { report.text },
            object: { report.json })
        return arguments.flag(CommonOptions.failOnFindings) && !report.findings.isEmpty ? .findings : .success
    }
}
