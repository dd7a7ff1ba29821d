import Foundation
import LTTngReader
import Redaction
import TestSupport
import Testing
import SessionTrace
import TraceModel
import TraceScenarios

@testable import TraceAnalysis
@testable import TraceExport

/// `trace-report export --format otlp --endpoint` against a real Arize Phoenix (PyPI, loopback):
/// real planner runs pushed as OTLP/HTTP protobuf, then read back through Phoenix's own API.
@Suite("OTLP push to Arize Phoenix", .serialized)
struct PhoenixPushTests {
    private let stores = ["run-1", "run-2"].map {
        packageRoot.appendingPathComponent("tracefiles/planner/\($0).sqlite").path
    }

    private let prices = packageRoot.appendingPathComponent("examples/prices.json").path
    /// Scenario stores recorded with payload capture: prompts, answers, tool arguments and results.
    private let captured = [Scenario.anthropicCache, .appendOnlyChat].map(scenarioPath)

    @Test func phoenixShowsEverySpanSessionTokenSumAndKind() throws {
        let phoenix = try Phoenix()
        for store in stores {
            let result = report(
                ["export", "--format", "otlp", "--endpoint", phoenix.url, "--prices", prices, "--project", "planner", store])
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
            spans = try phoenixSpans(phoenix, project: "planner")
            if spans.count >= expectedSpans { break }
            Thread.sleep(forTimeInterval: 0.5)
        }
        #expect(spans.count == expectedSpans)
        var kinds: [String: Int] = [:]
        for span in spans { kinds[span["span_kind"] as? String ?? "?", default: 0] += 1 }
        #expect(kinds == expectedKinds)
        #expect(kinds["LLM"] == 22 && kinds["TOOL"] == 6 && (kinds["AGENT"] ?? 0) > 0)

        #expect(try phoenixSpans(phoenix, project: "default").isEmpty, "--project files every span under it")
        // Every span ended: OK, or ERROR for a failure; none unset.
        #expect(spans.allSatisfy { ["OK", "ERROR"].contains($0["status_code"] as? String ?? "") })
        // --prices: the chat spans carry their dollars.
        let cost = spans.compactMap { attributes($0)["llm.cost.total"] as? Double }
        #expect(cost.count == 22 && cost.reduce(0, +) > 0, "\(cost)")

        let sessions = try phoenixSessions(phoenix)
        #expect(Set(sessions.keys) == Set(expectedSessions.keys), "each session is its own Phoenix session")
        for (id, expected) in expectedSessions {
            #expect(sessions[id]?.prompt == Double(expected.input), "prompt tokens of session \(id)")
            #expect(sessions[id]?.completion == Double(expected.output), "completion tokens of session \(id)")
            // A trace per user turn, and the session's own.
            #expect((sessions[id]?.traces ?? 0) >= 2, "session \(id) has its turns' traces")
        }
    }

