import Foundation
import Redaction
import Testing

@Suite("JSON stays JSON")
struct JSONRedactionTests {
    static func parse(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    @Test func redactsValuesAndKeepsKeysNumbersAndLayout() throws {
        let json = """
            {
              "user": {"email": "ana@example.org", "password": "hunter2", "name": "Ana"},
              "api_key": "\(Samples.openAI)",
              "tokens": 128,
              "items": [{"card": "4111 1111 1111 1111", "qty": 2}],
              "note": "call me at +44 20 7946 0958"
            }
            """
        let result = Redactor.standard.redactJSON(json)
        #expect(result.counts == [.email: 1, .password: 1, .openaiKey: 1, .creditCard: 1, .phone: 1])
        let object = try #require(try Self.parse(result.text) as? [String: Any])
        let user = try #require(object["user"] as? [String: Any])
        #expect(user["email"] as? String == "[REDACTED:email]")
        #expect(user["password"] as? String == "[REDACTED:password]")
        #expect(user["name"] as? String == "Ana")
        #expect(object["api_key"] as? String == "[REDACTED:openai_key]")
        #expect(object["tokens"] as? Int == 128)
        #expect(object["note"] as? String == "call me at [REDACTED:phone]")
        #expect(result.text.hasPrefix("{\n  \"user\": {\"email\": \"[REDACTED:email]\""))
    }

    @Test func secretNamedFieldsAreRedactedWhole() throws {
        let json = #"""
            {"client_secret":"correct horse battery staple","Authorization":"Bearer abc.def",
             "api_keys":["k-1a2b3c4d","k-5e6f7g8h"],"credentials":{"pin":"1234","password":"p@ss word"},
             "Cookie":"sid=1; theme=dark","X-Amz-Signature":"0a1b2c","private_key":"-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n"}
            """#
        let result = Redactor.standard.redactJSON(json)
        #expect(result.counts == [
            .secret: 1, .bearerToken: 1, .apiKey: 2, .password: 1, .cookie: 1, .signature: 1,
            .privateKey: 1,
        ])
        let object = try #require(try Self.parse(result.text) as? [String: Any])
        #expect(object["Authorization"] as? String == "Bearer [REDACTED:bearer_token]")
        #expect(object["api_keys"] as? [String] == ["[REDACTED:api_key]", "[REDACTED:api_key]"])
        #expect((object["credentials"] as? [String: Any])?["pin"] as? String == "1234")
        #expect(object["private_key"] as? String == "[REDACTED:private_key]\n")
    }

    @Test func aNumberUnderASecretNameBecomesAString() throws {
        let result = Redactor.standard.redactJSON(#"{"password":123456,"pin_code":42,"max_tokens":256}"#)
        #expect(result.text == #"{"password":"[REDACTED:password]","pin_code":42,"max_tokens":256}"#)
        _ = try Self.parse(result.text)
    }

    @Test func extraSecretFieldNamesFromOptions() throws {
        let redactor = Redactor(options: .init(secretFieldNames: ["PIN"]))
        let result = redactor.redactJSON(#"{"credentials":{"pin":"1234"}}"#)
        #expect(result.text == #"{"credentials":{"pin":"[REDACTED:secret]"}}"#)
    }

    @Test func jsonNestedInAStringIsRedactedAndStaysValid() throws {
        let json = #"{"tool":"login","arguments":"{\"user\":\"ana\",\"password\":\"hunter2\"}"}"#
        let result = Redactor.standard.redactJSON(json)
        #expect(result.counts == [.password: 1])
        let object = try #require(try Self.parse(result.text) as? [String: String])
        let arguments = try #require(object["arguments"])
        let inner = try #require(try Self.parse(arguments) as? [String: String])
        #expect(inner == ["user": "ana", "password": "[REDACTED:password]"])
    }

    @Test func escapedTextInStringsIsDecodedBeforeScanning() throws {
        let json = #"{"log":"key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----\nmail \"ana@example.org\" caf\u00e9"}"#
        let result = Redactor.standard.redactJSON(json)
        #expect(result.counts == [.privateKey: 1, .email: 1])
        let object = try #require(try Self.parse(result.text) as? [String: String])
        #expect(object["log"] == "key:\n[REDACTED:private_key]\nmail \"[REDACTED:email]\" café")
    }

    @Test func aCardNumberTypedAsANumberBecomesAString() throws {
        let result = Redactor.standard.redactJSON(#"{"card":4111111111111111,"amount":1999,"ts":1718000000123}"#)
        #expect(result.text == #"{"card":"[REDACTED:credit_card]","amount":1999,"ts":1718000000123}"#)
        _ = try Self.parse(result.text)
    }

    @Test("top-level values and arrays", arguments: [
        (#"["ana@example.org", 1, true, null]"#, #"["[REDACTED:email]", 1, true, null]"#),
        (#""ana@example.org""#, #""[REDACTED:email]""#),
        (#"  {"a": [[["ana@example.org"]]]}  "#, #"  {"a": [[["[REDACTED:email]"]]]}  "#),
        (#"{}"#, #"{}"#),
    ])
    func topLevel(_ input: String, _ expected: String) throws {
        let result = Redactor.standard.redactJSON(input)
        #expect(result.text == expected)
        _ = try Self.parse(result.text)
    }

    @Test("text that is not JSON is redacted as text", arguments: [
        "password=hunter2 {",
        "{\"password\": \"hunter2\"",
        "{'password': 'hunter2'}",
        "password=hunter2",
    ])
    func fallsBackToText(_ input: String) {
        let result = Redactor.standard.redactJSON(input)
        #expect(result.counts == [.password: 1])
        #expect(!result.text.contains("hunter2"))
    }

    @Test func jsonLinesEachLineOnItsOwn() throws {
        let lines = [
            #"{"event":"request","prompt":"mail ana@example.org"}"#,
            #"{"event":"tool","arguments":{"api_key":"abcd1234efgh5678"}}"#,
            "not json: password=hunter2",
            "",
            #"{"event":"end","tokens":42}"#,
        ].joined(separator: "\n") + "\n"
        let result = Redactor.standard.redactJSONLines(lines)
        #expect(result.counts == [.email: 1, .apiKey: 1, .password: 1])
        let out = result.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(out.count == 6)
        _ = try Self.parse(String(out[0]))
        _ = try Self.parse(String(out[1]))
        #expect(out[2] == "not json: password=[REDACTED:password]")
        #expect(out[4] == #"{"event":"end","tokens":42}"#)
    }

    @Test func jsonLinesWithCRLF() {
        let result = Redactor.standard.redactJSONLines("{\"password\":\"a1\"}\r\n{\"x\":1}\r\n")
        #expect(result.text == "{\"password\":\"[REDACTED:password]\"}\r\n{\"x\":1}\r\n")
    }

    @Test func namedFieldValue() {
        #expect(Redactor.standard.redact("hunter2", field: "db.password").text == "[REDACTED:password]")
        #expect(Redactor.standard.redact("ana@example.org", field: "note").counts == [.email: 1])
        #expect(Redactor.standard.redact("Paris", field: "city").text == "Paris")
    }
}
