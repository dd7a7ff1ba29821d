import TraceAnalysis

/// `trace-report man`: the trace-report(1) man page, made from the help of every subcommand.
struct ManualCommand: ReportCommand {
    static let name = "man"
    static let abstract = "Print the trace-report(1) man page (roff), made from this help."
    static let operands = ""
    static let discussion = """
        Read it with 'trace-report man | man -l -'; scripts/install.sh installs it as
        PREFIX/share/man/man1/trace-report.1.
        """
    static let options: [OptionSpec] = []

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure)
        -> ReportExitStatus
    {
        guard arguments.positionals.isEmpty else {
            throw .usage(UsageError("man takes no operand, but \(arguments.positionals.count) were given"))
        }
        context.write(ManualPage.render(TraceReport.commands))
        return .success
    }
}
