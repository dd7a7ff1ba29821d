import Foundation
import Redaction
import Testing

@Suite("Custom rules and rules files")
struct RuleFileTests {
    static let rulesText = """
        # Company identifiers
        employee_id\tEMP-[0-9]{6}\ttrigger=EMP-

        card_ref\tcard=([0-9 ]{13,23})\tvalidator=luhn\ttrigger=card=
        {"kind": "ticket", "pattern": "TCK-[0-9]{6}", "triggers": ["TCK-"]}
        {"kind": "internal_host", "pattern": "[a-z0-9-]+\\\\.corp\\\\.internal"}
        """

    @Test func parsesBothLineFormats() throws {
        let rules = try RedactionRule.parse(Self.rulesText, source: "rules.tsv")
        #expect(rules.map(\.kind.rawValue) == ["employee_id", "card_ref", "ticket", "internal_host"])
        #expect(rules.map(\.name) == ["rules.tsv:2", "rules.tsv:4", "rules.tsv:5", "rules.tsv:6"])
        #expect(rules[1].validator?.name == "luhn")
        #expect(rules[3].pattern == #"[a-z0-9-]+\.corp\.internal"#)
        #expect(rules.allSatisfy { !$0.isBuiltIn })
    }

    @Test func customRulesRunAlongsideTheBuiltIns() throws {
        let redactor = Redactor(rules: RedactionRule.builtIn + (try RedactionRule.parse(Self.rulesText)))
        let result = redactor.redact(
            "EMP-004211 opened TCK-000042 on build-7.corp.internal, card=4111 1111 1111 1111, "
                + "card=4111 1111 1111 1112, mail ana@example.org")
        #expect(result.text == "[REDACTED:employee_id] opened [REDACTED:ticket] on [REDACTED:internal_host], "
                + "card=[REDACTED:credit_card], card=4111 1111 1111 1112, mail [REDACTED:email]")
        #expect(result.counts == [
            RedactionKind(rawValue: "employee_id"): 1, RedactionKind(rawValue: "ticket"): 1,
            RedactionKind(rawValue: "internal_host"): 1, .creditCard: 1, .email: 1,
        ])
    }

    @Test func aCaptureGroupKeepsTheRestOfTheMatch() throws {
        let rule = try RedactionRule(kind: "order_secret", pattern: #"order_pin=(\d{4})"#)
        let result = Redactor(rules: [rule]).redact("order_pin=1234 ok")
        #expect(result.text == "order_pin=[REDACTED:order_secret] ok")
    }

    @Test func customRulesApplyInsideJSONStrings() throws {
        let rule = try RedactionRule(kind: "ticket", pattern: "TCK-[0-9]{6}", triggers: ["TCK-"])
        let result = Redactor(rules: [rule]).redactJSON(#"{"title":"see TCK-000042 – ünïcödé"}"#)
        #expect(result.text == #"{"title":"see [REDACTED:ticket] – ünïcödé"}"#)
    }

    @Test func builtInRulesCanBeSwitchedOff() {
        let redactor = Redactor(rules: RedactionRule.builtIn.filter { $0.kind != .email && $0.kind != .phone })
        let result = redactor.redact("ana@example.org +44 20 7946 0958 \(Samples.openAI)")
        #expect(result.counts == [.openaiKey: 1])
        #expect(result.text.hasPrefix("ana@example.org +44 20 7946 0958 "))
        #expect(Redactor(rules: []).redact("password=hunter2").counts.isEmpty)
    }

    @Test func loadsAFile() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("redaction-rules-\(UUID().uuidString).txt").path
        try Self.rulesText.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let rules = try RedactionRule.load(contentsOf: path)
        #expect(rules.count == 4)
        #expect(rules[0].name == "\(path):2")
    }

    @Test func aMissingFileSaysWhichPath() {
        #expect {
            try RedactionRule.load(contentsOf: "/nonexistent/rules.txt")
        } throws: { error in
            guard case .unreadableFile(let path, _) = error as? RedactionRule.RuleError else { return false }
            return path == "/nonexistent/rules.txt"
        }
    }

    @Test("a bad rule is reported with its line number", arguments: [
        ("ok\tfoo\nbad\t(unclosed", 2, "invalid pattern"),
        ("# comment\n\nno tab here", 3, "expected kind<TAB>pattern"),
        ("Bad-Kind\tfoo", 1, "invalid kind"),
        ("k\tfoo\tvalidator=crc32", 1, "unknown validator 'crc32'"),
        ("k\tfoo\tcolour=blue", 1, "unknown option"),
        ("k\tfoo\n{\"kind\": \"x\", \"pattern\": ", 2, "not a JSON object"),
        ("{\"kind\": \"x\"}", 1, "missing string field 'pattern'"),
        ("{\"kind\": \"x\", \"pattern\": \"a\", \"colour\": 1}", 1, "unknown field 'colour'"),
        ("{\"kind\": \"x\", \"pattern\": \"[\"}", 1, "invalid pattern"),
    ])
    func badRule(_ text: String, _ line: Int, _ reason: String) {
        #expect {
            try RedactionRule.parse(text, source: "custom.rules")
        } throws: { error in
            guard case .invalidLine(let path, let errorLine, let message) = error as? RedactionRule.RuleError
            else { return false }
            return path == "custom.rules" && errorLine == line && message.contains(reason)
        }
    }

    @Test func errorDescriptionNamesFileAndLine() {
        let error = RedactionRule.RuleError.invalidLine(path: "r.txt", line: 7, reason: "invalid kind 'X'")
        #expect(error.description == "r.txt:7: invalid kind 'X'")
    }

    @Test("a pattern that can take exponential time is refused when the rules are read", arguments: [
        "(a+)+$", "(a|aa)+$", "(a*)*\\1b", "(\\w+\\s?)*x", "((ab)+c)+", "(?:x{1,3})+y", "(?<n>a)\\k<n>",
        "([a-z]+)*@", "(a|b|ab)*c",
    ])
    func catastrophicPatternIsRefused(_ pattern: String) {
        #expect {
            try RedactionRule(kind: "redos", pattern: pattern)
        } throws: { error in
            guard case .invalidPattern(_, let reason) = error as? RedactionRule.RuleError else { return false }
            return reason.contains("exponential time")
        }
    }

    @Test("patterns of the linear subset still load", arguments: [
        "EMP-[0-9]{6}", "card=([0-9 ]{13,23})", "(ab)+", "[(|+]+x", "(?:foo|bar)=[A-Za-z0-9]{8,}", "a{2}(bc){2}",
        "(ab?)+", "\\(a+\\)+", "(?i)secret_[a-z]+", "x(?=a+)",
    ])
    func linearPatternLoads(_ pattern: String) throws {
        _ = try RedactionRule(kind: "fine", pattern: pattern)
    }

    @Test func aBadPatternIsExplainedInOurOwnWords() {
        #expect {
            try RedactionRule(kind: "bad", pattern: "(unclosed")
        } throws: { error in
            "\(error)" == "invalid pattern '(unclosed': it is not a valid regular expression"
        }
    }
}
