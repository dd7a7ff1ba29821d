import Redaction
import TraceAnalysis
import TraceExport

#if canImport(Glibc)
import Glibc
import Reproducible
#endif

/// Where a subcommand writes and what it knows of its surroundings; tests pass their own.
///
/// Everything `trace-report` writes leaves through a context: standard output, notes and error
/// sentences on standard error, and files. Its ``redactor`` is the run's one redaction policy
/// (the built-in rules and `--rules FILE`, or no rule at all with `--no-redact`), and every byte
/// written goes through it exactly once, by the redactor of its format:
///
/// - What a command reads is redacted field by field as it is loaded
///   (``ReportCommand/loadTrace(_:context:chunks:)``, ``ReportCommand/loadBaseline(paths:grouping:context:)``),
///   so that text cut to a column or escaped for Markdown, XML or a workflow command never hides
///   a secret, and scenario names match those of a baseline written redacted. What is rendered
///   from it leaves through the `writeRedacted` writers, as it is.
/// - What was never redacted (help, paths from the command line, notes) leaves through `write`
///   and `writeNote`: text as text, JSON string by string so that it stays valid JSON.
///
/// A second pass would read what the first one kept as new text: the `t` of a JSON `\t` as the
/// start of an email address, a `\"` as the end of a quoted password; and the count a command
/// prints would no longer be the count of what changed.
public struct CommandContext: Sendable {
    /// The process environment (`COLUMNS`, `NO_COLOR`).
    var environment: [String: String]
    /// True when standard output is a terminal, so colour is on unless asked off.
    var outputIsTerminal: Bool
    /// The redaction policy every output goes through; `trace-report` sets it from `--rules` and
    /// `--no-redact`.
    var redactor: Redactor
    /// Set in the viewer's browser tests only: `export --format html` then adds this module, the
    /// page's test driver (`viewer/selftest.js`, read from the checkout); `trace-report` never sets it.
    package var viewerTestDriver: (name: String, text: String)?
    private let standardOutput: @Sendable (String) -> Void
    private let standardError: @Sendable (String) -> Void

    /// - Parameters:
    ///   - writeNote: where notes and error sentences go (standard error).
    ///   - write: where output goes (standard output).
    public init(
        environment: [String: String], outputIsTerminal: Bool, redactor: Redactor = .standard,
        writeNote: @escaping @Sendable (String) -> Void = CommandContext.writeStandardError,
        write: @escaping @Sendable (String) -> Void
    ) {
        self.environment = environment
        self.outputIsTerminal = outputIsTerminal
        self.redactor = redactor
        self.standardError = writeNote
        self.standardOutput = write
    }

    /// The process's own environment and standard output.
    public static func standard() -> CommandContext {
        var environment: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        let isTerminal = isatty(STDOUT_FILENO) == 1
        return CommandContext(environment: environment, outputIsTerminal: isTerminal) { text in
            writeAll(STDOUT_FILENO, text)
        }
    }

    // MARK: Writers: every byte a command writes

    /// Writes text to standard output, redacted.
    func write(_ text: String) {
        standardOutput(redactor.redact(text).text)
    }

    /// Writes `json` to standard output as one document and a newline, every string redacted.
    func write(json: OrderedJSON) {
        standardOutput(json.redacted(by: redactor).serialized() + "\n")
    }

    /// Writes text rendered from values the run's redactor already redacted (a loaded trace or
    /// baseline, a ``RedactionResult``) to standard output as it is.
    func writeRedacted(_ text: String) {
        standardOutput(text)
    }

    /// Writes `json`, built from values the run's redactor already redacted, to standard output as
    /// one document and a newline, as it is.
    func writeRedacted(json: OrderedJSON) {
        standardOutput(json.serialized() + "\n")
    }

    /// Writes a note for the person running the command, such as a redaction report, to standard
    /// error, redacted, so that it stays out of output that is piped on.
    func writeNote(_ text: String) {
        standardError(redactor.redact(text).text)
    }

    /// Writes text rendered from values the run's redactor already redacted to the file at `path`,
    /// as it is, created readable by its owner only.
    func writeRedactedFile(_ text: String, to path: String) throws(CommandFailure) {
        do { try ExportFile.write(text, to: path) } catch { throw .export(error) }
    }

    /// Writes `json`, built from values the run's redactor already redacted, and a newline to the
    /// file at `path`, as it is, created readable by its owner only.
    func writeRedactedFile(json: OrderedJSON, to path: String) throws(CommandFailure) {
        do { try ExportFile.write(json.serialized() + "\n", to: path) } catch { throw .export(error) }
    }

    /// Writes an export to the file at `path`, or to standard output when nil, as it is: an export
    /// is rendered from records that ``redactor`` redacted field by field (``RedactedTrace``), and
    /// scanning it again as text would take its ids for card numbers and rewrite the viewer's
    /// script, whose hash its Content-Security-Policy pins.
    func writeExport(_ text: String, to path: String?) throws(CommandFailure) {
        if let path { try writeRedactedFile(text, to: path) } else { writeRedacted(text) }
    }

    /// Writes `text` to standard error as it is; ``TraceReport/main(_:context:writeError:)``
    /// redacts its error sentences with the context's ``redactor`` first.
    public static func writeStandardError(_ text: String) {
        writeAll(STDERR_FILENO, text)
    }

    /// Writes every byte of `text` to `descriptor`, retrying short writes; gives up quietly on a
    /// closed pipe, as `head` closes it when it has read enough.
    private static func writeAll(_ descriptor: Int32, _ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}
