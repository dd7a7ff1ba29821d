import TraceAnalysis
import TraceModel

/// `trace-report completions bash|zsh|fish`: the shell completion script, made from the help.
struct CompletionsCommand: ReportCommand {
    static let name = "completions"
    static let abstract = "Print the shell completion script for bash, zsh or fish."
    static let operands = "bash|zsh|fish"
    static let discussion = """
        The script completes subcommands, their options, the values of options that list them
        (--format, --group-by, ...) and file names, from the same options --help lists.
        scripts/install.sh installs all three. By hand:
          bash: trace-report completions bash > ~/.local/share/bash-completion/completions/trace-report
          zsh:  trace-report completions zsh > ~/.zfunc/_trace-report  (with ~/.zfunc in fpath)
          fish: trace-report completions fish > ~/.config/fish/completions/trace-report.fish
        """
    static let options: [OptionSpec] = []

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure)
        -> ReportExitStatus
    {
        let shells = ShellCompletion.allCases.map(\.rawValue).joined(separator: ", ")
        guard arguments.positionals.count == 1 else {
            throw .usage(UsageError("name one shell: \(shells)"))
        }
        guard let shell = ShellCompletion(rawValue: arguments.positionals[0]) else {
            throw .usage(UsageError("no completions for '\(TerminalText.sanitized(arguments.positionals[0]))'; "
                + "name one of \(shells)"))
        }
        context.write(shell.script(for: TraceReport.commands))
        return .success
    }
}
