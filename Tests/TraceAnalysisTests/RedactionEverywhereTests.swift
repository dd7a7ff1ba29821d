import Foundation
import Redaction
import Reproducible
import SessionTrace
import SessionTraceTesting
import TestSupport
import Testing
import TraceStore

@testable import TraceAnalysis
@testable import TraceExport
@testable import TraceReportCLI

/// Secrets in the formats their issuers document, assembled at run time from a seeded generator,
/// so that nothing in the repository looks like a real secret and every run plants the same ones.
struct PlantedSecrets {
    /// The secrets themselves: what no output may show, whole or in part.
    let secrets: [String]
    /// Every secret with the words a person would write around it, as one line.
    let line: String

    init(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
        let lower = "abcdefghijklmnopqrstuvwxyz"
        let digits = "0123456789"
        func draw(_ count: Int, _ alphabet: String) -> String {
            String((0..<count).map { _ in alphabet.randomElement(using: &random)! })
        }
        // GitHub: prefix, 30 base62 characters and their CRC32 in 6 base62 digits.
        let github = draw(30, digits + upper + lower)
        // A Visa number: 4, 14 digits and the Luhn check digit.
        let card = "4" + draw(14, digits)
        let pairs = [
            ("key", "AKIA" + draw(16, upper + "234567")),
            ("aws_secret_access_key=", draw(40, upper + lower + digits + "/+")),
            ("token", "ghp_" + github + Self.base62(Self.crc32(github), width: 6)),
            (
                "bot",
                "xoxb-" + draw(11, digits) + "-" + draw(13, digits) + "-" + draw(24, upper + lower + digits)
            ),
            ("mail", draw(8, lower) + "." + draw(8, lower) + "@northwind-mail.com"),
            ("card", card + Self.luhnDigit(card)),
        ]
        secrets = pairs.map(\.1)
        line = pairs.map { $0.0.hasSuffix("=") ? $0.0 + $0.1 : $0.0 + " " + $0.1 }.joined(separator: " ")
    }

    /// Where some part of a secret, 12 characters or more, shows in `text`: cut to a column or
    /// escaped, a secret is still a leak.
    func leaks(in text: String) -> [String] {
        secrets.filter { secret in
            let characters = Array(secret)
            return (0...(characters.count - 12)).contains { start in
                text.contains(String(characters[start..<(start + 12)]))
            }
        }
    }

