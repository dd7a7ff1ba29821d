import Foundation
import LTTngReader
import Redaction
import TestSupport
import Testing
import TraceModel

@testable import TraceAnalysis
@testable import TraceExport

/// `trace-report export --format otlp --endpoint` against a real Arize Phoenix (PyPI, loopback):
/// real planner runs pushed as OTLP/HTTP protobuf, then read back through Phoenix's own API.
@Suite("OTLP push to Arize Phoenix", .serialized)
struct PhoenixPushTests {
    private let stores = ["run-1", "run-2"].map {
        packageRoot.appendingPathComponent("tracefiles/planner/\($0).sqlite").path
    }

    @Test func phoenixShowsEverySpanSessionTokenSumAndKind() throws {
        let phoenix = try Phoenix()
        for store in stores {
            let result = report(["export", "--format", "otlp", "--endpoint", phoenix.url, store])
            try #require(result.status == .success, "\(result.err)")
        }

        // What the pushes held, from the stores themselves.
        var expectedKinds: [String: Int] = [:]
        var expectedSessions: [String: (input: Int64, output: Int64)] = [:]
        var expectedSpans = 0
        for store in stores {
            let trace = try RedactedTrace.redact(TraceLoader.load(path: store), with: .standard)
            for resource in OTLPExport.resourceSpans(trace) {
                expectedSpans += resource.spans.count
                for span in resource.spans {
                    if case .string(let kind)? = span.attributes.first(where: { $0.key == "openinference.span.kind" })?.value {
                        expectedKinds[kind, default: 0] += 1
                    }
                }
            }
            for run in trace.trace.runs {
                for session in run.sessions {
                    let requests = run.requests(in: session.sessionID)
                    expectedSessions[String(session.sessionID)] = (
                        requests.reduce(0) { $0 + ($1.inputTokens ?? 0) },
                        requests.reduce(0) { $0 + ($1.outputTokens ?? 0) }
                    )
                }
            }
        }
        #expect(expectedSessions.count == 4)

        // Phoenix ingests in the background: wait until it lists every span, then compare.
        var spans: [[String: Any]] = []
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            spans = try phoenixSpans(phoenix)
            if spans.count >= expectedSpans { break }
            Thread.sleep(forTimeInterval: 0.5)
        }
        #expect(spans.count == expectedSpans)
        var kinds: [String: Int] = [:]
        for span in spans { kinds[span["span_kind"] as? String ?? "?", default: 0] += 1 }
        #expect(kinds == expectedKinds)
        #expect(kinds["LLM"] == 22 && kinds["TOOL"] == 6 && (kinds["AGENT"] ?? 0) > 0)

        let sessions = try phoenixSessions(phoenix)
        #expect(Set(sessions.keys) == Set(expectedSessions.keys), "each session is its own Phoenix session")
        for (id, expected) in expectedSessions {
            #expect(sessions[id]?.prompt == Double(expected.input), "prompt tokens of session \(id)")
            #expect(sessions[id]?.completion == Double(expected.output), "completion tokens of session \(id)")
        }
    }

    private func curl(_ arguments: [String]) throws -> [String: Any] {
        let result = try runProgram("/usr/bin/curl", ["-sS", "--max-time", "20"] + arguments)
        try #require(result.status == 0, "curl failed: \(result.err)")
        return try parseJSON(result.out)
    }

    /// Every span of the default project, through Phoenix's REST API, page by page.
    private func phoenixSpans(_ phoenix: Phoenix) throws -> [[String: Any]] {
        var spans: [[String: Any]] = []
        var cursor: String?
        repeat {
            var url = "\(phoenix.url)/v1/projects/default/spans?limit=1000"
            if let cursor { url += "&cursor=\(cursor)" }
            let page = try curl([url])
            spans += page["data"] as? [[String: Any]] ?? []
            cursor = page["next_cursor"] as? String
        } while cursor != nil
        return spans
    }

    /// Phoenix's sessions and their token sums, through its GraphQL API.
    private func phoenixSessions(_ phoenix: Phoenix) throws -> [String: (prompt: Double, completion: Double)] {
        let query = """
            { projects { edges { node { name sessions(first: 100) { edges { node {
                sessionId tokenUsage { prompt completion } } } } } } } }
            """
        let body = String(decoding: try JSONSerialization.data(withJSONObject: ["query": query]), as: UTF8.self)
        let answer = try curl([
            "-X", "POST", "-H", "Content-Type: application/json", "--data-binary", body, "\(phoenix.url)/graphql",
        ])
        var sessions: [String: (prompt: Double, completion: Double)] = [:]
        let projects = ((answer["data"] as? [String: Any])?["projects"] as? [String: Any])?["edges"] as? [[String: Any]]
        for project in projects ?? [] {
            let node = project["node"] as? [String: Any]
            for edge in (node?["sessions"] as? [String: Any])?["edges"] as? [[String: Any]] ?? [] {
                guard let session = edge["node"] as? [String: Any], let id = session["sessionId"] as? String,
                    let usage = session["tokenUsage"] as? [String: Any]
                else { continue }
                sessions[id] = (usage["prompt"] as? Double ?? -1, usage["completion"] as? Double ?? -1)
            }
        }
        return sessions
    }
}
