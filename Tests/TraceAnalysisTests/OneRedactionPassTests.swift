import Foundation
import Reproducible
import TestSupport
import Testing
import TraceExport
import TraceStore

@testable import SessionTrace
@testable import TraceAnalysis
@testable import TraceReportCLI

/// Every output of every subcommand is redacted exactly once, by the redactor of its format: valid
/// JSON in gives valid JSON out, what a first pass kept is kept, and the count a command prints is
/// the count of markers in what it wrote. A second pass, as text, over JSON reads its escapes as
/// characters (the `t` of `\t` starts an email address, `\"` no longer ends a quoted password).
@Suite("one redaction pass per output")
struct OneRedactionPassTests {
    /// A password made at run time, so that nothing in the sources looks like one.
    static let password: String = {
        var random = SplitMix64(seed: 25)
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789")
        return "Pw" + String((0..<14).map { _ in alphabet.randomElement(using: &random)! })
    }()
    /// A git remote after a tab: no email, unless `\t` is read as `t` and a letter.
    static let remote = "origin\tgit@example.com:org/repo.git"
    /// Each half of `user:password` quoted on its own, as a shell joins them.
    static let quotedCurl = "curl -u \"admin\":\"\(password)\" https://api.internal"
    /// Shell variables, not a credential; the second pass swallowed the quote after them.
    static let variableCurl = "curl -u \"${USER}\":\"${PASS}\""

    /// A store whose request errors, session labels and tool arguments hold the values above and
    /// one email address.
    static func makeHostileStore(_ path: String) throws {
        try makeStore(path) { tracer, clock in
            let session = tracer.makeID()
            let start = clock.now()
            for turn in 0..<2 {
                let record = request(
                    tracer, session: session, at: start + Int64(turn) * 1_000_000_000,
                    error: turn == 0 ? remote : variableCurl)
                let call = tracer.makeID()
                tracer.record(
                    .toolCall(
                        ToolCallRecord(
                            toolCallID: call, requestID: record.requestID, sessionID: session,
                            ts: record.ts + 200_000_000, dur: 50_000_000, name: "shell",
                            argumentsFingerprint: "9f86d081884c7d65", argumentsBytes: 40, outputBytes: 100,
                            outcome: .ok)),
                    kind: .toolCall)
                let arguments = OrderedJSON.object([("cmd", .string(turn == 0 ? quotedCurl : remote))])
                tracer.record(
                    .payload(
                        PayloadRecord(
                            payloadID: tracer.makeID(), parentID: call, ts: record.ts, kind: .toolArguments,
                            text: arguments.serialized())),
                    kind: .payload)
            }
            clock.set(start + 3_000_000_000)
            tracer.record(
                .session(
                    SessionRecord(
                        sessionID: session, ts: start, dur: 3_000_000_000, label: "ana.lopez@example.org")),
                kind: .session)
        }
    }

    static func markers(_ text: String) -> Int {
        text.components(separatedBy: "[REDACTED:").count - 1
    }

    /// `redacted 3 values: ...` on standard error, as a number.
    static func printedCount(_ err: String) throws -> Int {
        let words = err.split(separator: " ")
        let index = try #require(words.firstIndex(of: "redacted"), "no count in \(err)")
        return try #require(Int(words[index + 1]), "no count in \(err)")
    }

