import TraceAnalysis

/// `trace-report capped STORE`: answers cut off by the response-token cap.
struct CappedCommand: ReportCommand {
    static let name = "capped"
    static let abstract = "Answers cut off by the response-token cap, per session and cap."
    static let operands = "STORE"
    static let discussion = """
        A request whose finish reason is length, max_tokens or max_output_tokens stopped at its token cap.
        One finding per session and cap: the cap (max_tokens, when the store records it), how many
        requests under it hit it, and the generation time and output tokens of the cut answers.
        """
    static let options: [OptionSpec] = [
        SessionOption.runSpec, SessionOption.spec, CommonOptions.failOnFindings, CommonOptions.json,
    ]

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure)
        -> ReportExitStatus
    {
        let trace = try SessionOption.loadTrace(arguments, for: Self.self, context: context)
        let report = CappedAnswers.analyze(trace)
        context.writeReport(
            json: arguments.flag(CommonOptions.json), anomalies: trace.anomalies, unclosed: trace.unclosedRuns, text: { report.text },
            object: { report.json })
        return arguments.flag(CommonOptions.failOnFindings) && !report.findings.isEmpty ? .findings : .success
    }
}
