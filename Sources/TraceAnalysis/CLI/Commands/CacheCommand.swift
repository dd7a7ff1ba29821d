/// `trace-report cache STORE`: requests that broke the reusable prompt prefix, and the cost.
public struct CacheCommand: ReportCommand {
    public static let name = "cache"
    public static let abstract = "Requests that broke the cached prompt prefix, their cause and the cache tax."
    public static let usage = "trace-report cache [--fail-on-findings] [--json] STORE"
    public static let discussion = """
        A request breaks the prefix when it reused fewer leading entries than the previous request of its
        session sent (reused_prefix_entries < previous transcript_entries). The cause comes from the
        session's handoffs since the previous request (model switch, profile switch, changed instructions
        or tools); without one, the history was transformed, as by a rolling window.
        Cost is against the last earlier request of the session whose prefix was intact: cached input
        tokens lost and time to first token gained. Their sums are the cache tax.
        """
    public static let options: [OptionSpec] = [CommonOptions.failOnFindings, CommonOptions.json]

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure)
        -> ExitCode
    {
        let trace = try loadTrace(arguments, context: context)
        let report = CacheFindings.analyze(trace)
        context.writeReport(
            json: arguments.flag("--json"), anomalies: trace.anomalies, text: { report.text },
            object: { report.json })
        return arguments.flag("--fail-on-findings") && !report.findings.isEmpty ? .findings : .success
    }
}
