import Redaction
import Testing

/// Email addresses with non-ASCII local parts and domains (RFC 6531), and national phone numbers
/// whose grouping is their country's own, with no word like "phone" before them.
@Suite("Unicode emails and national phone formats")
struct UnicodePersonalDataTests {
    static let redacted: [(String, String)] = [
        ("write to jörg.müller@example.de now", "write to [REDACTED:email] now"),
        ("info@bücher.de", "[REDACTED:email]"),
        ("émile@exemple.fr a écrit", "[REDACTED:email] a écrit"),
        ("mail ana@example.org。次", "mail [REDACTED:email]。次"),
        ("ruf 0151 23456789 an", "ruf [REDACTED:phone] an"),
        ("appelle le 06 12 34 56 78", "appelle le [REDACTED:phone]"),
        ("06.12.34.56.78", "[REDACTED:phone]"),
        ("携帯 090-1234-5678", "携帯 [REDACTED:phone]"),
        ("ring 07700 900123", "ring [REDACTED:phone]"),
        // Full-width digits and signs, as a Japanese, Chinese or Korean keyboard types them.
        ("call me at ０１５１ ２３４５６７８９ today", "call me at [REDACTED:phone] today"),
        ("電話：０３－１２３４－５６７８", "電話：[REDACTED:phone]"),
        ("カード ４１１１ １１１１ １１１１ １１１１", "カード [REDACTED:credit_card]"),
        ("电话 010-1234-5678", "电话 [REDACTED:phone]"),
        ("Mon numéro: 01 23 45 67 89", "Mon numéro: [REDACTED:phone]"),
    ]

    /// A key typed in full-width forms is the key: its ASCII form is what the server would take.
    @Test func aFullWidthKeyIsFoundAsItsASCIIForm() {
        let key = "sk-proj-abcdefGHIJK1234567890abcdefghij"
        let wide = String(String.UnicodeScalarView(key.unicodeScalars.map {
            $0 == "-" ? "－" : Unicode.Scalar($0.value + 0xFEE0)!
        }))
        #expect(Redactor.standard.redact("APIキー：\(wide) です").text == "APIキー：[REDACTED:openai_key] です")
    }

    @Test(arguments: redacted)
    func replaced(_ pair: (String, String)) {
        #expect(Redactor.standard.redact(pair.0).text == pair.1)
    }

    static let harmless = [
        "order 0012345678 shipped",
        "invoice 0001-2345-6789",
        "dates 01.02.2024 and 03.04.2025",
        "06 12 34 56",
        "version 0151.2345",
        "icon@2x.png and café@home",
        "ＦＵＬＬ ｗｉｄｔｈ words and ２０２４年１２月３日",
        "電話番号は後で",
    ]

    @Test("left alone", arguments: harmless)
    func stays(_ line: String) { FalsePositiveTests.unchanged(line) }
}
