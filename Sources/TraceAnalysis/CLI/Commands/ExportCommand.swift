#if canImport(Glibc)
import Glibc
#endif

/// `trace-report export --format html [--out FILE] STORE [STORE2]`: the web viewer as one file.
public struct ExportCommand: ReportCommand {
    public static let name = "export"
    public static let abstract = "Write a store (or two, to compare) as a self-contained web viewer page."
    public static let usage = "trace-report export --format html [--out FILE] STORE [STORE2]"
    public static let discussion = """
        html: one HTML file with the viewer's script, style and the trace inlined; open it in a browser,
        from disk, with no network. One lane per session: requests (the wait before the first token
        and the generating part, coloured by cache hits), tool calls under them, handoffs, intervals;
        zoom with the wheel or + and -, pan by dragging or with the arrow keys; click for details;
        findings in the side panel. With STORE2 the runs of both stores are shown one above the other
        on the same time scale. Every string is redacted again on the way out; payloads appear only if
        they were captured. The file is created readable by its owner only.
        The data format is documented in docs/viewer-data.md.
        """
    public static let options: [OptionSpec] = [
        .value("--format", "FORMAT", "html (the default)"),
        .value("--out", "FILE", "where to write; standard output if absent"),
    ]

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure)
        -> ExitCode
    {
        let format = arguments.value("--format") ?? "html"
        guard format == "html" else {
            let shown = TerminalText.sanitized(format)
            throw .usage(UsageError("unknown format '\(shown)'; html is the one supported"))
        }
        let paths = arguments.positionals
        guard !paths.isEmpty else { throw .usage(UsageError("no store given; name a .sqlite file")) }
        guard paths.count <= 2 else {
            throw .usage(UsageError("one store, or two to compare, but \(paths.count) were given"))
        }
        var traces: [RecordedTrace] = []
        for path in paths {
            do {
                traces.append(try TraceLoader.load(path: path, chunks: false))
            } catch {
                throw .input(error)
            }
        }
        let data = ViewerData.build(traces)
        let html: String
        do { html = try ViewerDocument.html(data: data) } catch { throw .message(error.description) }
        guard let out = arguments.value("--out") else {
            context.write(html)
            return .success
        }
        try writeOwnerOnly(html, to: out)
        var note = "wrote \(TerminalText.sanitized(out)): \(data.runCount) run" + (data.runCount == 1 ? "" : "s")
            + ", \(Format.count(Int64(data.requestCount))) requests"
            + ", \(Format.count(Int64(data.toolCallCount))) tool calls"
            + ", \(Format.count(Int64(data.handoffCount))) handoffs"
        if data.redaction.total > 0 { note += "; " + data.redaction.summary }
        context.write(note + "\n")
        return .success
    }

    /// Writes `text` to `path`, replacing it, with mode 0600: traces are sensitive.
    static func writeOwnerOnly(_ text: String, to path: String) throws(CommandFailure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .message("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        // An existing file keeps its mode through O_TRUNC; make it owner-only as well.
        fchmod(descriptor, 0o600)
        var text = text
        let failure: Int32? = text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        if let failure { throw .message("cannot write \(path): \(String(cString: strerror(failure)))") }
    }
}
