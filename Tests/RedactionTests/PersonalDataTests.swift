import Redaction
import Testing

@Suite("Personal data in looser forms")
struct PersonalDataTests {
    static let found: [Sensitive] = {
        var f = Fake(seed: 0x9E55)
        let amex = f.card(prefix: "37", length: 15)
        let uatp = f.card(prefix: "1", length: 15)
        return [
            Sensitive(kind: "email", "write to %", "jane.doe at example.com"),
            Sensitive(kind: "email", "mail: %", "jdoe [at] example [dot] org"),
            Sensitive(kind: "email", "contatto %", "mario.rossi(at)posta.it"),
            Sensitive(kind: "email", "escribe a %", "carlos at correo dot es"),
            Sensitive(kind: "email", "email me: %", "kim at uni-bonn.de"),
            Sensitive(kind: "email", "%", "john dot smith at gmail dot com"),
            Sensitive(kind: "email", "email me at %", "ana.lee@example.org"),
            Sensitive(kind: "phone", "phone %", "(+44) 20 7946 0958"),
            Sensitive(kind: "ssn", "SSN %", "536.22.4197"),
            Sensitive(kind: "ssn", "ssn: %", "536 22 4197"),
            Sensitive(kind: "ssn", "social security number %", "536224197"),
            Sensitive(kind: "phone", "Paris %", "+33 1 42 68 53 00"),
            Sensitive(kind: "phone", "tel %", "+44 (0)20 7946 0958"),
            Sensitive(kind: "phone", "UK office %", "0044 20 7946 0958"),
            Sensitive(kind: "phone", "Telefon: %", "030 9018 2011"),
            Sensitive(kind: "phone", "portable %", "06 12 34 56 78"),
            Sensitive(kind: "phone", "phone %", "(02) 9876 5432"),
            Sensitive(kind: "phone", "Handy: %", "0171-2345678"),
            Sensitive(kind: "credit_card", "amex %", amex),
            Sensitive(
                kind: "credit_card", "Amex: %",
                "\(amex.prefix(4)) \(amex.dropFirst(4).prefix(6)) \(amex.suffix(5))"),
            Sensitive(
                kind: "credit_card", "UATP %",
                "\(uatp.prefix(4)) \(uatp.dropFirst(4).prefix(5)) \(uatp.suffix(6))"),
        ]
    }()

    @Test("found with their context", arguments: found)
    func personal(_ sample: Sensitive) { TruePositiveTests.check(sample) }

    static let ordinary = [
        "look at example.com for details",
        "see section 5.2.1 at docs.python.org",
        "see e.g. at docs.rs for the API",
        "Contact us at support.example.com or email us at help.example.org",
        "order number 0123456789 shipped",
        "The server at db.internal is down",
        "meet at noon.tomorrow",
        "SSN 000-12-3456", "ssn 666-45-6789", "SSN 912-45-6789", "ssn 078-05-1120", "ssn 123-45-6789",
        "SSN 111-11-1111", "ssn 123.00.4567",
        "order 0012345678 shipped",
        "dates 01.02.2024 and 03.04.2025",
        "build 030 9018 2011",
        "amex 378282246310006",
        "ref 1234 56789 012345",
        "ts 1718000000123456",
    ]

    @Test("look-alikes without context or failing their checks", arguments: ordinary)
    func stays(_ text: String) { FalsePositiveTests.unchanged(text) }

    @Test(
        "SSN validity",
        arguments: [
            ("536-22-4197", true), ("536.22.4197", true), ("078-05-1120", false), ("123-45-6789", false),
            ("222-22-2222", false), ("536-22.4197", false),
        ])
    func ssn(_ text: String, _ valid: Bool) {
        #expect(RedactionChecks.isSSN(text) == valid)
    }
}