    static func crc32(_ text: String) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in text.utf8 {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func base62(_ value: UInt32, width: Int) -> String {
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        var value = value
        var out = ""
        while value > 0 {
            out.insert(alphabet[Int(value % 62)], at: out.startIndex)
            value /= 62
        }
        return String(repeating: "0", count: max(0, width - out.count)) + out
    }

    static func luhnDigit(_ digits: String) -> String {
        let sum = digits.reversed().enumerated().reduce(0) { sum, element in
            let digit = Int(String(element.element))!
            let doubled = element.offset % 2 == 0 ? digit * 2 : digit
            return sum + (doubled > 9 ? doubled - 9 : doubled)
        }
        return String((10 - sum % 10) % 10)
    }
}

/// A store whose every free-text column holds every planted secret: run label, host, command line
/// and git revision; session labels; request profile, provider, model, finish reason, error,
/// response id, response model and server address; tool names, call ids and errors; handoff
/// values; interval names, metadata and errors; instant names and metadata; payloads. Its
/// requests make a finding for every analysis: a tool loop, a model handoff that breaks the
/// cache, a prompt near the context window, an answer cut at its token cap. The host comes from
/// the system, so a store recorded without `redaction` gets it planted afterwards.
func makePlantedStore(
    _ path: String, _ planted: PlantedSecrets, redaction: (@Sendable (String) -> String)? = nil
) throws {
    let text = planted.line
    let sink = try StoreSink(path: path)
    let clock = storeClock()
    let tracer = Tracer(
        sink: sink, clock: clock, label: "nightly " + text, commandLine: "planner-demo --note '\(text)'",
        gitRevision: text, payloadRedaction: redaction)
    let start = clock.now()
    for (index, name) in ["planner ", "writer "].enumerated() {
        let session = tracer.makeID()
        let at = start + Int64(index) * 10_000_000_000
        let interval = tracer.beginInterval("PlanDay " + text, metadata: ["note": .string(text), "turn": 1])
        var previousEntries: Int64 = 0
        for turn in 0..<3 {
            let ts = at + Int64(turn) * 2_000_000_000
            let model = (turn == 0 ? "smollm2 " : "qwen ") + text
            if turn == 1 {
                tracer.record(
                    .handoff(
                        HandoffRecord(
                            handoffID: tracer.makeID(), sessionID: session, ts: ts - 1, kind: "model",
                            from: "smollm2 " + text, to: model)), kind: .handoff)
            }
            let request = RequestRecord(
                requestID: tracer.makeID(), sessionID: session, parentID: interval.id, ts: ts,
                dur: 900_000_000 + Int64(turn) * 10_000_000,
                timeToFirstToken: 100_000_000 + Int64(turn) * 1_000_000,
                profile: "economy " + text, provider: "llama.cpp " + text, model: model, inputTokens: 7_000,
                cachedInputTokens: turn == 2 ? 6_000 : 0, outputTokens: 40, promptBytes: 28_000,
                transcriptEntries: previousEntries + 2, reusedPrefixEntries: turn == 2 ? previousEntries : 0,
                finishReason: turn == 2 ? "length" : "stop " + text,
                error: turn == 1 ? "server said " + text : nil,
                responseID: "chatcmpl " + text, responseModel: "smollm2 " + text, serverAddress: text,
                maxTokens: 40)
            previousEntries += 2
            tracer.record(.request(request), kind: .request)
            for call in 0..<3 where turn == 0 {
                let id = tracer.makeID()
                tracer.record(
                    .toolCall(
                        ToolCallRecord(
                            toolCallID: id, requestID: request.requestID, sessionID: session,
                            ts: ts + 200_000_000 + Int64(call) * 100_000_000, dur: 50_000_000,
                            name: "searchNotes " + text, callID: "call " + text,
                            argumentsFingerprint: "9f86d081884c7d65", argumentsBytes: 40, outputBytes: 100,
                            outcome: call == 2 ? .error : .ok, error: call == 2 ? text : nil)),
                    kind: .toolCall)
                let arguments = #"{"query":"notes \#(call) \#(text)"}"#
                tracer.record(
                    .payload(
                        PayloadRecord(
                            payloadID: tracer.makeID(), parentID: id, ts: ts, kind: .toolArguments,
                            text: arguments)),
                    kind: .payload)
            }
            tracer.record(
                .payload(
                    PayloadRecord(
                        payloadID: tracer.makeID(), parentID: request.requestID, ts: ts, kind: .prompt,
                        text: text)),
                kind: .payload)
            tracer.record(
                .instant(
                    InstantRecord(
                        instantID: tracer.makeID(), parentID: interval.id, ts: ts, name: "checkpoint " + text,
                        metadata: ["note": .string(text)])), kind: .instant)
        }
        clock.set(at + 7_000_000_000)
        interval.end(error: PlantedError(text: text))
        tracer.record(
            .session(SessionRecord(sessionID: session, ts: at, dur: 7_000_000_000, label: name + text)), kind: .session)
    }
    sink.close()
    if redaction == nil { try sqlite(path, "UPDATE run SET host = 'ci-runner \(text)'") }
}

/// An error whose text carries the secrets, as an error from a tool or a server may.
struct PlantedError: Error, CustomStringConvertible {
    var text: String
    var description: String { "planning failed: " + text }
}

/// A store with secrets in every free-text column gives no secret, whole or in part, in any output
/// of any subcommand of the built binary: standard output, standard error and every file written.
@Suite("no secret in any output")
struct RedactionEverywhereTests {
    let planted = PlantedSecrets(seed: 10)

    @Test func theRedactorFindsEveryPlantedSecret() {
        let result = Redactor.standard.redact(planted.line)
        #expect(result.total == planted.secrets.count)
        #expect(planted.leaks(in: result.text).isEmpty)
    }

