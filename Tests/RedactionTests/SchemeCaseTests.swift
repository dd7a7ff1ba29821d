import Redaction
import Testing

/// Authorization schemes in free text whatever their case, and `curl -u` with each half of
/// `user:password` quoted on its own.
@Suite("Schemes in any case, quoted curl credentials")
struct SchemeCaseTests {
    static let secrets: [Sensitive] = {
        var f = Fake(seed: 0x25B)
        let token = f.alnum(21)
        let password = "Pw" + f.alnum(12)
        return [
            Sensitive(kind: "bearer_token", "sent bearer % to the proxy", token),
            Sensitive(kind: "bearer_token", "BEARER %", token),
            Sensitive(kind: "bearer_token", "header was bEaReR %", token),
            Sensitive(kind: "basic_auth", "retrying with basic dXNlcjpwYXNzd29yZA==", "dXNlcjpwYXNzd29yZA=="),
            Sensitive(kind: "basic_auth", "curl -u \"admin\":\"%\" https://api.internal", password),
            Sensitive(kind: "basic_auth", "curl -u 'ops':'%' https://x", password),
            Sensitive(kind: "basic_auth", "curl -u \"deploy\":% https://x", password),
        ]
    }()

    @Test("found", arguments: secrets)
    func found(_ sample: Sensitive) { TruePositiveTests.check(sample) }

    @Test func lowercaseBearerIsReplacedExactly() {
        #expect(Redactor.standard.redact("auth: bearer abcdef1234567890XYZ ok").text
            == "auth: bearer [REDACTED:bearer_token] ok")
        #expect(Redactor.standard.redact("sent bearer abcdef1234567890XYZ ok").text
            == "sent bearer [REDACTED:bearer_token] ok")
        #expect(Redactor.standard.redact("curl -u \"admin\":\"Qz8vLr2pWm4x\" https://x").text
            == "curl -u \"admin\":\"[REDACTED:basic_auth]\" https://x")
    }

    static let harmless = [
        "curl -u \"${USER}\":\"${PASS}\"",
        "curl -u \"$USER\":\"$PASS\" https://api.example.com",
        "curl -u \"<user>\":\"<password>\" https://api.example.com",
        "the bearer of bad news",
        "bot 12 says hi",
        "basic usage: run it",
    ]

    @Test("left alone", arguments: harmless)
    func stays(_ line: String) { FalsePositiveTests.unchanged(line) }
}

/// JSON nested in a JSON string keeps its escapes as two characters: `\t` before an address is
/// the escape's `t`, never the start of the address.
@Suite("Escapes before an address")
struct EscapeBeforeAddressTests {
    @Test func nestedJSONKeepsItsRemote() {
        let line = #"{"args": "{\"q\": \"origin\\tgit@example.com:org/repo.git\"}"}"#
        #expect(Redactor.standard.redactJSON(line).text == line)
        #expect(Redactor.standard.redact(#"path C:\temp\nana@example.org"#).text == #"path C:\temp\n[REDACTED:email]"#)
    }
}
