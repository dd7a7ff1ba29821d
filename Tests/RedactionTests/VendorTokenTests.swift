import Redaction
import Testing

@Suite("Vendor token formats")
struct VendorTokenTests {
    static let tokens: [Sensitive] = {
        var f = Fake(seed: 0x70C3)
        return [
            Sensitive(kind: "huggingface_token", "HF_TOKEN=%", "hf_" + f.letters(34)),
            Sensitive(kind: "huggingface_token", "login with % today", "hf_" + f.letters(34)),
            Sensitive(kind: "huggingface_token", "token='%'", "api_org_" + f.letters(34)),
            Sensitive(kind: "vault_token", "VAULT_TOKEN=%", "hvs." + f.base64url(90)),
            Sensitive(kind: "vault_token", "batch % issued", "hvb." + f.base64url(130)),
            Sensitive(kind: "vault_token", "legacy %", "s." + f.alnum(24)),
            Sensitive(kind: "terraform_token", "token = \"%\"", f.alnum(14) + ".atlasv1." + f.base64url(67)),
            Sensitive(kind: "notion_token", "NOTION=%", "secret_" + f.alnum(43)),
            Sensitive(kind: "notion_token", "auth %", "ntn_" + f.digits(11) + f.alnum(35)),
            Sensitive(kind: "sentry_token", "sentry %", "sntryu_" + f.hex(64)),
            Sensitive(kind: "sentry_token", "org token %", "sntrys_eyJ" + f.base64(80) + "_" + f.base64(43)),
            Sensitive(kind: "sourcegraph_token", "src %", "sgp_" + f.hex(40)),
            Sensitive(kind: "sourcegraph_token", "src %", "sgp_" + f.hex(16) + "_" + f.hex(40)),
            Sensitive(
                kind: "onepassword_secret_key", "kit %",
                "A3-\(f.upperDigits(6))-\(f.upperDigits(6))-"
                    + "\(f.upperDigits(5))-\(f.upperDigits(5))-\(f.upperDigits(5))-\(f.upperDigits(5))"),
            Sensitive(kind: "onepassword_token", "OP=%", "ops_eyJ" + f.base64(250)),
            Sensitive(kind: "stripe_key", "restricted %", "rk_live_" + f.alnum(24)),
            Sensitive(kind: "stripe_key", "restricted %", "rk_test_" + f.alnum(99)),
            Sensitive(kind: "discord_bot_token", "client.login('%')", f.discordBotToken()),
            Sensitive(
                kind: "discord_bot_token", "made up %",
                "M" + f.alnum(23) + "." + f.base64url(6) + "."
                    + f.base64url(27)),
            Sensitive(kind: "huggingface_token", "HF_TOKEN=%", "hf_" + f.from(Fake.lowerLetters, 34)),
            Sensitive(kind: "telegram_bot_token", "bot %", "\(f.digits(9)):AA" + f.base64url(33)),
            Sensitive(kind: "telegram_bot_token", "bot %", "\(f.digits(6)):" + f.base64url(34)),
            Sensitive(
                kind: "telegram_bot_token", "https://api.telegram.org/bot%/getMe",
                "\(f.digits(10)):AA" + f.base64url(33)),
            Sensitive(kind: "mailgun_key", "mg %", "key-" + f.lowerDigits(32)),
            Sensitive(kind: "mailgun_key", "mg %", "\(f.hex(32))-\(f.hex(8))-\(f.hex(8))"),
            Sensitive(kind: "mailchimp_key", "mc %", "\(f.hex(32))-us\(f.digits(2))"),
            Sensitive(kind: "twilio_key", "twilio %", "SK" + f.hex(32)),
            Sensitive(kind: "facebook_token", "fb %", "EAACEdEose0cBA" + f.alnum(120)),
            Sensitive(kind: "azure_client_secret", "secret %", f.alnum(3) + "7Q~" + f.base64url(34)),
            Sensitive(kind: "github_token", "gh %", f.checksummed("ghp_")),
            Sensitive(kind: "github_token", "gh %", f.checksummed("ghs_")),
            Sensitive(kind: "gitlab_token", "gl %", "glpat-" + f.base64url(20)),
            Sensitive(kind: "slack_token", "slack %", "xoxb-\(f.digits(12))-\(f.digits(13))-\(f.alnum(24))"),
            Sensitive(kind: "openai_key", "key %", "sk-proj-" + f.base64url(48)),
            Sensitive(kind: "anthropic_key", "key %", "sk-ant-api03-" + f.base64url(95)),
            Sensitive(kind: "aws_access_key", "id %", "AKIA" + f.upperDigits(16)),
            Sensitive(kind: "google_api_key", "key %", "AIza" + f.base64url(35)),
            Sensitive(kind: "npm_token", "npm %", "npm_" + f.alnum(36)),
            Sensitive(kind: "pypi_token", "pypi %", "pypi-AgEIcHlwaS5vcmc" + f.base64url(120)),
            Sensitive(kind: "jwt", "jwt %", f.jwt()),
        ]
    }()

