import Foundation
import TestSupport
import Testing

@testable import TraceAnalysis
@testable import TraceReportCLI

/// The push's answers to a back end that is busy or refuses. Phoenix cannot be made to answer
/// 429 or 503 on demand, so a small HTTP server in Python answers as told and logs each POST.
@Suite("OTLP push retries", .serialized)
struct OTLPRetryTests {
    private static let server = #"""
        import http.server, json, sys
        directory, answers, log = sys.argv[1], sys.argv[2].split(","), []
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                status = int(answers[min(len(log), len(answers) - 1)])
                log.append({"path": self.path, "type": self.headers["Content-Type"], "bytes": len(body),
                            "auth": self.headers.get("Authorization")})
                json.dump(log, open(directory + "/log.json", "w"))
                if status == 0:  # a back end that took the request and never answers
                    __import__("time").sleep(3600)
                reason = b"" if status < 400 or status in (429, 503) else b"span refused\n"
                self.send_response(status)
                if status == 503: self.send_header("Retry-After", "0")
                self.send_header("Content-Length", str(len(reason)))
                self.end_headers()
                self.wfile.write(reason)
            def log_message(self, *args): pass
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        open(directory + "/port.tmp", "w").write(str(server.server_address[1]))
        __import__("os").rename(directory + "/port.tmp", directory + "/port")
        server.serve_forever()
        """#

    /// Pushes run 1 of the planner to a server that gives `answers` in turn; the result and its log.
    private func push(answers: String, options: [String] = []) throws
        -> (status: ReportExitStatus, err: String, log: [[String: Any]])
    {
        let directory = try TemporaryDirectory()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", Self.server, directory.url.path, answers]
        try process.run()
        // SIGKILL: the test process may hand its children SIGTERM blocked.
        defer { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        let portFile = directory.path("port")
        let deadline = ContinuousClock.now + .seconds(10)
        while !FileManager.default.fileExists(atPath: portFile), ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        let port = try #require(Int(try String(contentsOfFile: portFile, encoding: .utf8)))
        let store = packageRoot.appendingPathComponent("tracefiles/planner/run-1.sqlite").path
        let result = report([
            "export", "--format", "otlp", "--endpoint", "http://127.0.0.1:\(port)",
            "--header", "Authorization=Bearer%20t0ken",
        ] + options + [store])
        let log = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.url.appendingPathComponent("log.json")))
        return (result.status, result.err, try #require(log as? [[String: Any]]))
    }

    @Test func busyAnswersAreRetriedWithTheSameBatch() throws {
        let (status, err, log) = try push(answers: "503,429,200")
        #expect(status == .success, "\(err)")
        #expect(log.count == 3)
        #expect(log.allSatisfy { $0["path"] as? String == "/v1/traces" })
        #expect(log.allSatisfy { $0["type"] as? String == "application/x-protobuf" })
        #expect(log.allSatisfy { $0["auth"] as? String == "Bearer t0ken" })
        #expect(Set(log.compactMap { $0["bytes"] as? Int }).count == 1, "the same batch each time")
    }

    @Test func aRefusalStopsThePushWithOneSentence() throws {
        let (status, err, log) = try push(answers: "400")
        #expect(status == .usageOrInput)
        #expect(log.count == 1, "a refusal is not retried")
        #expect(err.contains("answered HTTP 400: span refused"), "\(err)")
    }

    /// A back end that takes the request and never answers, and one that answers 429 forever: the
    /// push ends at its deadline with what it delivered, and exits 2.
    @Test(arguments: ["0", "429"])
    func aStalledOrBusyBackEndEndsThePushAtItsDeadline(answer: String) throws {
        let started = ContinuousClock.now
        let (status, err, _) = try push(answers: answer, options: ["--timeout", "2s"])
        let took = ContinuousClock.now - started
        #expect(status == .usageOrInput, "\(err)")
        #expect(err.contains("delivered 0 of ") && err.contains("(0 of 1 batches) before it stopped"), "\(err)")
        #expect(err.contains("2 s deadline") || err.contains("2.00 s deadline"), "\(err)")
        #expect(err.split(separator: "\n").count == 1)
        // The deadline, not the 60 s attempt or the ten retries, ended it (a loose bound: not a timing test).
        #expect(took < .seconds(30), "the push took \(took)")
    }

    @Test func aTimeoutNeedsAnEndpointAndAPlausibleDuration() {
        let store = packageRoot.appendingPathComponent("tracefiles/planner/run-1.sqlite").path
        let alone = report(["export", "--format", "otlp", "--timeout", "5s", store])
        #expect(alone.status == .usageOrInput && alone.err.contains("--timeout goes with --endpoint"))
        let huge = report(["export", "--format", "otlp", "--endpoint", "http://127.0.0.1:9", "--timeout", "1e30s", store])
        #expect(huge.status == .usageOrInput && huge.err.contains("--timeout"), "\(huge.err)")
    }
}
