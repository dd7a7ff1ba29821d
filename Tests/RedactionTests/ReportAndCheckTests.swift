import Redaction
import Testing

@Suite("Reports and checksums")
struct ReportAndCheckTests {
    @Test func summaryCountsByKindWithoutValues() {
        var report = RedactionReport()
        report.add(Redactor.standard.redact("mail ana@example.org and bob@example.org"))
        report.add(Redactor.standard.redact("key \(Samples.openAI)"))
        report.add(Redactor.standard.redact("nothing here"))
        #expect(report.counts == [.email: 2, .openaiKey: 1])
        #expect(report.total == 3)
        #expect(report.summary == "redacted 3 values: 2 email, 1 openai_key")
        #expect(!report.summary.contains("ana"))
    }

    @Test func summaryOrderAndSingular() {
        #expect(RedactionReport().summary == "redacted 0 values")
        #expect(RedactionReport(counts: [.jwt: 1]).summary == "redacted 1 value: 1 jwt")
        var report = RedactionReport(counts: [.phone: 2, .email: 2, .iban: 5, .ssn: 0])
        report.merge(RedactionReport(counts: [.jwt: 1]))
        #expect(report.summary == "redacted 10 values: 5 iban, 2 email, 2 phone, 1 jwt")
        #expect("\(report)" == report.summary)
    }

    @Test("Luhn", arguments: [
        ("4111111111111111", true), ("4111111111111112", false), ("378282246310005", true),
        ("79927398713", true), ("79927398710", false),
    ])
    func luhn(_ digits: String, _ valid: Bool) {
        #expect(RedactionChecks.luhn(Array(digits.utf8)) == valid)
    }

    @Test("card numbers need an issuer prefix, a length and Luhn", arguments: [
        ("4111 1111 1111 1111", true), ("5500-0000-0000-0004", true), ("6011111111111117", true),
        ("1234567812345670", false), ("4111111111111112", false), ("411111111111", false),
    ])
    func card(_ text: String, _ valid: Bool) {
        #expect(RedactionChecks.isCardNumber(text) == valid)
    }

    @Test("IBAN mod 97 and country length", arguments: [
        ("DE89 3704 0044 0532 0130 00", true), ("GB82WEST12345698765432", true), ("NL91ABNA0417164300", true),
        ("DE89 3704 0044 0532 0130 01", false), ("GB82WEST1234569876543", false), ("ZZ12345678", false),
    ])
    func iban(_ text: String, _ valid: Bool) {
        #expect(RedactionChecks.isIBAN(text) == valid)
    }

    @Test("SSN ranges", arguments: [
        ("536-22-4197", true), ("123-45-6789", false), ("000-45-6789", false), ("666-45-6789", false), ("901-45-6789", false),
        ("123-00-6789", false), ("123-45-0000", false), ("123456789", false),
    ])
    func ssn(_ text: String, _ valid: Bool) {
        #expect(RedactionChecks.isSSN(text) == valid)
    }

    @Test func shannonEntropy() {
        #expect(RedactionChecks.shannonEntropy(Array("aaaa".utf8)) == 0)
        #expect(abs(RedactionChecks.shannonEntropy(Array("abcd".utf8)) - 2) < 1e-9)
        #expect(RedactionChecks.shannonEntropy(Array("Zx8Kq2Lm9Np4Rt7Vw1Yb3Cd6Fg".utf8)) > 4)
        #expect(RedactionChecks.shannonEntropy(Array("hello_world_test".utf8)) < 3.5)
    }

    @Test func entropyThresholdIsAnOption() {
        let strict = Redactor(options: .init(entropyThreshold: 6))
        #expect(strict.redact("session_key=Zx8Kq2Lm9Np4Rt7Vw1Yb3Cd6Fg").counts.isEmpty)
        #expect(Redactor.standard.redact("session_key=Zx8Kq2Lm9Np4Rt7Vw1Yb3Cd6Fg").counts == [.secret: 1])
    }

    @Test func redactorIsSharedAcrossTasks() async {
        let texts = (0..<64).map { "user\($0)@example.org password=pw\($0)x" }
        let counts = await withTaskGroup(of: Int.self) { group in
            for text in texts { group.addTask { Redactor.standard.redact(text).total } }
            return await group.reduce(0, +)
        }
        #expect(counts == 128)
    }
}