    /// A payload-captured run: each LLM span shows its prompt and answer, each tool span its
    /// arguments and result, and each session its first input and last output.
    @Test func phoenixShowsTheCapturedText() throws {
        let phoenix = try Phoenix()
        var texts: [(kind: PayloadRecord.Kind, text: String)] = []
        var spanCount = 0
        for store in captured {
            let result = report(["export", "--format", "otlp", "--endpoint", phoenix.url, "--project", "captured", store])
            try #require(result.status == .success, "\(result.err)")
            let trace = try RedactedTrace.redact(TraceLoader.load(path: store), with: .standard)
            spanCount += OTLPExport.resourceSpans(trace).reduce(0) { $0 + $1.spans.count }
            texts += trace.trace.runs.flatMap(\.payloads).map { ($0.kind, $0.text) }
        }
        var spans: [[String: Any]] = []
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            spans = try phoenixSpans(phoenix, project: "captured")
            if spans.count >= spanCount { break }
            Thread.sleep(forTimeInterval: 0.5)
        }
        #expect(spans.count == spanCount)
        func values(_ kind: String, _ key: String) -> [String] {
            spans.filter { $0["span_kind"] as? String == kind }.compactMap { attributes($0)[key + ".value"] as? String }
        }
        let wanted: [PayloadRecord.Kind: (String, String)] = [
            .prompt: ("LLM", "input"), .response: ("LLM", "output"), .toolArguments: ("TOOL", "input"),
            .toolOutput: ("TOOL", "output"),
        ]
        var checked = 0
        for (kind, text) in texts {
            guard let (spanKind, key) = wanted[kind] else { continue }
            #expect(values(spanKind, key).contains(text), "\(kind.rawValue) not in a \(spanKind) span's \(key).value")
            checked += 1
        }
        #expect(checked >= 8)
        let sessions = try phoenixSessions(phoenix)
        #expect(!sessions.isEmpty)
        for (id, session) in sessions {
            #expect(!(session.firstInput ?? "").isEmpty && !(session.lastOutput ?? "").isEmpty, "session \(id)")
        }
    }

    /// A span's attributes by their dotted names, however Phoenix nests them.
    private func attributes(_ span: [String: Any]) -> [String: Any] {
        var flat: [String: Any] = [:]
        func walk(_ value: Any, _ prefix: String) {
            if let object = value as? [String: Any] {
                for (key, inner) in object { walk(inner, prefix.isEmpty ? key : prefix + "." + key) }
            } else {
                flat[prefix] = value
            }
        }
        walk(span["attributes"] ?? [:], "")
        return flat
    }

    private func curl(_ arguments: [String]) throws -> [String: Any] {
        let result = try runProgram("/usr/bin/curl", ["-sS", "--max-time", "20"] + arguments)
        try #require(result.status == 0, "curl failed: \(result.err)")
        return try parseJSON(result.out)
    }

    /// Every span of `project`, through Phoenix's REST API, page by page; none for a project that
    /// does not exist.
    private func phoenixSpans(_ phoenix: Phoenix, project: String) throws -> [[String: Any]] {
        var spans: [[String: Any]] = []
        var cursor: String?
        repeat {
            var url = "\(phoenix.url)/v1/projects/\(project)/spans?limit=1000"
            if let cursor { url += "&cursor=\(cursor)" }
            let result = try runProgram("/usr/bin/curl", ["-sS", "--max-time", "20", "-w", "\\n%{http_code}", url])
            let status = result.out.split(separator: "\n").last.map(String.init) ?? ""
            if status == "404" { return [] }
            let page = try parseJSON(String(result.out.dropLast(status.count + 1)))
            spans += page["data"] as? [[String: Any]] ?? []
            cursor = page["next_cursor"] as? String
        } while cursor != nil
        return spans
    }

    /// A Phoenix session, as its GraphQL API gives it.
    private struct PhoenixSession {
        var prompt: Double
        var completion: Double
        var traces: Int
        var firstInput: String?
        var lastOutput: String?
    }

    /// Phoenix's sessions: token sums, traces, first input and last output, through its GraphQL API.
    private func phoenixSessions(_ phoenix: Phoenix) throws -> [String: PhoenixSession] {
        let query = """
            { projects { edges { node { name sessions(first: 100) { edges { node {
                sessionId numTraces firstInput { value } lastOutput { value } tokenUsage { prompt completion } } } } } } } }
            """
        let body = String(decoding: try JSONSerialization.data(withJSONObject: ["query": query]), as: UTF8.self)
        let answer = try curl([
            "-X", "POST", "-H", "Content-Type: application/json", "--data-binary", body, "\(phoenix.url)/graphql",
        ])
        var sessions: [String: PhoenixSession] = [:]
        let projects = ((answer["data"] as? [String: Any])?["projects"] as? [String: Any])?["edges"] as? [[String: Any]]
        for project in projects ?? [] {
            let node = project["node"] as? [String: Any]
            for edge in (node?["sessions"] as? [String: Any])?["edges"] as? [[String: Any]] ?? [] {
                guard let session = edge["node"] as? [String: Any], let id = session["sessionId"] as? String,
                    let usage = session["tokenUsage"] as? [String: Any]
                else { continue }
                sessions[id] = PhoenixSession(
                    prompt: usage["prompt"] as? Double ?? -1, completion: usage["completion"] as? Double ?? -1,
                    traces: session["numTraces"] as? Int ?? 0,
                    firstInput: (session["firstInput"] as? [String: Any])?["value"] as? String,
                    lastOutput: (session["lastOutput"] as? [String: Any])?["value"] as? String)
            }
        }
        return sessions
    }
}
