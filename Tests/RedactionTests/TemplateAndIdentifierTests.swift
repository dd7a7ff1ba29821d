import Redaction
import Testing

/// Values in a secret's place that are not secrets: templates, command substitutions, placeholders
/// in a vendor's shape, build coordinates, values that spell their own name, values that say they
/// are fake, the names of secrets in a store, and IBANs whose digits happen to pass Luhn.
@Suite("Templates, identifiers and stand-ins")
struct TemplateAndIdentifierTests {
    static let harmless = [
        "APP_ACCESS_KEY={AppAccessKey}",
        "API_KEY=`vault read -field=key secret/app`",
        "password: {{ .Values.db.password }}",
        "  password: \"{{ .Values.db.password }}\"",
        "client_secret=aB12Q~xxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "\"com.example.token:token-utils-2.3.1\"",
        "pub const EVP_pkey_st = struct_EVP_pkey_st;",
        "password = \"notarealpassword\"",
        "api_key: not-a-real-key-0000",
        "token = \"fake-token-for-tests\"",
        "get_secret_value(SecretId=\"staging/api\")",
        "\"SecretId\": \"prod/db-credentials\"",
        "IBAN AT00 4111 1111 1111 1111",
    ]

    @Test("left alone", arguments: harmless)
    func stays(_ line: String) { FalsePositiveTests.unchanged(line) }

    @Test func theRealOnesBesideThemStillGo() {
        // An ODBC value in braces holds punctuation or digits: a value, not a template name.
        #expect(Redactor.standard.redact("Pwd={p;w0rd};").text == "Pwd={[REDACTED:password]};")
        // A backtick literal without a space is a value, as in Markdown.
        #expect(Redactor.standard.redact("password=`Qx7vR2mK9pL`").text == "password=`[REDACTED:password]`")
        // A card number after a word that is no IBAN's start is still a card.
        #expect(Redactor.standard.redact("VISA 4111 1111 1111 1111").text == "VISA [REDACTED:credit_card]")
        #expect(Redactor.standard.redact("IBAN GB33BUKB20201555555555").text == "IBAN [REDACTED:iban]")
    }
}
