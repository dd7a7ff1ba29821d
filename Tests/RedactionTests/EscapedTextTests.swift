import Foundation
import Redaction
import Testing

/// Text that is JSON-string-escaped (`\/` for `/`, `\u0040` for `@`, at any depth) is read as the
/// text it stands for; a marker from an earlier pass is read as nothing but a marker.
@Suite("Escaped text and markers")
struct EscapedTextTests {
    /// `postgres://app:<password>@db.internal:5432/x` with its slashes written as `slash` and its
    /// `@` as `at`.
    static func url(password: String, slash: String = "/", at: String = "@") -> String {
        "postgres:" + slash + slash + "app:" + password + at + "db.internal:5432" + slash + "x"
    }

    /// `/` and `@` as JSON writers escape them, once or twice.
    static let escapes: [(slash: String, at: String)] = [
        ("\\/", "@"), ("\\\\\\/", "@"), ("\\u002f", "@"), ("\\/", "\\u0040"), ("\\\\u002F", "@"),
    ]

    @Test("a URL password with escaped slashes or @", arguments: 0..<escapes.count)
    func urlPassword(_ index: Int) {
        var fake = Fake(seed: UInt64(index))
        let password = "p" + fake.alnum(11)
        let (slash, at) = Self.escapes[index]
        let text = "db " + Self.url(password: password, slash: slash, at: at) + " ok"
        let result = Redactor.standard.redact(text)
        #expect(result.counts == [.urlCredential: 1], "\(result.text)")
        #expect(!result.text.contains(password), "\(result.text)")
        // Only the password goes: the escapes around it stay as they were written.
        let marker = "[REDACTED:url_credential]"
        #expect(result.text == "db " + Self.url(password: marker, slash: slash, at: at) + " ok")
    }

    /// A JSON document cut off before its end is redacted as text, escapes and all: the password of a
    /// URL whose `@host` made it into the cut does not survive.
    @Test func aTruncatedJSONDocumentWithAURLPassword() throws {
        var fake = Fake(seed: 7)
        let password = "p" + fake.alnum(11)
        let url = Self.url(password: password)
        let data = try JSONSerialization.data(
            withJSONObject: ["dsn": url, "note": "connect"], options: [.sortedKeys])
        let document = String(decoding: data, as: UTF8.self)
        #expect(document.contains(":\\/\\/app:"), "the writer escapes slashes: \(document)")
        let bytes = Array(document.utf8)
        let hostEndIndex = try #require(document.range(of: "@db")).upperBound
        let hostEnd = document.utf8.distance(from: document.startIndex, to: hostEndIndex)
        for length in hostEnd..<bytes.count {
            let cut = String(decoding: bytes[0..<length], as: UTF8.self)
            let result = Redactor.standard.redactJSON(cut)
            #expect(!result.text.contains(password), "\(result.text)")
            #expect(result.counts == [.urlCredential: 1], "\(result.text)")
        }
    }

    @Test func aSlackWebhookWithEscapedSlashes() {
        var fake = Fake(seed: 3)
        let path = "T\(fake.upperDigits(8))\\/B\(fake.upperDigits(10))\\/\(fake.alnum(24))"
        let result = Redactor.standard.redact(#"{"hook":"https:\/\/hooks.slack.com\/services\/"# + path)
        #expect(result.counts == [.slackWebhook: 1], "\(result.text)")
        #expect(!result.text.contains(path), "\(result.text)")
    }

    /// A marker is neither a secret nor the name of a field: what follows it stays as it was.
    @Test("a marker is never read as a field name", arguments: ["=", ": ", " = ", "=\""])
    func markerIsNotAName(_ separator: String) {
        var fake = Fake(seed: 11)
        let value = fake.alnum(20)
        let text = "Authorization: Bearer " + fake.alnum(24) + separator + value
        let once = Redactor.standard.redact(text)
        let twice = Redactor.standard.redact(once.text)
        #expect(once.text.contains("[REDACTED:bearer_token]"), "\(once.text)")
        #expect(twice.text == once.text)
        #expect(twice.counts.isEmpty, "\(twice.text)")
        let marked = "[REDACTED:bearer_token]" + separator + value
        #expect(Redactor.standard.redact(marked).text == marked)
    }
}
