import Foundation
import Redaction
import Reproducible
import TraceAnalysis

/// `trace-report redact [--input-format json|jsonl|text] [--report [--json]] [FILE]`: any text, JSON
/// or JSON Lines file with its secrets replaced, for logs and transcripts that go with a trace; with
/// `--report`, what would be replaced (counts by kind and line numbers, never the values).
struct RedactCommand: ReportCommand {
    static let name = "redact"
    static let abstract = "Redact secrets and personal data in a text, JSON or JSON Lines file."
    static let operands = "[FILE]"
    static let discussion = """
        Reads FILE (standard input if absent or '-') and writes it to standard output with every
        secret or personal value replaced by [REDACTED:<kind>]. Prints what was replaced, counted by
        kind, on standard error. JSON is redacted inside string values only, so it stays valid JSON;
        without --input-format the input is JSON if it parses as one document, JSON Lines if every
        non-empty line parses as JSON, else text. With --report, writes instead what would be
        replaced: the count of each kind and the lines it is on, never the values (--json: as JSON).
        """
    static let options: [OptionSpec] = [
        .value("--input-format", "json|jsonl|text", "how to read the input (default: detected)"),
        .flag("--report", "list the kinds and line numbers of what would be replaced, not the text"),
        CommonOptions.json,
    ]

    /// How the input is read.
    enum Mode: String {
        case json, jsonl, text
    }

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure)
        -> ReportExitStatus
    {
        var chosen: Mode?
        if let name = arguments.value("--input-format") {
            guard let mode = Mode(rawValue: name) else {
                throw .usage(UsageError("--input-format takes json, jsonl or text, not '\(TerminalText.sanitized(name))'"))
            }
            chosen = mode
        }
        guard !arguments.flag("--json") || arguments.flag("--report") else {
            throw .usage(UsageError("--json writes the --report as JSON; add --report, or name the input's "
                + "format with --input-format json"))
        }
        guard arguments.positionals.count <= 1 else {
            throw .usage(UsageError("one file at a time, but \(arguments.positionals.count) were given"))
        }
        let redactor = context.redactor
        let path = arguments.positionals.first ?? "-"
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let contents = FileManager.default.contents(atPath: path) else {
                var isDirectory: ObjCBool = false
                let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
                throw .message(
                    "\(path) "
                        + (exists
                            ? (isDirectory.boolValue ? "is a directory" : "cannot be read")
                            : "does not exist"))
            }
            data = contents
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .message("\(path == "-" ? "standard input" : path) is not UTF-8 text")
        }
        let mode = chosen ?? detect(text)
        if arguments.flag("--report") {
            let format: Redactor.Format = switch mode {
            case .json: .json
            case .jsonl: .jsonLines
            case .text: .text
            }
            let locations = redactor.locate(text, as: format)
            if arguments.flag("--json") { context.write(json: reportJSON(locations)) } else { context.write(report(locations)) }
            return .success
        }
        let result: RedactionResult
        switch mode {
        case .json: result = redactor.redactJSON(text)
        case .jsonl: result = redactor.redactJSONLines(text)
        case .text: result = redactor.redact(text)
        }
        // The format's own redactor was the one pass: as text, JSON escapes would read as characters.
        context.writeRedacted(result.text)
        var report = RedactionReport()
        report.add(result)
        context.writeNote(report.summary + "\n")
        return .success
    }

    /// `redacted 3 values: 2 email, 1 openai_key`, then one line per kind with its count and lines:
    /// `email  2  lines 3, 17`.
    static func report(_ locations: [RedactionLocation]) -> String {
        let (summary, kinds) = tally(locations)
        let width = kinds.map(\.kind.count).max() ?? 0
        var out = summary.summary + "\n"
        for (kind, count, lines) in kinds {
            let padded = kind.padding(toLength: width, withPad: " ", startingAt: 0)
            let noun = lines.count == 1 ? "line" : "lines"
            out += "\(padded)  \(count)  \(noun) \(lines.map(String.init).joined(separator: ", "))\n"
        }
        return out
    }

    /// The report as JSON: `{"redacted": 3, "kinds": [{"kind": "email", "count": 2, "lines": [3, 17]}]}`.
    static func reportJSON(_ locations: [RedactionLocation]) -> OrderedJSON {
        .object([
            ("redacted", .int(Int64(locations.count))),
            ("kinds", .array(tally(locations).kinds.map { kind, count, lines in
                .object([
                    ("kind", .string(kind)), ("count", .int(Int64(count))),
                    ("lines", .array(lines.map { .int(Int64($0)) })),
                ])
            })),
        ])
    }

    /// The counts by kind, and per kind, most frequent first, its count and the lines it is on.
    private static func tally(_ locations: [RedactionLocation])
        -> (summary: RedactionReport, kinds: [(kind: String, count: Int, lines: [Int])])
    {
        var lines: [String: [Int]] = [:]
        for location in locations where lines[location.kind]?.last != location.line {
            lines[location.kind, default: []].append(location.line)
        }
        let counts = Dictionary(grouping: locations, by: \.kind).mapValues(\.count)
        let summary = RedactionReport(counts: counts)
        return (summary, summary.sortedCounts.map { ($0.kind, $0.count, lines[$0.kind] ?? []) })
    }

    /// JSON if the whole text is one document, JSON Lines if every non-empty line is one, else text.
    static func detect(_ text: String) -> Mode {
        func parses(_ bytes: Data) -> Bool {
            (try? JSONSerialization.jsonObject(with: bytes, options: [.fragmentsAllowed])) != nil
        }
        let lines = text.split(separator: "\n").filter { !$0.allSatisfy(\.isWhitespace) }
        guard !lines.isEmpty else { return .text }
        if lines.count > 1, lines.allSatisfy({ parses(Data($0.utf8)) }) { return .jsonl }
        if parses(Data(text.utf8)) { return .json }
        return .text
    }
}
