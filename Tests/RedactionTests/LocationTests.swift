import Redaction
import Testing

/// `Redactor.locate`: the kind and line of each value a redaction replaces.
@Suite("Where values were replaced")
struct LocationTests {
    static let key = "sk-proj-" + {
        var f = Fake(seed: 77)
        return f.base64url(40)
    }()

    @Test func textLines() {
        let text = "ok\nmail ana@example.org\n\nkey \(Self.key) and bob@example.org\n"
        #expect(Redactor.standard.locate(text, as: .text) == [
            RedactionLocation(kind: .email, line: 2), RedactionLocation(kind: .openaiKey, line: 4),
            RedactionLocation(kind: .email, line: 4),
        ])
    }

    @Test func aPrettyJSONDocument() {
        let json = "{\n  \"user\": \"ana\",\n  \"password\": \"hunter2x\",\n  \"n\": 4111111111111111\n}"
        #expect(Redactor.standard.locate(json, as: .json) == [
            RedactionLocation(kind: .password, line: 3), RedactionLocation(kind: .creditCard, line: 4),
        ])
    }

    @Test func jsonLinesAndALineThatIsNotJSON() {
        let lines = "{\"a\":\"ana@example.org\"}\nplain \(Self.key)\n\n{\"token\":\"\(Self.key)\"}\n"
        #expect(Redactor.standard.locate(lines, as: .jsonLines) == [
            RedactionLocation(kind: .email, line: 1), RedactionLocation(kind: .openaiKey, line: 2),
            RedactionLocation(kind: .openaiKey, line: 4),
        ])
    }

    @Test("as many locations as replacements", arguments: EvaluationSet.secretLines().prefix(60).map(\.text))
    func sameCountAsRedact(_ text: String) {
        #expect(Redactor.standard.locate(text, as: .text).count == Redactor.standard.redact(text).total)
    }
}