    @Test func noSubcommandWritesAPlantedSecret() throws {
        let binary = try builtBinary()
        let directory = try TemporaryDirectory()
        let a = directory.path("a.sqlite")
        let b = directory.path("b.sqlite")
        try makePlantedStore(a, planted)
        try makePlantedStore(b, planted)
        try sqlite(b, "UPDATE request SET ttft = ttft * 3, dur = dur * 3")
        let secretsFile = directory.path("secrets.txt")
        try Data((planted.line + "\n").utf8).write(to: URL(fileURLWithPath: secretsFile))
        let missing = directory.path(planted.secrets[0] + ".sqlite")
        // A folder named by a secret: no LTTng trace for import, and an existing folder for record,
        // so both stop at an error sentence that names it before anything is recorded.
        let named = directory.path(planted.secrets[0])
        try FileManager.default.createDirectory(atPath: named, withIntermediateDirectories: false)
        let file = { (name: String) in directory.path(name) }

        var runs: [(arguments: [String], status: Int32, files: [String])] = []
        for command in ["check", "summary", "timeline", "tools", "cache", "capped", "growth"] {
            runs.append(([command, a], 0, []))
            runs.append(([command, "--json", a], 0, []))
        }
        runs += [
            (["timeline", "--width", "60", a], 0, []),
            (["timeline", "--session", planted.line, a], 2, []),
            (["summary", missing], 2, []),
            (["export", "--format", "jsonl", a], 0, []),
            (["baseline", a, b], 0, []),
            (["baseline", "--group-by", "interval", a, b], 0, []),
            (["baseline", "--out", file("baseline.json"), a], 0, [file("baseline.json")]),
            (["diff", a, b], 0, []),
            (["diff", "--json", a, b], 0, []),
            (["diff", file("baseline.json"), b], 0, []),
            (["gate", "--baseline", file("baseline.json"), "--min-samples", "1", b], 1, []),
            (["gate", "--baseline", file("baseline.json"), "--min-samples", "1", "--markdown", b], 1, []),
            (["gate", "--baseline", file("baseline.json"), "--min-samples", "1", "--github", b], 1, []),
            (["gate", "--baseline", file("baseline.json"), "--min-samples", "1", "--json", b], 1, []),
            (
                [
                    "gate", "--baseline", file("baseline.json"), "--min-samples", "1", "--junit",
                    file("gate.xml"), b,
                ],
                1, [file("gate.xml")]
            ),
            (["redact", secretsFile], 0, []),
            (["import", "--out", file("imported.sqlite"), named], 2, []),
            (["record", "--lttng", named, "--", "/bin/true"], 2, []),
        ]
        for format in ExportFormat.allCases {
            runs.append(
                (
                    ["export", "--format", format.rawValue, "--out", file("e.\(format)"), a], 0,
                    [file("e.\(format)")]
                ))
        }

        var outputs: [String: String] = [:]
        for run in runs {
            let result = try runProgram(binary, run.arguments)
            let label = run.arguments.joined(separator: " ")
            outputs[label] = result.out
            #expect(result.status == run.status, "\(label): \(result.err)")
            #expect(planted.leaks(in: result.out).isEmpty, "stdout of \(label)")
            #expect(planted.leaks(in: result.err).isEmpty, "stderr of \(label)")
            for path in run.files {
                let text = try String(contentsOfFile: path, encoding: .utf8)
                #expect(planted.leaks(in: text).isEmpty, "\(path) of \(label)")
                #expect(text.contains("[REDACTED:"), "\(path) of \(label) shows the redacted text")
            }
            if run.files.isEmpty {
                let shown = run.status == 2 ? result.err : result.out
                #expect(shown.contains("[REDACTED:"), "\(label) shows the planted text, redacted")
            }
            if run.arguments.contains("--json") || run.arguments.first == "baseline" && run.files.isEmpty {
                do { _ = try parseJSON(result.out) } catch { Issue.record("\(label) is not JSON: \(error)") }
            }
        }
        let covered = Set(runs.map { $0.arguments[0] })
        // completions and man print the help's own text and read no recorded input.
        let registered = Set(TraceReport.commands.map { $0.name })
            .subtracting(["completions", "man"])
        #expect(covered == registered, "every subcommand that reads input runs")
        let annotations = outputs.first { $0.key.contains("--github") }?.value ?? ""
        #expect(
            annotations.contains("::error title=") && annotations.contains(" regression%3A "),
            "the gate annotates its regressions")
        #expect(
            try parseJSON(String(contentsOfFile: file("baseline.json"), encoding: .utf8))["groups"] != nil)
    }

    @Test func noRedactShowsEverythingAndSaysSo() throws {
        let binary = try builtBinary()
        let directory = try TemporaryDirectory()
        let store = directory.path("a.sqlite")
        try makePlantedStore(store, planted)
        for command in [["summary", "--json"], ["timeline", "--json"], ["export", "--format", "jsonl"]] {
            let result = try runProgram(binary, command + ["--no-redact", store])
            #expect(result.status == 0, "\(command): \(result.err)")
            #expect(Set(planted.leaks(in: result.out)) == Set(planted.secrets), "\(command)")
            #expect(result.err.contains("--no-redact: nothing is redacted"), "\(command)")
        }
        let both = try runProgram(binary, ["summary", "--no-redact", "--rules", "/dev/null", store])
        #expect(both.status == 2)
        #expect(both.err.contains("give --rules or --no-redact, not both"))
    }

    /// A tracer with a redactor stores no secret in any column, not only in payloads.
    @Test func aRedactingTracerStoresNoSecret() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("recorded.sqlite")
        try makePlantedStore(path, planted, redaction: { Redactor.standard.redact($0).text })
        let dump = try runProgram("/usr/bin/sqlite3", [path, ".dump"])
        try #require(dump.status == 0, "\(dump.err)")
        #expect(planted.leaks(in: dump.out).isEmpty)
        #expect(dump.out.contains("[REDACTED:github_token]"))
    }
}
