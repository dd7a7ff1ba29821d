import Foundation
import Redaction
import Testing

/// Secrets in an encoding: base64 that decodes to a secret, a Kubernetes Secret's `data:`, the
/// line after `… | base64 -d`, percent-escaped text; and a cost that stays linear on input
/// built to make decoding expensive.
@Suite("Encoded secrets")
struct EncodedSecretsTests {
    static let key = { () -> String in
        var f = Fake(seed: 0x25E)
        return "sk-proj-" + f.base64url(40)
    }()

    @Test func base64ThatDecodesToASecretGoesWhole() {
        let encoded = Data("api_key=\(Self.key)".utf8).base64EncodedString()
        #expect(Redactor.standard.redact("config: \(encoded) end").text == "config: [REDACTED:openai_key] end")
        let harmless = Data("just some harmless text here".utf8).base64EncodedString()
        FalsePositiveTests.unchanged("blob \(harmless)")
    }

    @Test func everyValueOfAKubernetesSecretsDataGoes() {
        let token = Data("ghp_made_up_for_a_test".utf8).base64EncodedString()
        let manifest = """
            apiVersion: v1
            kind: Secret
            metadata:
              name: ci
            data:
              GITHUB_PAT: \(token)
              .dockerconfigjson: "eyJhdXRocyI6e319"
            type: Opaque
            """
        #expect(Redactor.standard.redact(manifest).text == """
            apiVersion: v1
            kind: Secret
            metadata:
              name: ci
            data:
              GITHUB_PAT: [REDACTED:kubernetes_secret]
              .dockerconfigjson: "[REDACTED:kubernetes_secret]"
            type: Opaque
            """)
        FalsePositiveTests.unchanged("kind: ConfigMap\ndata:\n  mode: ZGVidWc=\n")
    }

    /// `kubectl get secret -o json`: keys in alphabetical order (`data` before `kind`), as a
    /// document, as text, and escaped inside another JSON string; `stringData` holds plain values.
    @Test func aKubernetesSecretWrittenAsJSONGoesToo() {
        let token = Data("ghp_made_up_for_a_test".utf8).base64EncodedString()
        let document = """
            {
                "apiVersion": "v1",
                "data": {"GITHUB_PAT": "\(token)", "region": "ZXUtd2VzdC0x"},
                "kind": "Secret",
                "metadata": {"name": "ci"},
                "stringData": {"note": "Plum-Harbor-4417x"}
            }
            """
        let redacted = """
            {
                "apiVersion": "v1",
                "data": {"GITHUB_PAT": "[REDACTED:kubernetes_secret]", "region": "[REDACTED:kubernetes_secret]"},
                "kind": "Secret",
                "metadata": {"name": "ci"},
                "stringData": {"note": "[REDACTED:kubernetes_secret]"}
            }
            """
        #expect(Redactor.standard.redactJSON(document).text == redacted)
        #expect(Redactor.standard.redact(document).text == redacted)
        let wrapped = #"{"output": "{\"kind\":\"Secret\",\"data\":{\"A\":\"UGx1bS1IYXJib3ItNDQxN3g=\"}}"}"#
        #expect(Redactor.standard.redactJSON(wrapped).text
            == #"{"output": "{\"kind\":\"Secret\",\"data\":{\"A\":\"[REDACTED:kubernetes_secret]\"}}"}"#)
        FalsePositiveTests.unchanged(#"{"kind": "ConfigMap", "data": {"mode": "ZGVidWc="}}"#)
        FalsePositiveTests.unchanged(#"{"kind": "Secretary", "data": {"mode": "ZGVidWc="}}"#)
    }

    @Test func theLineAfterBase64DecodeGoes() {
        let session = "$ kubectl get secret db -o jsonpath='{.data.password}' | base64 -d\nPlum-Harbor-4417x\n$ ls\n"
        #expect(Redactor.standard.redact(session).text
            == "$ kubectl get secret db -o jsonpath='{.data.password}' | base64 -d\n[REDACTED:decoded_secret]\n$ ls\n")
        FalsePositiveTests.unchanged("echo aGk= | base64 -d\nhi there\n")
    }

    @Test func percentEscapedSecretsGoAndTheRestStays() {
        #expect(Redactor.standard.redact("GET /login?password%3DTr0ub4dor%26user%3Dana").text
            == "GET /login?password%3D[REDACTED:password]%26user%3Dana")
        FalsePositiveTests.unchanged("url=https://x/?q=hello%20world&page=2")
    }

    /// Four times the input takes about four times as long, not sixteen, on input that is all
    /// base64, all percent-escapes, all `base64 -d`, or one Secret's `data:` of many lines.
    @Test(arguments: ["A", "%41", "base64 -d ", "  k: QUFBQQ==\n", "x is ", "s(\"", "P=\"", #""data":{"k":"QQ"#, "あ", "１"])
    func costStaysLinear(unit: String) {
        func seconds(_ count: Int) -> Double {
            let prefix = unit.hasPrefix("  k:") ? "kind: Secret\ndata:\n" : unit.hasPrefix("\"data\"") ? #"{"kind":"Secret","# : ""
            let text = prefix + String(repeating: unit, count: count)
            // The thread's CPU time, best of five: other jobs on the machine do not count.
            func cpu() -> Double {
                var spec = timespec()
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
                return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
            }
            var best = Double.infinity
            for _ in 0..<5 {
                let start = cpu()
                _ = Redactor.standard.redact(text)
                best = min(best, cpu() - start)
            }
            return best
        }
        let size = 120_000 / unit.utf8.count
        let small = seconds(size), large = seconds(size * 4)
        #expect(large < max(small, 0.002) * 8, "\(unit): \(small) s, then \(large) s for four times the input")
    }
}
