import Foundation
import Redaction
import Testing

/// A text holding one sensitive value, the kind it must be reported as, and the value itself,
/// which must be gone from the output.
struct Sensitive: Sendable, CustomTestStringConvertible {
    let text: String
    let kind: String
    let secret: String
    var testDescription: String { "\(kind): \(text.prefix(60))" }

    init(_ text: String, _ kind: String, _ secret: String) {
        self.text = text
        self.kind = kind
        self.secret = secret
    }

    /// `secret` in `template` where the template has `%`.
    init(kind: String, _ template: String, _ secret: String) {
        self.init(template.replacingOccurrences(of: "%", with: secret), kind, secret)
    }
}

enum Samples {
    static let jwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwi"
        + "aWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
    static let openAI = "sk-proj-Xq3vT9bK2mN8pL4rW7yZ1aC5dF6gH0jJ"
    static let anthropic = "sk-ant-api03-AbCdEf1234567890GhIjKlMnOpQrStUvWxYz-_aBcDeFgH12"
    static let pem = """
        -----BEGIN RSA PRIVATE KEY-----
        MIIEpAIBAAKCAQEA1c7+9z5Pad7OejecsQ0bu3aozN3tihPmljnnudb9G3HECdnH
        lWu2/a1gB9JW5TBQ+AVpum9Okx7KfqkfBKL9mcHgSL0yWMdjMfNOqNtrQqKlN4kE
        -----END RSA PRIVATE KEY-----
        """
}

