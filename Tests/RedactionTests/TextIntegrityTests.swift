import Foundation
import Redaction
import Testing

/// A replacement never breaks the text around it.
@Suite("Text around a replacement")
struct TextIntegrityTests {
    /// Brackets and quotes of a line, in order, outside the replaced values: what the syntax of
    /// a code line rests on.
    static func skeleton(_ text: String) -> String {
        let marker = /\[REDACTED:[a-z0-9_]+\]/
        return String(text.replacing(marker, with: "").filter { "()[]{}\"'`<>".contains($0) })
    }

    @Test("a code line keeps its brackets and quotes", arguments: [
        "client = OpenAI(api_key=\"sk-proj-%\")",
        "f(password=%)",
        "connect(user=\"app\", password=\"%\", host=db)",
        "{password=%}",
        "[token=%]",
        "cfg = {\"token\": \"%\", \"n\": 2}",
        "login(\"ana\", password='%')",
        "<password>%</password>",
        "curl -u 'admin:%' https://x",
    ])
    func codeLine(_ template: String) {
        var f = Fake(seed: 1)
        let line = template.replacingOccurrences(of: "%", with: "Xq" + f.alnum(30))
        let redacted = Redactor.standard.redact(line)
        #expect(redacted.didRedact, "\(redacted.text)")
        #expect(Self.skeleton(redacted.text) == Self.skeleton(line), "\(redacted.text)")
    }

    @Test func everyEvaluationLineKeepsItsSkeletonAndStaysValidJSON() throws {
        for line in EvaluationSet.secretLines() {
            let redacted = Redactor.standard.redact(line.text).text
            // A secret with brackets of its own goes with them: compare without the secret.
            let expected = Self.skeleton(line.text.replacingOccurrences(of: line.secret, with: ""))
            #expect(Self.skeleton(redacted) == expected, "\(line.text) -> \(redacted)")
            let document = try JSONSerialization.data(withJSONObject: ["text": line.text])
            let json = Redactor.standard.redactJSON(String(decoding: document, as: UTF8.self)).text
            let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String]
            #expect(parsed?["text"]?.contains(line.secret) == false, "\(json)")
        }
    }
}
