import TraceAnalysis

/// `trace-report tools STORE`: repeated tool calls, loops and oversized tool output.
struct ToolsCommand: ReportCommand {
    static let name = "tools"
    static let abstract =
        "Tool calls repeated with identical or near-identical arguments, loops, oversized output."
    static let operands = "STORE"
    static let discussion = """
        Two calls of a tool ask the same thing when their arguments_fingerprint is equal, or when their
        captured arguments agree field by field: no entity differs (a number such as a page or an id, an
        id-like value, a proper noun, a field named like city, name, date, page) and the other text
        shares at least X (default 0.8) of its content words. Needs payload capture for the latter.
        identical: one session called a tool twice or more with the same fingerprint.
        near-identical: one session asked a tool the same thing with different fingerprints.
        loop: in one user turn, the same ask N times or more (default 3), in one request or one per
          round; or a cycle of asks made again in order (A → B → A → B).
        Results: a call after a failed call of the same ask is a retry, not a repeat. When every repeat
          returned a new result (another output fingerprint for the same arguments, or outputs whose
          MinHash sketches agree under 0.5), the calls were not stuck: the same arguments in one turn
          are polling, near-identical asks pagination or refinement (not reported).
        oversized output: a tool output of 8 KB or more that is half or more of the next prompt.
        Cost: the repeats' tool time, and the extra rounds (requests that asked only for repeats), with
        their time and tokens.
        """
    /// The options of this command alone, each declared once and read through its declaration.
    enum Option {
        static let loop = OptionSpec.value(
            "--loop", "N", "asks of one kind in one turn that make a loop (default 3)")
        static let similarity = OptionSpec.value(
            "--similarity", "X", "near-identical threshold, 0 < X ≤ 1 (default 0.8)")
    }

    static let options: [OptionSpec] = [
        SessionOption.runSpec, SessionOption.spec,
        Option.loop,
        Option.similarity,
        CommonOptions.failOnFindings,
        CommonOptions.json,
    ]

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure)
        -> ReportExitStatus
    {
        var options = ToolFindings.Options()
        do {
            options.loopThreshold = try arguments.int(Option.loop, default: 3, in: 2...1_000_000)
            options.similarityThreshold = try arguments.double(Option.similarity, default: 0.8, in: 0.01...1)
        } catch {
            throw .usage(error)
        }
        let trace = try SessionOption.loadTrace(arguments, for: Self.self, context: context)
        let repeats = ToolFindings.analyze(trace, options: options)
        let oversized = OversizedToolOutputs.analyze(trace)
        context.writeReport(
            json: arguments.flag(CommonOptions.json), anomalies: trace.anomalies, unclosed: trace.unclosedRuns, text: { repeats.text + oversized.text },
            object: { .object(repeats.jsonMembers + [("oversized_outputs", oversized.json)]) })
        let found = !repeats.findings.isEmpty || !oversized.findings.isEmpty
        return arguments.flag(CommonOptions.failOnFindings) && found ? .findings : .success
    }
}