    @Test func redactKeepsWhatTheJSONRedactorKept() throws {
        let input = [
            OrderedJSON.object([("text", .string(Self.remote))]),
            .object([("text", .string(Self.variableCurl))]),
            .object([("text", .string(Self.quotedCurl))]),
        ].map { $0.compact() }.joined(separator: "\n") + "\n"
        for arguments in [["redact"], ["redact", "--input-format", "jsonl"]] {
            let result = try runProgram(try builtBinary(), arguments, input: input)
            #expect(result.status == 0, "\(result.err)")
            let lines = result.out.split(separator: "\n").map(String.init)
            #expect(lines == [
                #"{"text":"origin\tgit@example.com:org/repo.git"}"#,
                #"{"text":"curl -u \"${USER}\":\"${PASS}\""}"#,
                #"{"text":"curl -u \"admin\":\"[REDACTED:basic_auth]\" https://api.internal"}"#,
            ])
            #expect(result.err == "redacted 1 value: 1 basic_auth\n")
        }
        let document = #"{"log": [{"text": "origin\tgit@example.com:org/repo.git"}, "ana.lopez@example.org"]}"#
        let result = try runProgram(try builtBinary(), ["redact"], input: document + "\n")
        #expect(result.out == #"{"log": [{"text": "origin\tgit@example.com:org/repo.git"}, "[REDACTED:email]"]}"# + "\n")
        #expect(result.err == "redacted 1 value: 1 email\n")
    }

    @Test func everyJSONOutputStaysValidAndCountsWhatChanged() throws {
        let binary = try builtBinary()
        let directory = try TemporaryDirectory()
        let a = directory.path("a.sqlite")
        let b = directory.path("b.sqlite")
        try Self.makeHostileStore(a)
        try Self.makeHostileStore(b)
        let baseline = directory.path("baseline.json")
        #expect(try runProgram(binary, ["baseline", "--out", baseline, a]).status == 0)

        // Subcommands that print JSON and no count: it parses, and holds the values kept whole.
        var documents: [String: String] = [:]
        for command in ["check", "summary", "timeline", "tools", "cache", "capped", "growth"] {
            let result = try runProgram(binary, [command, "--json", a])
            #expect(result.status == 0, "\(command): \(result.err)")
            documents[command] = result.out
        }
        for arguments in [["baseline", a], ["diff", "--json", a, b], ["diff", "--json", baseline, b]] {
            let result = try runProgram(binary, arguments)
            #expect(result.status == 0, "\(arguments): \(result.err)")
            documents[arguments.joined(separator: " ")] = result.out
        }
        let gate = try runProgram(binary, ["gate", "--baseline", baseline, "--min-samples", "1", "--json", b])
        documents["gate"] = gate.out
        for (label, text) in documents {
            #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil, "\(label): \(text)")
        }
        let timeline = try parseJSON(try #require(documents["timeline"]))
        let runs = try #require(timeline["runs"] as? [[String: Any]])
        let requests = try #require(runs.first?["requests"] as? [[String: Any]])
        #expect(requests.map { $0["error"] as? String } == [Self.remote, Self.variableCurl])
        let sessions = try #require(runs.first?["sessions"] as? [[String: Any]])
        #expect(sessions.map { $0["label"] as? String } == ["[REDACTED:email]"])

        // Exports print the count of record fields they redacted, the same for every format; JSON
        // Lines writes each field once, so there it is the number of markers too.
        var printed: [ExportFormat: Int] = [:]
        for format in ExportFormat.allCases {
            let result = try runProgram(binary, ["export", "--format", format.rawValue, a])
            #expect(result.status == 0, "\(format): \(result.err)")
            let json: [String]
            switch format {
            case .jsonl: json = result.out.split(separator: "\n").map(String.init)
            case .html:
                let open = #"<script type="application/json" id="trace-data">"#
                let data = try #require(result.out.components(separatedBy: open).dropFirst().first)
                json = [try #require(data.components(separatedBy: "</script>").first)]
            case .otlp, .perfetto: json = [result.out]
            }
            for text in json {
                #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil, "\(format): \(text)")
            }
            printed[format] = try Self.printedCount(result.err)
            if format == .jsonl {
                #expect(printed[format] == json.map(Self.markers).reduce(0, +), "\(result.err)")
            }
            #expect(!result.out.contains(Self.password), "\(format)")
        }
        #expect(Set(printed.values) == [2], "\(printed)")
        let jsonl = try runProgram(binary, ["export", "--format", "jsonl", a]).out
        let escapedCurl = #"curl -u \\\"admin\\\":\\\"[REDACTED:basic_auth]\\\" https://api.internal"#
        #expect(jsonl.contains(escapedCurl), "\(jsonl)")
        #expect(jsonl.contains(#"origin\\tgit@example.com:org/repo.git"#), "\(jsonl)")
    }
}
