/// `trace-report man`: the trace-report(1) man page, made from the help of every subcommand.
public struct ManualCommand: ReportCommand {
    public static let name = "man"
    public static let abstract = "Print the trace-report(1) man page (roff), made from this help."
    public static let operands = ""
    public static let discussion = """
        Read it with 'trace-report man | man -l -'; scripts/install.sh installs it as
        PREFIX/share/man/man1/trace-report.1.
        """
    public static let options: [OptionSpec] = []

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure)
        -> ExitCode
    {
        guard arguments.positionals.isEmpty else {
            throw .usage(UsageError("man takes no operand, but \(arguments.positionals.count) were given"))
        }
        context.write(ManualPage.render(TraceReport.commands))
        return .success
    }
}
