/// `--session LABEL|ID` of the analyses that can look at one session.
enum SessionOption {
    static let spec = OptionSpec.value("--session", "LABEL|ID", "only the sessions with this label or id")

    /// The store named by the command line, narrowed to `--session` when given.
    static func loadTrace<Command: ReportCommand>(
        _ arguments: ParsedArguments, for command: Command.Type, context: CommandContext
    ) throws(CommandFailure) -> RecordedTrace {
        let trace = try command.loadTrace(arguments, context: context)
        guard let wanted = arguments.value("--session") else { return trace }
        guard let selected = trace.selectingSession(wanted) else {
            throw .message("no session '\(wanted)' in \(trace.path)")
        }
        return selected
    }
}
