import TraceAnalysis

#if canImport(Glibc)
import Glibc
#endif

// Thin on purpose: parsing, analysis and rendering live in TraceAnalysis, where tests reach them.
let status = TraceReport.main(
    Array(CommandLine.arguments.dropFirst()), context: .standard(), writeError: CommandContext.writeStandardError)
exit(status.rawValue)
