/// `trace-report tools STORE`: repeated tool calls and loops.
public struct ToolsCommand: ReportCommand {
    public static let name = "tools"
    public static let abstract = "Tool calls repeated with identical or near-identical arguments, and loops."
    public static let usage = "trace-report tools [--loop N] [--similarity X] [--fail-on-findings] [--json] STORE"
    public static let discussion = """
        identical: one session called a tool twice or more with the same arguments_fingerprint; works
          on every store.
        near-identical: different fingerprints but similar argument text, by word containment
          |A ∩ B| / min(|A|, |B|) over the words of the argument values, at least X (default 0.8);
          needs payload capture (tool_arguments payloads), since fingerprints cannot be compared.
        loop: one request called one tool N times or more (default 3).
        Each finding lists its session, requests and calls, and costs the time of the calls after the first.
        """
    public static let options: [OptionSpec] = [
        .value("--loop", "N", "calls of one tool in one request that make a loop (default 3)"),
        .value("--similarity", "X", "near-identical threshold, 0 < X ≤ 1 (default 0.8)"),
        CommonOptions.failOnFindings,
        CommonOptions.json,
    ]

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure)
        -> ExitCode
    {
        var options = ToolFindings.Options()
        do {
            options.loopThreshold = try arguments.int("--loop", default: 3, in: 2...1_000_000)
            options.similarityThreshold = try arguments.double("--similarity", default: 0.8, in: 0.01...1)
        } catch {
            throw .usage(error)
        }
        let trace = try loadTrace(arguments, context: context)
        let report = ToolFindings.analyze(trace, options: options)
        context.writeReport(
            json: arguments.flag("--json"), anomalies: trace.anomalies, text: { report.text },
            object: { report.json })
        return arguments.flag("--fail-on-findings") && !report.findings.isEmpty ? .findings : .success
    }
}
