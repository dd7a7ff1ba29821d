import Foundation
import TestSupport
import Testing

@testable import TraceAnalysis
@testable import TraceReportCLI

/// `trace-report redact`, through the built binary.
@Suite("trace-report redact")
struct RedactCommandTests {
    static let key = "sk-proj-Xq3vT9bK2mN8pL4rW7yZ1aC5dF6gH0jJ"

    @Test func standardInputToStandardOutput() throws {
        let input = "12:00 INFO user ana@example.org logged in\n12:01 DEBUG key=\(Self.key)\n"
        let result = try runProgram(try builtBinary(), ["redact"], input: input)
        #expect(result.status == 0)
        #expect(
            result.out
                == "12:00 INFO user [REDACTED:email] logged in\n12:01 DEBUG key=[REDACTED:openai_key]\n")
        #expect(result.err == "redacted 2 values: 1 email, 1 openai_key\n")
    }

    @Test func aFileOfJSONLinesStaysValidJSONPerLine() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("log.jsonl")
        let lines = [
            #"{"msg":"login","user":"ana@example.org","n":1}"#,
            #"{"msg":"call","headers":{"Authorization":"Bearer abcdefghijklmnopqrstuvwxyz012345"},"password":"hunter2"}"#,
            #"{"msg":"fine"}"#,
            "",
            #"["nested","\#(Self.key)"]"#,
        ]
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let result = try runProgram(try builtBinary(), ["redact", path])
        #expect(result.status == 0, "\(result.err)")
        let out = result.out.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(out.count == lines.count + 1)
        #expect(out[3].isEmpty)
        for line in out where !line.isEmpty {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "not JSON: \(line)")
        }
        #expect(!result.out.contains("ana@example.org"))
        #expect(!result.out.contains("hunter2"))
        #expect(!result.out.contains(Self.key))
        #expect(out[2] == #"{"msg":"fine"}"#)
        #expect(result.err.hasPrefix("redacted 4 values: "))
    }

    @Test func theReportListsKindsAndLinesButNoValue() throws {
        let input = "12:00 ok\n12:01 user ana@example.org\n12:02 key=\(Self.key) by bob@example.org\n"
        let result = try runProgram(try builtBinary(), ["redact", "--report"], input: input)
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out == """
            redacted 3 values: 2 email, 1 openai_key
            email       2  lines 2, 3
            openai_key  1  line 3

            """)
        for value in ["ana@example.org", "bob@example.org", Self.key] { #expect(!result.out.contains(value)) }

        let json = try runProgram(try builtBinary(), ["redact", "--report", "--json"], input: input)
        #expect(json.status == 0, "\(json.err)")
        let object = try parseJSON(json.out)
        #expect(object["redacted"] as? Int == 3)
        let kinds = try #require(object["kinds"] as? [[String: Any]])
        #expect(kinds.map { $0["kind"] as? String } == ["email", "openai_key"])
        #expect(kinds.map { $0["lines"] as? [Int] } == [[2, 3], [3]])
        for value in ["ana@example.org", "bob@example.org", Self.key] { #expect(!json.out.contains(value)) }
    }

    @Test func modesCanBeForcedAndDetected() {
        #expect(RedactCommand.detect("{\n  \"a\": 1\n}\n") == .json)
        #expect(RedactCommand.detect("{\"a\": 1}\n{\"b\": 2}\n") == .jsonl)
        #expect(RedactCommand.detect("{\"a\": 1}\nplain text\n") == .text)
        #expect(RedactCommand.detect("") == .text)
    }

    @Test func aPrettyJSONDocumentStaysValid() throws {
        let input = "{\n  \"api_key\": \"abc123def456ghi789\",\n  \"note\": \"mail ana@example.org\"\n}\n"
        for arguments in [["redact"], ["redact", "--input-format", "json"]] {
            let result = try runProgram(try builtBinary(), arguments, input: input)
            #expect(result.status == 0)
            let object = try parseJSON(result.out)
            #expect(object["note"] as? String == "mail [REDACTED:email]")
            #expect((object["api_key"] as? String)?.hasPrefix("[REDACTED:") == true)
        }
        let text = try runProgram(try builtBinary(), ["redact", "--input-format=text"], input: "to ana@example.org\n")
        #expect(text.out == "to [REDACTED:email]\n")
    }

    @Test func customRulesFile() throws {
        let directory = try TemporaryDirectory()
        let rules = directory.path("rules.tsv")
        try "employee_id\tEMP-[0-9]{6}\ttrigger=EMP-\n{\"kind\": \"ticket\", \"pattern\": \"TCK-[0-9]{4}\"}\n"
            .write(toFile: rules, atomically: true, encoding: .utf8)
        let result = try runProgram(
            try builtBinary(), ["redact", "--rules", rules],
            input: "EMP-123456 opened TCK-0042 for ana@example.org\n")
        #expect(result.status == 0)
        #expect(result.out == "[REDACTED:employee_id] opened [REDACTED:ticket] for [REDACTED:email]\n")
        #expect(result.err == "redacted 3 values: 1 email, 1 employee_id, 1 ticket\n")
    }

    @Test func badInputExitsTwoWithOneSentence() throws {
        let binary = try builtBinary()
        let directory = try TemporaryDirectory()
        let rules = directory.path("bad.rules")
        try "# comment\n\nBad Kind\tx+\n".write(toFile: rules, atomically: true, encoding: .utf8)
        let binaryFile = directory.path("blob.bin")
        try Data([0xff, 0xfe, 0x00, 0xc3]).write(to: URL(fileURLWithPath: binaryFile))
        let cases: [([String], String)] = [
            (["redact", "--rules", rules], "bad rules file \(rules):3: invalid kind 'Bad Kind'"),
            (["redact", "--rules", directory.path("none")], "cannot read rules file"),
            (["redact", directory.path("missing.log")], "missing.log does not exist"),
            (["redact", directory.url.path], "is a directory"),
            (["redact", binaryFile], "is not UTF-8 text"),
            (["redact", "--input-format", "yaml"], "--input-format takes json, jsonl or text, not 'yaml'"),
            (["redact", "--json"], "--json writes the --report as JSON; add --report"),
            (["redact", "--jsonl"], "unknown option --jsonl"),
            (["redact", "a", "b"], "one file at a time"),
        ]
        for (arguments, message) in cases {
            let result = try runProgram(binary, arguments, input: "ana@example.org\n")
            #expect(result.status == 2, "\(arguments)")
            #expect(result.out.isEmpty)
            #expect(result.err.contains(message), "\(arguments): \(result.err)")
            #expect(result.err.filter { $0 == "\n" }.count == 1)
        }
    }

    /// JSON Lines beyond one read (4 MiB) are redacted a chunk at a time; the result is the one a
    /// whole-file pass gives, line breaks and all, with one count for the whole input.
    @Test func largeJSONLinesStreamAsTheyWouldWhole() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("big.jsonl")
        var lines: [String] = []
        for index in 0..<60_000 {
            let user = index % 100 == 0 ? "ana\(index)@example.org" : "ana"
            lines.append(#"{"n":\#(index),"user":"\#(user)","args":"{\"q\": \"origin\\tgit@example.com:o/r.git\"}"}"#)
        }
        let input = lines.joined(separator: "\n") + "\n"
        #expect(input.utf8.count > RedactCommand.chunkBytes)
        try input.write(toFile: path, atomically: true, encoding: .utf8)
        for arguments in [["redact", path], ["redact", "--input-format", "jsonl", path]] {
            let result = try runProgram(try builtBinary(), arguments)
            #expect(result.status == 0, "\(result.err)")
            let expected = lines.enumerated().map { index, line in
                index % 100 == 0 ? line.replacingOccurrences(of: "ana\(index)@example.org", with: "[REDACTED:email]") : line
            }.joined(separator: "\n") + "\n"
            #expect(result.out == expected)
            #expect(result.err == "redacted 600 values: 600 email\n")
        }
    }

    @Test func aLargeInputPassesThroughWhole() throws {
        let line = "2026-11-30T12:00:00Z INFO request id=42 took 120 ms for bob@example.com\n"
        let input = String(repeating: line, count: 20_000)
        let result = try runProgram(try builtBinary(), ["redact"], input: input)
        #expect(result.status == 0)
        #expect(result.out == input.replacingOccurrences(of: "bob@example.com", with: "[REDACTED:email]"))
        #expect(result.err == "redacted 20000 values: 20000 email\n")
    }
}
