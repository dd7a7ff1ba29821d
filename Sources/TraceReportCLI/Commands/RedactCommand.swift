import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Redaction
import Reproducible
import TraceAnalysis
import TraceModel

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
    /// The options of this command alone, each declared once and read through its declaration.
    enum Option {
        static let inputFormat = OptionSpec.value(
            "--input-format", "json|jsonl|text", "how to read the input (default: detected)")
        static let report = OptionSpec.flag(
            "--report", "list the kinds and line numbers of what would be replaced, not the text")
    }

    static let options: [OptionSpec] = [
        Option.inputFormat,
        Option.report,
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
        if let name = arguments.value(Option.inputFormat) {
            guard let mode = Mode(rawValue: name) else {
                throw .usage(UsageError("--input-format takes json, jsonl or text, not '\(TerminalText.sanitized(name))'"))
            }
            chosen = mode
        }
        guard !arguments.flag(CommonOptions.json) || arguments.flag(Option.report) else {
            throw .usage(UsageError("--json writes the --report as JSON; add --report, or name the input's "
                + "format with --input-format json"))
        }
        guard arguments.positionals.count <= 1 else {
            throw .usage(UsageError("one file at a time, but \(arguments.positionals.count) were given"))
        }
        let redactor = context.redactor
        let path = arguments.positionals.first ?? "-"
        var input = try InputStream(path: path)
        defer { input.close() }
        let notUTF8 = CommandFailure.message("\(path == "-" ? "standard input" : path) is not UTF-8 text")
        // JSON Lines larger than one chunk, as named or as the first chunk's lines say, is redacted
        // a chunk at a time, so memory stays flat; anything else is read whole.
        var pending = try input.read(atLeast: Self.chunkBytes)
        if !input.atEnd && !arguments.flag(Option.report) {
            // The lines of the first 64 KiB (or of the first chunk, for longer lines) decide: parsing
            // more with Foundation costs more than redacting it.
            let head = pending[..<min(pending.count, Self.detectionBytes)]
            let firstLines = pending[..<(head.lastIndex(of: UInt8(ascii: "\n"))
                ?? pending.lastIndex(of: UInt8(ascii: "\n")) ?? 0)]
            let streams = chosen.map { $0 == .jsonl }
                ?? (String(validating: firstLines, as: UTF8.self).map { detect($0) == .jsonl } ?? false)
            if streams {
                var counts: [RedactionKind: Int] = [:]
                var out: [UInt8] = []
                while true {
                    let end = input.atEnd ? pending.count : (pending.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0)
                    if end > 0 {
                        out.removeAll(keepingCapacity: true)
                        try pending.withUnsafeBufferPointer { all throws(CommandFailure) in
                            let lines = UnsafeBufferPointer(rebasing: all[0..<end])
                            guard Self.isUTF8(lines) else { throw notUTF8 }
                            redactor.redactJSONLines(lines, appendingTo: &out, counts: &counts)
                        }
                        context.writeRedacted(String(decoding: out, as: UTF8.self))
                        pending.removeFirst(end)
                    }
                    if input.atEnd { break }
                    // What one read gives, so that lines from a pipe go out as they arrive.
                    pending += try input.read(atLeast: 1, upTo: Self.chunkBytes)
                }
                context.writeNote(RedactionReport(counts: counts).summary + "\n")
                return .success
            }
        }
        while !input.atEnd { pending += try input.read(atLeast: Self.chunkBytes) }
        guard let text = String(validating: pending, as: UTF8.self) else { throw notUTF8 }
        let mode = chosen ?? detect(text)
        if arguments.flag(Option.report) {
            let format: Redactor.Format = switch mode {
            case .json: .json
            case .jsonl: .jsonLines
            case .text: .text
            }
            let locations = redactor.locate(text, as: format)
            if arguments.flag(CommonOptions.json) { context.write(json: reportJSON(locations)) } else { context.write(report(locations)) }
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

    /// Whether `bytes` are UTF-8. ASCII, the common case, is checked eight bytes at a time with no
    /// copy; from the first other byte the rest is validated in full.
    static func isUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var i = 0
        while i + 8 <= bytes.count
            && raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
            i += 8
        }
        while i < bytes.count && bytes[i] < 0x80 { i += 1 }
        guard i < bytes.count else { return true }
        return String(validating: UnsafeBufferPointer(rebasing: bytes[i...]), as: UTF8.self) != nil
    }

    /// How much of a large input's start is parsed to choose its format.
    static let detectionBytes = 64 << 10

    /// How much input is read at a time: JSON Lines are redacted this much at a time.
    static let chunkBytes = 4 << 20

    /// A file or standard input, read in chunks.
    struct InputStream {
        private let descriptor: Int32
        private(set) var atEnd = false

        /// Opens `path`, or standard input for `-`; one sentence says why a file cannot be read.
        init(path: String) throws(CommandFailure) {
            guard path != "-" else { descriptor = STDIN_FILENO; return }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw .message("\(path) does not exist")
            }
            guard !isDirectory.boolValue else { throw .message("\(path) is a directory") }
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw .message("\(path) cannot be read") }
        }

        /// The next `count` bytes or more, up to `limit`; fewer at the end of input.
        mutating func read(atLeast count: Int, upTo limit: Int? = nil) throws(CommandFailure) -> [UInt8] {
            let limit = limit ?? count
            var bytes = [UInt8](repeating: 0, count: limit)
            var filled = 0
            while filled < count {
                let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + filled, limit - filled) }
                if got < 0 && errno == EINTR { continue }
                guard got >= 0 else { throw .message("the input cannot be read: \(String(cString: strerror(errno)))") }
                if got == 0 { atEnd = true; break }
                filled += got
            }
            bytes.removeLast(limit - filled)
            return bytes
        }

        func close() {
            if descriptor != STDIN_FILENO { _ = Glibc.close(descriptor) }
        }
    }

    /// `redacted 3 values: 2 email, 1 openai_key`, then one line per kind with its count and lines:
    /// `email  2  lines 3, 17`.
    static func report(_ locations: [RedactionLocation]) -> String {
        let (summary, kinds) = tally(locations)
        let width = kinds.map(\.kind.rawValue.count).max() ?? 0
        var out = summary.summary + "\n"
        for (kind, count, lines) in kinds {
            let padded = kind.rawValue.padding(toLength: width, withPad: " ", startingAt: 0)
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
                    ("kind", .string(kind.rawValue)), ("count", .int(Int64(count))),
                    ("lines", .array(lines.map { .int(Int64($0)) })),
                ])
            })),
        ])
    }

    /// The counts by kind, and per kind, most frequent first, its count and the lines it is on.
    private static func tally(_ locations: [RedactionLocation])
        -> (summary: RedactionReport, kinds: [(kind: RedactionKind, count: Int, lines: [Int])])
    {
        var lines: [RedactionKind: [Int]] = [:]
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