@Suite("Sensitive values are found and replaced")
struct TruePositiveTests {
    static let providerKeys: [Sensitive] = [
        Sensitive("export OPENAI_API_KEY=\(Samples.openAI)", "openai_key", Samples.openAI),
        Sensitive("I called the API with sk-9fKq2LmN3pQr4StU5vWx6YzA7bCd8EfG1hIj yesterday.", "openai_key",
                  "sk-9fKq2LmN3pQr4StU5vWx6YzA7bCd8EfG1hIj"),
        Sensitive("client = OpenAI(api_key=\"sk-svcacct-A1b2C3d4E5f6G7h8I9j0K1l2M3n4\")", "openai_key",
                  "sk-svcacct-A1b2C3d4E5f6G7h8I9j0K1l2M3n4"),
        Sensitive("ANTHROPIC_API_KEY=\(Samples.anthropic)", "anthropic_key", Samples.anthropic),
        Sensitive("x-api-key: \(Samples.anthropic)", "anthropic_key", Samples.anthropic),
        Sensitive("GET https://maps.googleapis.com/maps/api/geocode/json?address=Paris&key="
                  + "AIzaSyD3Xq9vT2bK8mN4pL7rW1yZ5aC6dF0gHjE", "google_api_key",
                  "AIzaSyD3Xq9vT2bK8mN4pL7rW1yZ5aC6dF0gHjE"),
        Sensitive("aws_access_key_id = AKIAQ3EGRWXYZ7EXAMPL", "aws_access_key", "AKIAQ3EGRWXYZ7EXAMPL"),
        Sensitive("2024-05-01 ERROR leaked AKIAIOSFODNN7EXAMPLE in build log", "aws_access_key",
                  "AKIAIOSFODNN7EXAMPLE"),
        Sensitive("temporary creds ASIAY34FZKBOKMUTVV7A expire soon", "aws_access_key", "ASIAY34FZKBOKMUTVV7A"),
        Sensitive("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret_key",
                  "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
        Sensitive("\"SecretAccessKey\": \"je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY\"", "aws_secret_key",
                  "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY"),
        Sensitive("git clone https://ghp_1A2b3C4d5E6f7G8h9I0jK1lM2nO3pQ4rS5tU@github.com/acme/app.git",
                  "github_token", "ghp_1A2b3C4d5E6f7G8h9I0jK1lM2nO3pQ4rS5tU"),
        Sensitive("GITHUB_TOKEN=github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGH",
                  "github_token", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGH"),
        Sensitive("oauth returned gho_16C7e42F292c6912E7710c838347Ae178B4a and scopes repo", "github_token",
                  "gho_16C7e42F292c6912E7710c838347Ae178B4a"),
        Sensitive("PRIVATE-TOKEN: glpat-xY7zK9mQ2wE4rT6uI8oP", "gitlab_token", "glpat-xY7zK9mQ2wE4rT6uI8oP"),
        Sensitive("SLACK_BOT_TOKEN is xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "slack_token",
                  "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"),
        Sensitive("posting to https://hooks.slack.com/services/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",
                  "slack_webhook", "T024BE7LD/B01ABCD2EFG/q1w2e3r4t5y6u7i8o9p0a1s2"),
        Sensitive("stripe.api_key = 'sk_live_51HxYzAbCdEfGhIjKlMnOpQr'", "stripe_key",
                  "sk_live_51HxYzAbCdEfGhIjKlMnOpQr"),
        Sensitive("restricted key rk_live_4eC39HqLyjWDarjtT1zdp7dc in use", "stripe_key",
                  "rk_live_4eC39HqLyjWDarjtT1zdp7dc"),
        Sensitive("HF_TOKEN=hf_aBcDeFgHiJkLmNoPqRsTuVwXyZ012345", "huggingface_token",
                  "hf_aBcDeFgHiJkLmNoPqRsTuVwXyZ012345"),
        Sensitive("//registry.npmjs.org/:_authToken=npm_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789", "npm_token",
                  "npm_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"),
        Sensitive("sendgrid SG.aBcDeFgHiJkLmNoPqRsTuV.wXyZ0123456789aBcDeFgHiJkLmNoPqRsTuVwXyZ01234 sent",
                  "sendgrid_key", "SG.aBcDeFgHiJkLmNoPqRsTuV.wXyZ0123456789aBcDeFgHiJkLmNoPqRsTuVwXyZ01234"),
        Sensitive("twilio key SK2a5f8c1e9b4d7f3a6c0e8b2d5f9a1c7e", "twilio_key", "SK2a5f8c1e9b4d7f3a6c0e8b2d5f9a1c7e"),
        Sensitive("GROQ 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",
                  "groq_key", "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"),
    ]

    static let credentials: [Sensitive] = [
        Sensitive("token for the call: \(Samples.jwt)", "jwt", Samples.jwt),
        Sensitive("GET /callback?id_token=\(Samples.jwt)&state=xyz", "jwt", Samples.jwt),
        Sensitive("Authorization: Bearer abc123def456ghi789", "bearer_token", "abc123def456ghi789"),
        Sensitive("curl -H \"Authorization: Bearer 9f8e7d6c5b4a\" https://api.internal/v1", "bearer_token",
                  "9f8e7d6c5b4a"),
        Sensitive("authorization: bearer tokenwithoutdigits", "bearer_token", "tokenwithoutdigits"),
        Sensitive("request sent Bearer mF_9.B5f-4.1JqM to the gateway", "bearer_token", "mF_9.B5f-4.1JqM"),
        Sensitive("Authorization: Basic dXNlcjpwYXNzd29yZA==", "basic_auth", "dXNlcjpwYXNzd29yZA=="),
        Sensitive("proxy header Basic YWxhZGRpbjpvcGVuc2VzYW1l rejected", "basic_auth", "YWxhZGRpbjpvcGVuc2VzYW1l"),
        Sensitive("curl -u admin:Pa55w0rd https://api.internal/health", "basic_auth", "Pa55w0rd"),
        Sensitive("curl --user 'deploy:s3cr3t pass' https://x", "basic_auth", "s3cr3t pass"),
        Sensitive("connecting to postgres://app:s3cr3tP4ss@db.internal:5432/prod", "url_credential", "s3cr3tP4ss"),
        Sensitive("DATABASE_URL=mysql://root:toor@localhost/shop", "url_credential", "toor"),
        Sensitive("git push https://deploy:hunter2@git.example.com/repo.git", "url_credential", "hunter2"),
        Sensitive("key file:\n\(Samples.pem)\ndone", "private_key", "MIIEpAIBAAKCAQEA1c7"),
        Sensitive("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n"
                  + "-----END OPENSSH PRIVATE KEY-----", "private_key", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ"),
        Sensitive("truncated: -----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIIrYSSNQFaA2Hwf1duRSxKtLYX5CB04", "private_key",
                  "MHcCAQEEIIrYSSNQFaA2Hwf1duRSxKtLYX5CB04"),
    ]

    static let fields: [Sensitive] = [
        Sensitive("login ok password=hunter2 user=ana", "password", "hunter2"),
        Sensitive("DB_PASSWORD: Tr0ub4dor3", "password", "Tr0ub4dor3"),
        Sensitive("db_password: 'c0rrect-h0rse'", "password", "c0rrect-h0rse"),
        Sensitive("./migrate --password=Sup3rS3cret! --host=db", "password", "Sup3rS3cret!"),
        Sensitive("POST https://example.com/login?user=ana&password=pa55word&next=/home", "password", "pa55word"),
        Sensitive("GET /v1/files?access_token=8f14e45fceea167a5a36dedd4bea2543", "token",
                  "8f14e45fceea167a5a36dedd4bea2543"),
        Sensitive("GET /v1/search?q=swift&api_key=abcd1234efgh5678", "api_key", "abcd1234efgh5678"),
        Sensitive("client_secret=Zm9vYmFyYmF6cXV4", "secret", "Zm9vYmFyYmF6cXV4"),
        Sensitive("{'refresh_token': 'r1.AbCdEf0123456789'}", "token", "r1.AbCdEf0123456789"),
        Sensitive("args: {\\\"passwd\\\":\\\"letmein99\\\"}", "password", "letmein99"),
        Sensitive("Cookie: sessionid=38afes7a8; csrftoken=u32t4o3tb3gg43", "cookie",
                  "sessionid=38afes7a8; csrftoken=u32t4o3tb3gg43"),
        Sensitive("Set-Cookie: id=a3fWa; Expires=Thu, 21 Oct 2021 07:28:00 GMT; Secure; HttpOnly", "cookie",
                  "id=a3fWa"),
        Sensitive("https://bucket.s3.amazonaws.com/f.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature="
                  + "fe5f80f77d5fa3beca038a248ff027d0445342fe2855ddc963176630326f1024", "signature",
                  "fe5f80f77d5fa3beca038a248ff027d0445342fe2855ddc963176630326f1024"),
        Sensitive("https://acct.blob.core.windows.net/c/b.txt?sv=2022-11-02&sp=r&se=2024-01-01T00:00:00Z"
                  + "&sig=aBcD1234%2BeFgH5678%3D", "signature", "aBcD1234%2BeFgH5678%3D"),
        Sensitive("Authorization: AWS4-HMAC-SHA256 Credential=x/20240101/us-east-1/s3/aws4_request",
                  "secret", "Credential=x/20240101"),
        Sensitive("session_key=Zx8Kq2Lm9Np4Rt7Vw1Yb3Cd6Fg", "secret", "Zx8Kq2Lm9Np4Rt7Vw1Yb3Cd6Fg"),
        Sensitive("hmac: Q2x5bXpQa1J0Vm5ZdDhXcQ", "secret", "Q2x5bXpQa1J0Vm5ZdDhXcQ"),
        // A name that only hints (session, csrf, xsrf): a long random value goes, a word stays.
        Sensitive("session: " + String(repeating: "Tm9QbGFjZUxpa2VIb21lMjAyNHhZ", count: 14), "secret",
                  "Tm9QbGFjZUxpa2VIb21lMjAyNHhZTm9Q"),
        Sensitive(#"{"xsrf": "k9Qv2LmZ8pRt4WnYx7Bc3Df6Gh"}"#, "secret", "k9Qv2LmZ8pRt4WnYx7Bc3Df6Gh"),
    ]

    static let personal: [Sensitive] = [
        Sensitive("Contact ana.garcia+billing@example.co.uk for refunds.", "email", "ana.garcia+billing@example.co.uk"),
        Sensitive("From: \"Bob\" <bob_smith@mail.acme-corp.com>", "email", "bob_smith@mail.acme-corp.com"),
        Sensitive("call +1 (415) 555-0132 after 5pm", "phone", "555-0132"),
        Sensitive("London office +44 20 7946 0958.", "phone", "7946 0958"),
        Sensitive("Berlin +4915112345678", "phone", "4915112345678"),
        Sensitive("front desk (212) 555-0187", "phone", "555-0187"),
        Sensitive("phone: 415-555-0132", "phone", "415-555-0132"),
        Sensitive("toll free 1-800-555-0199", "phone", "800-555-0199"),
        Sensitive("tel 415.555.0132", "phone", "415.555.0132"),
        Sensitive("card 4111 1111 1111 1111 exp 12/27", "credit_card", "4111 1111 1111 1111"),
        Sensitive("paid with 5500-0000-0000-0004", "credit_card", "5500-0000-0000-0004"),
        Sensitive("amex 378282246310005 declined", "credit_card", "378282246310005"),
        Sensitive("discover=6011111111111117", "credit_card", "6011111111111117"),
        Sensitive("card 4111 1111 1111 1111 2030 on file", "credit_card", "4111 1111 1111 1111"),
        Sensitive("IBAN DE89 3704 0044 0532 0130 00 (Commerzbank)", "iban", "DE89 3704 0044 0532 0130 00"),
        Sensitive("wire to GB82WEST12345698765432", "iban", "GB82WEST12345698765432"),
        Sensitive("iban:FR1420041010050500013M02606", "iban", "FR1420041010050500013M02606"),
        Sensitive("SSN 536-22-4197 on the form", "ssn", "536-22-4197"),
    ]

    @Test("provider keys", arguments: providerKeys)
    func providerKey(_ sample: Sensitive) { Self.check(sample) }

    @Test("tokens, basic auth, URL credentials and private keys", arguments: credentials)
    func credential(_ sample: Sensitive) { Self.check(sample) }

    @Test("secret-named fields, cookies and signatures", arguments: fields)
    func field(_ sample: Sensitive) { Self.check(sample) }

    @Test("emails, phones, cards, IBANs and SSNs", arguments: personal)
    func personalData(_ sample: Sensitive) { Self.check(sample) }

    @Test("redacting twice changes nothing", arguments: providerKeys + credentials + fields + personal)
    func idempotent(_ sample: Sensitive) {
        let once = Redactor.standard.redact(sample.text)
        let twice = Redactor.standard.redact(once.text)
        #expect(twice.text == once.text)
        #expect(twice.counts.isEmpty)
    }

    static func check(_ sample: Sensitive) {
        let result = Redactor.standard.redact(sample.text)
        #expect(!result.text.contains(sample.secret), "\(result.text)")
        #expect(result.text.contains("[REDACTED:\(sample.kind)]"), "\(result.text)")
        #expect(result.counts == [RedactionKind(rawValue: sample.kind): 1], "\(result.text)")
    }

    @Test func keepsTheFieldNameAndTheRestOfTheLine() {
        let result = Redactor.standard.redact("2024-05-01T10:00:00Z INFO login user=ana password=hunter2 ok")
        #expect(result.text == "2024-05-01T10:00:00Z INFO login user=ana password=[REDACTED:password] ok")
        let header = Redactor.standard.redact("Authorization: Bearer abc123def456ghi789\r\nAccept: */*")
        #expect(header.text == "Authorization: Bearer [REDACTED:bearer_token]\r\nAccept: */*")
        let url = Redactor.standard.redact("postgres://app:s3cr3tP4ss@db.internal:5432/prod")
        #expect(url.text == "postgres://app:[REDACTED:url_credential]@db.internal:5432/prod")
    }

    @Test func countsEveryKindInAMixedLogExactly() {
        let log = """
            2024-05-01T10:00:00.123Z INFO request id=550e8400-e29b-41d4-a716-446655440000 \
            from ana@example.org with key \(Samples.openAI)
            2024-05-01T10:00:01.456Z WARN retry Authorization: Bearer abc123def456ghi789
            2024-05-01T10:00:02.789Z INFO user bob@example.org paid 4111-1111-1111-1111, call +1 415 555 0132
            2024-05-01T10:00:03.000Z DEBUG url=https://svc:pw0rd@cache.internal/x?token=t0k3n-value&page=2
            """
        let result = Redactor.standard.redact(log)
        #expect(result.counts == [
            .email: 2, .openaiKey: 1, .bearerToken: 1, .creditCard: 1, .phone: 1,
            .urlCredential: 1, .token: 1,
        ], "\(result.text)")
        #expect(result.text.contains("id=550e8400-e29b-41d4-a716-446655440000"))
        #expect(result.text.contains("2024-05-01T10:00:03.000Z DEBUG"))
        #expect(result.text.contains("&page=2"))
    }

    @Test("a private key cut off before its END line stops at the first line that is not base64",
          arguments: ["\n", "\r\n", "\\n"])
    func truncatedPrivateKey(_ newline: String) {
        let text = ["key:", "-----BEGIN ENCRYPTED PRIVATE KEY-----", "Proc-Type: 4,ENCRYPTED", "",
                    "MIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQI", "3+/abc==", "next log line here"]
            .joined(separator: newline)
        let result = Redactor.standard.redact(text)
        #expect(result.text == "key:" + newline + "[REDACTED:private_key]" + newline + "next log line here")
        #expect(result.counts == [.privateKey: 1])
    }

    @Test func findsKeysAfterEscapesInEscapedText() {
        let result = Redactor.standard.redact(#"{"log":"line one\nsk-9fKq2LmN3pQr4StU5vWx6YzA7bCd8EfG1hIj\tok"}"#)
        #expect(result.counts == [.openaiKey: 1])
        #expect(result.text == #"{"log":"line one\n[REDACTED:openai_key]\tok"}"#)
    }
}

@Suite("The same values inside JSON documents")
struct EmbeddedInJSONTests {
    static let all = TruePositiveTests.providerKeys + TruePositiveTests.credentials + TruePositiveTests.fields
        + TruePositiveTests.personal

    @Test("found in a JSON string value, and the document stays valid", arguments: all)
    func inJSONString(_ sample: Sensitive) throws {
        let document: [String: Any] = ["event": "payload", "role": "user", "text": sample.text, "tokens": 42]
        let data = try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])
        let json = String(decoding: data, as: UTF8.self)
        let result = Redactor.standard.redactJSON(json)
        #expect(result.counts == [RedactionKind(rawValue: sample.kind): 1], "\(result.text)")
        let parsed = try #require(
            try JSONSerialization.jsonObject(with: Data(result.text.utf8)) as? [String: Any])
        let text = try #require(parsed["text"] as? String)
        #expect(!text.contains(sample.secret))
        #expect(text.contains("[REDACTED:\(sample.kind)]"))
        #expect(parsed["tokens"] as? Int == 42)
        #expect(parsed["event"] as? String == "payload")
    }

