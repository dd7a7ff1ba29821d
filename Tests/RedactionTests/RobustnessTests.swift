import Foundation
import Redaction
import Testing

/// Every scanner reads ahead and behind: cut-off input and random noise must not trap, and what
/// redaction promises must still hold on them: redacting again changes nothing, text without
/// findings comes back as it was and text with findings shows their markers, valid JSON stays
/// valid JSON, text that is not JSON is redacted as text, and a key planted in noise never
/// survives.
@Suite("Robustness")
struct RobustnessTests {
    /// What holds for any `input` and its redaction `result`: markers where something was found,
    /// the input as it was where nothing was, and a second pass that changes nothing.
    static func expectInvariants(
        of input: String, _ result: RedactionResult, redactingAgain: (String) -> RedactionResult,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        if result.didRedact {
            #expect(result.text.contains("[REDACTED:"), "\(input)", sourceLocation: sourceLocation)
        } else {
            #expect(
                result.text == input, "changed, with nothing found: \(input)", sourceLocation: sourceLocation)
        }
        let again = redactingAgain(result.text)
        #expect(again.text == result.text, "not idempotent: \(input)", sourceLocation: sourceLocation)
        #expect(again.counts.isEmpty, "found again: \(input)", sourceLocation: sourceLocation)
    }

    /// `text` as a JSON string's contents, escaped as the JSON writer escapes it.
    static func escaped(_ text: String) throws -> String {
        let array = String(decoding: try JSONSerialization.data(withJSONObject: [text]), as: UTF8.self)
        return String(array.dropFirst(2).dropLast(2))
    }

    static func isJSON(_ text: String) -> Bool {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) != nil
    }

    /// Each sample cut at every byte, from the front and from the back, as text; and its JSON
    /// document cut at every byte: cut short it is no longer JSON and is redacted as text, whole
    /// it stays JSON without the secret. (A secret cut off from its context, `postgres://u:pw`
    /// without `@host`, may stay: the cut text no longer says it is one.)
    @Test func everyTruncationOfEverySample() throws {
        let redactor = Redactor.standard
        for sample in EmbeddedInJSONTests.all {
            let bytes = Array(sample.text.utf8)
            for length in 0...bytes.count {
                let prefix = String(decoding: bytes[0..<length], as: UTF8.self)
                Self.expectInvariants(of: prefix, redactor.redact(prefix), redactingAgain: redactor.redact)
                let suffix = String(decoding: bytes[(bytes.count - length)...], as: UTF8.self)
                Self.expectInvariants(of: suffix, redactor.redact(suffix), redactingAgain: redactor.redact)
            }

            let document = String(
                decoding: try JSONSerialization.data(withJSONObject: ["text": sample.text, "tokens": 42]),
                as: UTF8.self)
            let documentBytes = Array(document.utf8)
            // Where the sample ends as the JSON writer escaped it (`/` as `\/`): a cut past that
            // point holds the whole sample, and its secret, escaped, must not survive.
            let escapedText = try Self.escaped(sample.text), escapedSecret = try Self.escaped(sample.secret)
            let textEndIndex = try #require(document.range(of: escapedText)).upperBound
            let textEnd = document.utf8.distance(from: document.startIndex, to: textEndIndex)
            for length in 0...documentBytes.count {
                let cut = String(decoding: documentBytes[0..<length], as: UTF8.self)
                let redacted = redactor.redactJSON(cut)
                Self.expectInvariants(of: cut, redacted, redactingAgain: redactor.redactJSON)
                if length < documentBytes.count {
                    #expect(!Self.isJSON(cut))
                    #expect(redacted == redactor.redact(cut), "cut-off JSON not redacted as text: \(cut)")
                    if length >= textEnd {
                        #expect(!redacted.text.contains(escapedSecret), "\(sample.kind) survived in \(cut)")
                    }
                } else {
                    let object = try #require(
                        try JSONSerialization.jsonObject(with: Data(redacted.text.utf8)) as? [String: Any])
                    #expect(object["tokens"] as? Int == 42)
                    let text = try #require(object["text"] as? String)
                    #expect(!text.contains(sample.secret), "\(sample.kind) survived in \(text)")
                }
            }
        }
    }

    static let pieces = [
        "sk-", "sk-ant-", "AKIA", "AIza", "ghp_", "eyJ", "Bearer ", "Basic ", "-----BEGIN ", "PRIVATE KEY-----",
        "-----END ", "password", "token", "=", ":", "://", "@", ".", "\"", "'", "\\", "\\\"", "{", "}", "[",
        "]", " ", "\n", "+", "(", ")", "-", "4111", "1111", "0132", "555", "DE89", "3704", "a", "Z", "9", "é",
        "€", "Cookie: ", "key", "x", "hooks.slack.com/services/", "?", "&", "sig=", "\\/", "\\u0040",
        "\\u002f", "postgres", "[REDACTED:bearer_token]", "[REDACTED:", "REDACTED",
    ]

    /// Noise made of the pieces scanners look for (escapes and markers among them), with a provider
    /// key planted in it between spaces: the key never survives, as text or inside JSON, the JSON
    /// keeps its shape, and redacting the result again changes nothing.
    @Test func randomNoiseWithAPlantedKey() throws {
        let redactor = Redactor.standard
        // The keys known by their own shape, without a field name or a URL around them.
        let keys = TruePositiveTests.providerKeys.map(\.secret).filter {
            !redactor.redact(" \($0) ").text.contains($0)
        }
        #expect(keys.count >= 15)
        var rng = Fake(seed: 42)
        for _ in 0..<3000 {
            func noise() -> String {
                (0..<Int.random(in: 0...20, using: &rng)).map { _ in Self.pieces.randomElement(using: &rng)! }
                    .joined()
            }
            let planted = keys.randomElement(using: &rng)!
            let text = noise() + " " + planted + " " + noise()

            let redacted = redactor.redact(text)
            Self.expectInvariants(of: text, redacted, redactingAgain: redactor.redact)
            #expect(!redacted.text.contains(planted), "\(planted) survived in \(text)")

            let document: [String: Any] = ["v": text, "password": text, "n": [text, 7]]
            let data = try JSONSerialization.data(withJSONObject: document)
            let json = String(decoding: data, as: UTF8.self)
            let redactedJSON = redactor.redactJSON(json)
            Self.expectInvariants(of: json, redactedJSON, redactingAgain: redactor.redactJSON)
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(redactedJSON.text.utf8)) as? [String: Any],
                "\(redactedJSON.text)")
            #expect(Set(object.keys) == ["v", "password", "n"])
            let values = try #require(object["n"] as? [Any])
            #expect(values.count == 2 && values.last as? Int == 7)
            for value in [object["v"], object["password"], values.first] {
                let string = try #require(value as? String)
                #expect(!string.contains(planted), "\(planted) survived in \(string)")
                #expect(string != text, "left as it was: \(string)")
            }
        }
    }
}
