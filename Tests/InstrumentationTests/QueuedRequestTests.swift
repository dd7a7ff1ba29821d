import Foundation
import ModelSession
import SessionInstrumentation
import SessionTrace
import TestSupport
import Testing
import TraceStore

extension RealModelTests {
    /// Two sessions ask the single-slot llama.cpp server at once: one request waits in the
    /// server's queue while the other generates. Its time to first token is long, but its prompt
    /// processing is not, so `check` names it as a wait the prompt does not explain, and `summary`
    /// splits both waits exactly as the store's own figures do.
    @Test func aRequestQueuedBehindAnotherIsAnUnexplainedWait() async throws {
        let model = try model()
        let (reader, runID) = try await recorded { tracer in
            func ask(_ label: String) async throws {
                let session = LanguageModelSession(
                    model: model, label: label, instructions: "You are a helpful assistant.",
                    middleware: [TracingMiddleware(tracer: tracer)])
                _ = try await session.respond(
                    to: "Count from 1 to 100, separated by commas.",
                    options: GenerationOptions(temperature: 0, maximumResponseTokens: 48))
            }
            async let first: Void = ask("first")
            async let second: Void = ask("second")
            _ = try await (first, second)
        }
        let requests = try reader.requests(runID: runID)
        try #require(requests.count == 2)
        let rests = try requests.map { request in
            let ttft = try #require(request.timeToFirstToken)
            let prompt = try #require(request.serverTimings?.promptDuration)
            return (request, ttft - min(prompt, ttft))
        }.sorted { $0.1 < $1.1 }
        let (queued, queuedRest) = rests[1]
        // The queued request waited out the other's whole generation: far more than its own prompt.
        #expect(queuedRest > 250_000_000, "rests \(rests.map(\.1))")

        let store = reader.path
        let check = try runProgram(try builtProgram("trace-report"), ["check", "--json", store])
        try #require(check.status == 0, "\(check.err)")
        let findings = try #require(
            (try JSONSerialization.jsonObject(with: Data(check.out.utf8)) as? [String: Any])?["findings"]
                as? [[String: Any]])
        let waits = findings.filter { $0["kind"] as? String == "unexplained_ttft" }
        #expect(waits.count == 1, "\(findings)")
        #expect(waits.first?["request_ids"] as? [String] == [String(queued.requestID)])

        let summary = try runProgram(try builtProgram("trace-report"), ["summary", "--json", store])
        try #require(summary.status == 0, "\(summary.err)")
        let run = try #require(
            ((try JSONSerialization.jsonObject(with: Data(summary.out.utf8)) as? [String: Any])?["runs"]
                as? [[String: Any]])?.first)
        let split = try #require(run["ttft_split"] as? [String: Any])
        #expect(split["requests"] as? Int == 2)
        // Nearest-rank median of two values: the lower one.
        #expect(split["rest_p50_ns"] as? Int == Int(rests[0].1))
        let prompts = rests.map { request, rest in request.timeToFirstToken! - rest }.sorted()
        #expect(split["server_prompt_p50_ns"] as? Int == Int(prompts[0]))
    }
}
