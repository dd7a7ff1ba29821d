import TraceReportCLI

#if canImport(Glibc)
import Glibc
#endif

// Thin on purpose: parsing and the subcommands live in TraceReportCLI, where tests reach them; the
// analyses, renderers and exporters in the TraceAnalysis library.
let status = TraceReport.main(
    Array(CommandLine.arguments.dropFirst()), context: .standard(), writeError: CommandContext.writeStandardError)
exit(status.rawValue)
