import TraceAnalysis

/// `trace-report growth STORE`: how prompts grow across sessions, against the context window.
struct GrowthCommand: ReportCommand {
    static let name = "growth"
    static let abstract = "Transcript and prompt growth per session, largest prompts, share of the context window."
    static let operands = "STORE"
    static let discussion = """
        Per session: transcript entries, prompt bytes and input tokens from the first request to the last,
        with a sparkline of input tokens per request; then the largest prompts. A session is a finding
        when a prompt reaches X (default 0.75) of the context window (input_tokens / N).
        """
    /// The options of this command alone, each declared once and read through its declaration.
    enum Option {
        static let contextWindow = OptionSpec.value(
            "--context-window", "N", "the model's context window in tokens (default 8192)")
        static let warnShare = OptionSpec.value(
            "--warn-share", "X", "share of the window that makes a finding, 0 < X ≤ 1 (default 0.75)")
        static let top = OptionSpec.value("--top", "N", "largest prompts listed (default 5)")
    }

    static let options: [OptionSpec] = [
        SessionOption.runSpec,
        SessionOption.spec,
        Option.contextWindow,
        Option.warnShare,
        Option.top,
        CommonOptions.failOnFindings,
        CommonOptions.json,
    ]

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure)
        -> ReportExitStatus
    {
        var options = GrowthReport.Options()
        do {
            options.contextWindow = Int64(try arguments.int(Option.contextWindow, default: 8192))
            options.warnShare = try arguments.double(Option.warnShare, default: 0.75, in: 0.01...1)
            options.top = try arguments.int(Option.top, default: 5, in: 0...100_000)
        } catch {
            throw .usage(error)
        }
        let trace = try SessionOption.loadTrace(arguments, for: Self.self, context: context)
        let report = GrowthReport.analyze(trace, options: options)
        context.writeReport(
            json: arguments.flag(CommonOptions.json), anomalies: trace.anomalies, unclosed: trace.unclosedRuns, text: { report.text },
            object: { report.json })
        return arguments.flag(CommonOptions.failOnFindings) && !report.findings.isEmpty ? .findings : .success
    }
}