    @Test("documented token formats", arguments: tokens)
    func found(_ sample: Sensitive) { TruePositiveTests.check(sample) }

    /// GitHub tokens end in a CRC-32 of their body: a valid one is a token even without a digit;
    /// one that fails needs to look random as well.
    @Test func githubChecksum() {
        var f = Fake(seed: 3)
        let valid = f.checksummed("ghp_")
        #expect(RedactionChecks.hasGitHubChecksum(valid.dropFirst(4)))
        #expect(!RedactionChecks.hasGitHubChecksum(f.badlyChecksummed("ghp_").dropFirst(4)))
    }

    static let lookAlikes: [String] = {
        var f = Fake(seed: 0xFA1)
        return [
            "ghp_abcdefghijklmnopqrstuvwxyz0123456789",  // an alphabet, failing its checksum
            "ghp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
            "hf_hub_download(repo_id=\"org/model\")",
            "hf_transfer enabled",
            "MTIzNDU2Nzg5.abcdef.not-a-token-at-all-just-text",  // too short to be a Discord token
            "NoneOfTheseWordsIsAToken.abcdef.just_a_long_identifier_in_some_code",  // no digit
            "12345678:short",
            "A3-ABCDEF-GHIJKL",  // a 1Password Secret Key has six groups
            "key-value store",
            "secret_sauce recipe",
            "s.length > 0",
            "sgp_short",
            "EAA is an acronym",
            "build \(f.alnum(14)).atlasv2.\(f.base64url(67))",
        ]
    }()

    @Test("look-alikes of token formats", arguments: lookAlikes)
    func lookAlike(_ text: String) { FalsePositiveTests.unchanged(text) }

    @Test func aSecretKeyNextToItsKeyIDIsFound() {
        var f = Fake(seed: 9)
        let id = "AKIA" + f.upperDigits(16)
        let secret = f.base64(40)
        let session = "IQoJb3JpZ2luX2VjE" + f.base64(200)
        let result = Redactor.standard.redact("\(id) \(secret)\nnext,\(id),\(secret),\(session)")
        #expect(!result.text.contains(secret) && !result.text.contains(session) && !result.text.contains(id))
        #expect(result.counts == [.awsAccessKey: 2, .awsSecretKey: 2, .awsSessionToken: 1])
        #expect(
            result.text.hasSuffix(
                "next,[REDACTED:aws_access_key],[REDACTED:aws_secret_key],"
                    + "[REDACTED:aws_session_token]"))
    }

    @Test func turningAKindOffTurnsOffItsShapeScanner() {
        var f = Fake(seed: 10)
        let token = f.discordBotToken()
        let redactor = Redactor(rules: RedactionRule.builtIn.filter { $0.kind != .discordBotToken })
        #expect(redactor.redact("bot \(token)").text == "bot \(token)")
        #expect(RedactionRule.builtIn.contains { $0.kind == .telegramBotToken })
    }
}
