import Redaction
import Testing

/// Secrets in shapes the scanner used to miss: comparisons, environment defaults, `.env` lines
/// whose values hold `.`, `&` or `(`, values cut short by `...`, AWS key ids without a digit,
/// tokens right after a percent-escape, and a service account's `private_key_id`.
@Suite("Shapes once missed")
struct MissedShapesTests {
    static let secrets: [Sensitive] = {
        var f = Fake(seed: 0x25C)
        let punctuated = "Qx" + f.alnum(6) + "#" + f.digits(2) + "!" + f.alnum(4)
        let word = "Plum.Harbor" + f.digits(4)
        let ampersand = f.alnum(6) + "&" + f.alnum(6)
        let parens = f.lowerDigits(2) + "(&" + f.lowerDigits(4) + "%" + f.lowerDigits(2) + "*" + f.alnum(5)
        let letters = "AKIA" + f.from(Fake.upperLetters, 16)
        let github = f.checksummed("ghp_")
        let openAI = "sk-proj-" + f.base64url(40)
        return [
            Sensitive(kind: "password", "if (db_pass !== \"%\") {", punctuated),
            Sensitive(kind: "password", "if (db_pass != '%') {", punctuated),
            Sensitive(kind: "api_key", "os.getenv(\"API_TOKEN\", \"%\")", f.alnum(18)),
            Sensitive(kind: "password", "SMTP_PASSWORD=%", word),
            Sensitive(kind: "password", "export DB_PASSWORD=%", ampersand),
            Sensitive(kind: "secret", "SECRET_KEY=%", parens),
            Sensitive(kind: "password", "Server=db;password=%...", "Tr0ub4dor" + f.digits(3)),
            Sensitive(kind: "aws_access_key", "aws_access_key_id = %", letters),
            // Written out: `%` in a template is where the secret goes.
            Sensitive("q=%22" + github, "github_token", github),
            Sensitive("key%3D" + openAI, "openai_key", openAI),
            Sensitive(kind: "private_key", "\"private_key_id\": \"%\",", f.hex(40)),
        ]
    }()

    @Test("found", arguments: secrets)
    func found(_ sample: Sensitive) { TruePositiveTests.check(sample) }

    @Test func theWholeValueGoesAndTheLineStays() {
        #expect(Redactor.standard.redact("DB_PASSWORD=Qx7vR2&mK9pL\nnext").text
            == "DB_PASSWORD=[REDACTED:password]\nnext")
        #expect(Redactor.standard.redact("if (pwd !== \"Qx7#vR2!mK9pL4\") { deny() }").text
            == "if (pwd !== \"[REDACTED:password]\") { deny() }")
        #expect(Redactor.standard.redact("uri=a%22ghp_x%2Fy").text == "uri=a%22ghp_x%2Fy")
    }

    static let harmless = [
        "OPENAI_API_KEY=sk-...",
        "export AWS_SECRET_ACCESS_KEY=",
        "PASSWORD=${DB_PASSWORD:-}",
        "if (password != confirm) {",
        "os.getenv(\"PASSWORD\", \"default\")",
        "AKIA ABCDEFGHIJKLMNOP",
        "progress 100%25 done",
    ]

    @Test("left alone", arguments: harmless)
    func stays(_ line: String) { FalsePositiveTests.unchanged(line) }
}