    @Test("found in JSON Lines", arguments: all)
    func inJSONLines(_ sample: Sensitive) throws {
        let line = String(decoding: try JSONSerialization.data(withJSONObject: ["m": sample.text]), as: UTF8.self)
        let result = Redactor.standard.redactJSONLines(#"{"start":1}"# + "\n" + line + "\n")
        #expect(result.counts == [RedactionKind(rawValue: sample.kind): 1])
        let lines = result.text.split(separator: "\n")
        #expect(lines.count == 2)
        for line in lines { _ = try JSONSerialization.jsonObject(with: Data(line.utf8)) }
    }
}

@Suite("Realistic captures")
struct CaptureTests {
    @Test func anHTTPRequestDump() {
        let request = """
            POST /v1/chat/completions?api-version=2024-02-01&sig=Zk9vYmFyQmF6MTIz HTTP/1.1
            Host: api.internal:8443
            Authorization: Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbmEifQ.c2lnbmF0dXJlLXZhbHVlLWhlcmU
            Cookie: __Host-session=9f8e7d6c5b4a39281706; theme=dark
            X-Api-Key: 4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c
            Content-Type: application/json
            User-Agent: SessionTrace/0.1 (Linux; Swift 6.3.1)

            {"messages":[{"role":"user","content":"Email ana@example.org the IBAN GB82WEST12345698765432"}]}
            """
        let result = Redactor.standard.redact(request)
        #expect(result.counts == [
            .signature: 1, .bearerToken: 1, .cookie: 1, .apiKey: 1, .email: 1, .iban: 1,
        ], "\(result.text)")
        #expect(result.text.contains("Host: api.internal:8443"))
        #expect(result.text.contains("User-Agent: SessionTrace/0.1 (Linux; Swift 6.3.1)"))
        #expect(result.text.contains("api-version=2024-02-01&sig=[REDACTED:signature] HTTP/1.1"))
    }

    @Test func aDotEnvFile() {
        let env = """
            # local settings
            APP_ENV=development
            PORT=8080
            OPENAI_API_KEY=\(Samples.openAI)
            DATABASE_URL=postgres://app:s3cr3tP4ss@localhost:5432/app
            JWT_SECRET="n0t-so-s3cret-but-still"
            SENTRY_DSN=https://abc123@o1.ingest.sentry.io/42
            FEATURE_FLAGS=a,b,c
            STRIPE_KEY=sk_test_4eC39HqLyjWDarjtT1zdp7dc
            """
        let result = Redactor.standard.redact(env)
        #expect(result.counts == [
            .openaiKey: 1, .urlCredential: 1, .secret: 1, .stripeKey: 1,
        ], "\(result.text)")
        #expect(result.text.contains("PORT=8080"))
        #expect(result.text.contains("FEATURE_FLAGS=a,b,c"))
    }
}
