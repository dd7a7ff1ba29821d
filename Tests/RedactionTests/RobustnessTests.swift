import Foundation
import Redaction
import Testing

/// Every scanner reads ahead and behind: cut-off input and random noise must neither trap nor
/// break JSON.
@Suite("Robustness")
struct RobustnessTests {
    @Test func everyTruncationOfEverySample() {
        for sample in EmbeddedInJSONTests.all {
            let bytes = Array(sample.text.utf8)
            for length in 0...bytes.count {
                let text = String(decoding: bytes[0..<length], as: UTF8.self)
                _ = Redactor.standard.redact(text)
                _ = Redactor.standard.redactJSON(text)
                let suffix = String(decoding: bytes[(bytes.count - length)...], as: UTF8.self)
                _ = Redactor.standard.redact(suffix)
            }
        }
    }

    static let pieces = [
        "sk-", "sk-ant-", "AKIA", "AIza", "ghp_", "eyJ", "Bearer ", "Basic ", "-----BEGIN ", "PRIVATE KEY-----",
        "-----END ", "password", "token", "=", ":", "://", "@", ".", "\"", "'", "\\", "\\\"", "{", "}", "[", "]",
        " ", "\n", "+", "(", ")", "-", "4111", "1111", "0132", "555", "DE89", "3704", "a", "Z", "9", "é", "€",
        "Cookie: ", "key", "x", "hooks.slack.com/services/", "?", "&", "sig=",
    ]

    @Test func randomNoiseNeverTrapsAndJSONStaysValid() throws {
        var rng = Fake(seed: 42)
        for _ in 0..<3000 {
            let count = Int.random(in: 0...40, using: &rng)
            let text = (0..<count).map { _ in Self.pieces.randomElement(using: &rng)! }.joined()
            _ = Redactor.standard.redact(text)
            let data = try JSONSerialization.data(withJSONObject: ["v": text, "password": text, "n": [text]])
            let redacted = Redactor.standard.redactJSON(String(decoding: data, as: UTF8.self))
            _ = try JSONSerialization.jsonObject(with: Data(redacted.text.utf8))
        }
    }
}
