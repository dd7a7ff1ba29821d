/// `trace-report make-scenarios DIR`: writes the scenario stores of `tracefiles/scenarios`.
///
/// Hidden: a developer tool. The stores are written through the real `Tracer` and `StoreSink`,
/// so they are exactly what a traced program produces; the checked-in copies are regenerated
/// with `scripts/make-scenarios.sh`.
public struct MakeScenariosCommand: ReportCommand {
    public static let name = "make-scenarios"
    public static let abstract = "Write the scenario stores (developer tool)."
    public static let usage = "trace-report make-scenarios DIRECTORY"
    public static let discussion = """
        Writes one store per scenario, replacing any of the same name:
        \(Scenario.allCases.map { "  \($0.fileName)  \($0.summary)" }.joined(separator: "\n"))
        """
    public static let options: [OptionSpec] = []
    public static let isHidden = true

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure)
        -> ExitCode
    {
        guard arguments.positionals.count == 1, let directory = arguments.positionals.first else {
            throw .usage(UsageError("name one directory to write the scenario stores into"))
        }
        for scenario in Scenario.allCases {
            let path = directory + "/" + scenario.fileName
            do { try scenario.write(to: path) } catch { throw .message(error.description) }
            context.write("wrote \(TerminalText.sanitized(path))\n")
        }
        return .success
    }
}
