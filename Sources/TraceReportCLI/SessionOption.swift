import TraceAnalysis
import TraceModel

/// `--run ID` and `--session LABEL|ID` of the analyses that can look at one run or session.
enum SessionOption {
    static let spec = OptionSpec.value(
        "--session", "LABEL|ID", "only the sessions with this label, id or short id (#5)")
    static let runSpec = OptionSpec.value(
        "--run", "LABEL|ID", "only the runs with this label, id or short id (47360866)")

    /// The store named by the command line, narrowed to `--run` and `--session` when given.
    static func loadTrace<Command: ReportCommand>(
        _ arguments: ParsedArguments, for command: Command.Type, context: CommandContext
    ) throws(CommandFailure) -> RecordedTrace {
        try narrowed(command.loadTrace(arguments, context: context), arguments, session: true)
    }

    /// `trace` with only the run of `--run`, and the sessions of `--session` when `session`.
    static func narrowed(_ trace: RecordedTrace, _ arguments: ParsedArguments, session: Bool)
        throws(CommandFailure) -> RecordedTrace
    {
        var trace = trace
        if let wanted = arguments.value(runSpec) {
            guard let selected = trace.selectingRun(wanted) else {
                throw .message("no run '\(TerminalText.sanitized(wanted))' in \(trace.path)")
            }
            trace = selected
        }
        guard session, let wanted = arguments.value(spec) else { return trace }
        guard let selected = trace.selectingSession(wanted) else {
            throw .message("no session '\(TerminalText.sanitized(wanted))' in \(trace.path)")
        }
        return selected
    }
}
