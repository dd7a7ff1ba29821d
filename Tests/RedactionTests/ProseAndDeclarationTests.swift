import Redaction
import Testing

/// Secrets named without an operator: in prose (`… is …`), as a declared variable's constructor
/// argument, beside a vendor's name or account id, in 1Password's key format, and under the word
/// for password in other languages.
@Suite("Prose, declarations, vendors and other languages")
struct ProseAndDeclarationTests {
    static let secrets: [Sensitive] = {
        var f = Fake(seed: 0x25D)
        let awsSecret = f.base64(40)
        let random = f.alnum(16)
        let hex = f.hex(32)
        let word = f.alnum(12)
        return [
            Sensitive(kind: "aws_secret_key", "my aws secret key is %", awsSecret),
            Sensitive(kind: "secret", "Your `STRIPE_KEY` is set to `%`.", random),
            Sensitive(kind: "api_key", "the api key is %, keep it", random),
            Sensitive(kind: "secret", "std::string secret(\"%\");", "Qx7#" + word),
            Sensitive(kind: "password", "const String password('%');", word),
            Sensitive(kind: "twilio_key", "Twilio auth for prod: '%'", hex),
            Sensitive(kind: "twilio_key", "client = Client(\"AC\(f.hex(32))\", \"%\")", hex),
            Sensitive(
                kind: "onepassword_secret_key", "kit: %",
                "A3-\(f.upperDigits(6))-\(f.upperDigits(11))-\(f.upperDigits(5))-\(f.upperDigits(5))-"
                    + f.upperDigits(5)),
            Sensitive(kind: "password", "contraseña=%", word),
            Sensitive(kind: "password", "mot_de_passe: %", word),
            Sensitive(kind: "password", "\u{043F}\u{0430}\u{0440}\u{043E}\u{043B}\u{044C}=%", word),
            Sensitive(kind: "password", "\u{5BC6}\u{7801}\u{FF1A}%", word),
            Sensitive(kind: "password", "\u{30D1}\u{30B9}\u{30EF}\u{30FC}\u{30C9}\u{FF1A}%", word),
            Sensitive(kind: "password", "wachtwoord = %", word),
        ]
    }()

    @Test("found", arguments: secrets)
    func found(_ sample: Sensitive) { TruePositiveTests.check(sample) }

    @Test func onlyTheValueGoes() {
        #expect(Redactor.standard.redact("\u{5BC6}\u{7801}\u{FF1A}Qx7vR2mK9pL4 \u{3002}").text
            == "\u{5BC6}\u{7801}\u{FF1A}[REDACTED:password] \u{3002}")
        #expect(Redactor.standard.redact("my aws secret key is wJalrXUtnFEMIK7MDENGbPxRfiCYzQ8vLr2pWm12.").text
            == "my aws secret key is [REDACTED:aws_secret_key].")
    }

    static let harmless = [
        "the password is expired",
        "The token is valid until noon",
        "This is fine",
        "return secret(\"db/prod\")",
        "label = translate(\"password\", \"Passwort\")",
        "commit 4c1d9e7f2a8b3c6d5e0f9a1b2c3d4e5f on main",
        "cache_key=4c1d9e7f2a8b3c6d5e0f9a1b2c3d4e5f",
        "A3-ABC-DEF",
        "\u{5BC6}\u{7801}\u{FF1A}\u{FF08}\u{7A7A}\u{FF09}",
    ]

    @Test("left alone", arguments: harmless)
    func stays(_ line: String) { FalsePositiveTests.unchanged(line) }
}
