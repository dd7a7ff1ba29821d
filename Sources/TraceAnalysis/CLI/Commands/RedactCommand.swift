import Foundation
import Redaction

/// `trace-report redact [--rules FILE] [--json|--jsonl|--text] [--report] [FILE]`: any text, JSON
/// or JSON Lines file with its secrets replaced, for logs and transcripts that go with a trace; with
/// `--report`, what would be replaced (counts by kind and line numbers, never the values).
public struct RedactCommand: ReportCommand {
    public static let name = "redact"
    public static let abstract = "Redact secrets and personal data in a text, JSON or JSON Lines file."
    public static let usage = "trace-report redact [--rules FILE] [--json|--jsonl|--text] [--report] [FILE]"
    public static let discussion = """
        Reads FILE (standard input if absent or '-') and writes it to standard output with every
        secret or personal value replaced by [REDACTED:<kind>]. Prints what was replaced, counted by
        kind, on standard error. JSON is redacted inside string values only, so it stays valid JSON;
        without a flag the input is JSON if it parses as one document, JSON Lines if every non-empty
        line parses as JSON, else text. With --report, writes instead what would be replaced: the
        count of each kind and the lines it is on, never the values.
        """
    public static let options: [OptionSpec] = [
        .value("--rules", "FILE", "more redaction rules, one per line (see docs/trace-report.md)"),
        .flag("--json", "the input is one JSON document"),
        .flag("--jsonl", "the input is JSON Lines"),
        .flag("--text", "the input is text"),
        .flag("--report", "list the kinds and line numbers of what would be replaced, not the text"),
    ]

    /// How the input is read.
    enum Mode: String {
        case json, jsonl, text
    }

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure)
        -> ExitCode
    {
        let chosen = [Mode.json, .jsonl, .text].filter { arguments.flag("--" + $0.rawValue) }
        guard chosen.count <= 1 else {
            throw .usage(UsageError("give at most one of --json, --jsonl and --text"))
        }
        guard arguments.positionals.count <= 1 else {
            throw .usage(UsageError("one file at a time, but \(arguments.positionals.count) were given"))
        }
        let redactor = try Redactor.withRules(from: arguments.value("--rules"))
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
        let mode = chosen.first ?? detect(text)
        if arguments.flag("--report") {
            let format: Redactor.Format = switch mode {
            case .json: .json
            case .jsonl: .jsonLines
            case .text: .text
            }
            context.write(report(redactor.locate(text, as: format)))
            return .success
        }
        let result: RedactionResult
        switch mode {
        case .json: result = redactor.redactJSON(text)
        case .jsonl: result = redactor.redactJSONLines(text)
        case .text: result = redactor.redact(text)
        }
        context.write(result.text)
        var report = RedactionReport()
        report.add(result)
        context.writeNote(report.summary + "\n")
        return .success
    }

    /// `redacted 3 values: 2 email, 1 openai_key`, then one line per kind with its count and lines:
    /// `email  2  lines 3, 17`.
    static func report(_ locations: [RedactionLocation]) -> String {
        var lines: [String: [Int]] = [:]
        for location in locations { lines[location.kind, default: []].append(location.line) }
        let summary = RedactionReport(counts: lines.mapValues(\.count))
        let width = summary.sortedCounts.map(\.kind.count).max() ?? 0
        var out = summary.summary + "\n"
        for (kind, count) in summary.sortedCounts {
            var numbers: [Int] = []
            for line in lines[kind] ?? [] where numbers.last != line { numbers.append(line) }
            let padded = kind.padding(toLength: width, withPad: " ", startingAt: 0)
            let noun = numbers.count == 1 ? "line" : "lines"
            out += "\(padded)  \(count)  \(noun) \(numbers.map(String.init).joined(separator: ", "))\n"
        }
        return out
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
