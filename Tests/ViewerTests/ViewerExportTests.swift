import Foundation
import Reproducible
import SessionTrace
import Synchronization
import TestSupport
import Testing
import TraceReportCLI
import TraceStore

@testable import TraceAnalysis
@testable import TraceExport
@testable import TraceModel

/// The export without a browser: the embedded viewer, the page's policy, the data and the file.
@Suite("Viewer export")
struct ViewerExportTests {
    @Test("the viewer's scripts never turn text into markup")
    func scriptUsesNoMarkupSinks() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: repositoryRoot + "/viewer")
            .filter { $0.hasSuffix(".js") }
        #expect(files.count >= 5)
        for file in files {
            let javaScript = try viewerSource(file)
            for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function",
                         "setAttribute('on", "createContextualFragment", "DOMParser", ".src =", ".href ="] {
                #expect(!javaScript.contains(sink), "\(file) uses \(sink)")
            }
            #expect(!javaScript.lowercased().contains("</script"))
        }
        let css = try viewerSource("viewer.css")
        #expect(!css.lowercased().contains("</style"))
    }

    @Test("SHA-256 gives the standard's digests", arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func sha256(_ input: String, _ digest: String) {
        #expect(SHA256.hex(input) == digest)
    }

    @Test("SHA-256 in base64 matches the form CSP hashes take")
    func sha256Base64() {
        #expect(SHA256.base64("abc") == "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=")
        #expect(SHA256.hex(String(repeating: "a", count: 1_000_000))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("the export allows no network: only its own inline script and style, by hash")
    func contentSecurityPolicy() throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("small.sqlite")
        try writeSmallStore(store)
        let out = directory.path("small.html")
        _ = try exportHTML([store], to: out)
        let html = try String(contentsOfFile: out, encoding: .utf8)
        let policyStart = try #require(html.range(of: "http-equiv=\"Content-Security-Policy\" content=\""))
        let policy = String(html[policyStart.upperBound...].prefix { $0 != "\"" })
        #expect(policy.hasPrefix("default-src 'none'; script-src 'sha256-"))
        for forbidden in ["unsafe-inline", "unsafe-eval", "http:", "https:", "'self'", "*", "data:"] {
            #expect(!policy.contains(forbidden), "policy allows \(forbidden): \(policy)")
        }
        // The hashes are those of the inline elements as written, and the page carries viewer/ as it
        // is now: the files are compiled into the binary, there is no second copy to fall behind.
        let scriptStart = try #require(html.range(of: "<script>"))
        let scriptEnd = try #require(html[scriptStart.upperBound...].range(of: "</script>"))
        let scriptBody = String(html[scriptStart.upperBound..<scriptEnd.lowerBound])
        let styleBody = "\n" + (try viewerSource("viewer.css"))
        #expect(policy.contains("'sha256-\(SHA256.base64(scriptBody))'"))
        #expect(policy.contains("'sha256-\(SHA256.base64(styleBody))'"))
        // Every line of every shipped module is in the script, but for the import and export lines
        // the combining rewrites (ViewerModuleTests).
        for file in ["format.js", "model.js", "timeline.js", "main.js"] {
            for line in try viewerSource(file).split(separator: "\n")
            where !line.hasPrefix("import ") && !line.hasPrefix("export ") {
                #expect(scriptBody.contains(line), "\(file): \(line)")
            }
        }
        // Self-contained: nothing is loaded from anywhere.
        for reference in ["<link", " src=", "href=\"http", "url("] {
            #expect(!html.contains(reference), "the export references \(reference)")
        }
        #expect(html.components(separatedBy: "<script").count - 1 == 2)
    }

    @Test("the file is created readable by its owner only, and replaces a wider one")
    func ownerOnly() throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("small.sqlite")
        try writeSmallStore(store)
        let out = directory.path("small.html")
        _ = FileManager.default.createFile(atPath: out, contents: Data("old".utf8), attributes: [.posixPermissions: 0o644])
        let message = try exportHTML([store], to: out)
        let mode = try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(message == "redacted 0 values\n")
    }

    @Test("</script> in trace text cannot close the data element")
    func dataIsEscaped() throws {
        let value = OrderedJSON.object([("label", .string("</script><script>alert(1)</script> & <!-- x"))])
        let text = value.compact(escapingHTML: true)
        #expect(!text.contains("<") && !text.contains(">") && !text.contains("&"))
        #expect(text == #"{"label":"\u003c/script\u003e\u003cscript\u003ealert(1)\u003c/script\u003e \u0026 \u003c!-- x"}"#)
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String]
        #expect(parsed?["label"] == "</script><script>alert(1)</script> & <!-- x")
    }

    @Test("the data: string ids, times from the run's start, summary and findings per run")
    func dataFormat() throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("small.sqlite")
        try writeSmallStore(store)
        let trace = try TraceLoader.load(path: store)
        let data = ViewerData.build([trace])
        let text = data.json.compact(escapingHTML: true)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["version"] as? Int == 1)
        let runs = try #require(object["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        let run = runs[0]
        #expect(run["runID"] as? String == String(trace.runs[0].run.runID))
        let requests = try #require(run["requests"] as? [[String: Any]])
        #expect(requests.count == 4)
        let first = requests[0]
        #expect(first["id"] as? String == String(trace.runs[0].requests[0].requestID))
        #expect(first["ts"] as? Int == 10_000_000)
        #expect(first["ttft"] as? Int == 123_000_000)
        #expect(first["cachedInputTokens"] as? Int == 1_000)
        let summary = try #require((object["summary"] as? [String: Any])?["runs"] as? [[String: Any]])
        #expect(summary.first?["requests"] as? Int == 4)
        let findings = try #require(object["findings"] as? [[String: Any]])
        for finding in findings {
            #expect(finding["run"] as? Int == 0)
            #expect(!((finding["eventIDs"] as? [String]) ?? []).isEmpty)
        }
        #expect(data.requestCount == 4 && data.toolCallCount == 3 && data.handoffCount == 1)
    }

    @Test("export redacts trace text again on the way out")
    func redactsAgain() throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("secret.sqlite")
        let script = try StoreScript(path: store, label: "secrets", capturePayloads: true)
        let session = script.session("mail ana@example.org", from: 0, to: 1_000)
        script.request(session: session, at: 10, dur: 500, ttft: 50,
                       prompt: "use key sk-proj-4f9Xc2Lm8Qw1Zr7Tn3Vb6Yh0Jd5Ks2Pa and write to ana@example.org")
        script.close()
        let out = directory.path("secret.html")
        let message = try exportHTML([store], to: out)
        let html = try String(contentsOfFile: out, encoding: .utf8)
        #expect(!html.contains("ana@example.org"))
        #expect(!html.contains("sk-proj-4f9Xc2Lm8Qw1Zr7Tn3Vb6Yh0Jd5Ks2Pa"))
        #expect(html.contains("[REDACTED:email]"))
        #expect(message.contains("redacted"))
    }

    @Test("bad command lines exit 2 with one sentence", arguments: [
        (["export", "--format", "pdf", "a.sqlite"], "unknown format 'pdf'"),
        (["export", "--format", "html"], "no store given"),
        (["export", "--format", "html", "a.sqlite", "b.sqlite", "c.sqlite"], "one store, or two to compare"),
        (["export", "--format", "html", "/nonexistent/store.sqlite"], "store.sqlite"),
        (["export", "a.sqlite"], "--format is required"),
    ])
    func usageErrors(_ arguments: [String], _ message: String) {
        let errors = Mutex("")
        let context = CommandContext(environment: [:], outputIsTerminal: false) { _ in }
        let status = TraceReport.main(arguments, context: context) { text in errors.withLock { $0 += text } }
        #expect(status == .usageOrInput)
        #expect(errors.withLock { $0 }.contains(message))
    }
}
