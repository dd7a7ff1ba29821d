import Foundation
import Testing
import TestSupport

/// An HTTPS upstream, through the libcurl side, with a certificate authority the test makes.
@Suite(.serialized)
struct ProxyTLSTests {
    @Test func httpsUpstreamIsTrustedThroughCAFileOnly() throws {
        let keys = try TemporaryDirectory()
        let certificate = keys.path("upstream.pem")
        let key = keys.path("upstream.key")
        let made = try runProgram("/usr/bin/openssl", [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", certificate,
        ])
        try #require(made.status == 0, "openssl: \(made.err)")
        let upstream = try ScriptedUpstream(tls: (certificate, key))
        let body = #"{"model":"scripted-bytes","messages":[{"role":"user","content":"hi"}],"stream":true}"#
        let direct = try curl(["--cacert", certificate, "-d", body, upstream.url + "/v1/chat/completions"])

        let trusting = try ProxyProcess(upstream: upstream.url, arguments: ["--ca-file", certificate])
        let proxied = try curl(["-d", body, trusting.openAIBaseURL + "/chat/completions"])
        #expect(trusting.stop() == 0)
        #expect(!direct.out.isEmpty)
        #expect(Array(proxied.out.utf8) == Array(direct.out.utf8))
        let row = try #require(try storeRows(trusting.storePath, "select * from request").first)
        #expect(row["finish_reason"] as? String == "stop")

        // Without the CA the certificate is not trusted: the client gets a 502, nothing insecure.
        let wary = try ProxyProcess(upstream: upstream.url)
        let refused = try curl(["-o", "/dev/null", "-w", "%{http_code}", "-d", body, wary.openAIBaseURL + "/chat/completions"])
        #expect(wary.stop() == 0)
        #expect(refused.out == "502")
    }
}
