import Foundation
import SessionTrace
import Testing

@testable import LatencyGate
@testable import TraceAnalysis

/// One planner-like request: prompt and cached tokens, answer length, the model's text before it,
/// and the settings it asked with.
private func request(
    input: Int64, cached: Int64, output: Int64, earlier: Int64, cap: Int64 = 64, toolCalls: Int64 = 0,
    ttft: Int64 = 100_000_000, latency: Int64? = nil
) -> RequestSample {
    RequestSample(
        ttft: ttft, latency: latency ?? ttft + output * 10_000_000, tokensPerSecond: 100, toolCalls: toolCalls,
        inputTokens: input, cachedInputTokens: cached, outputTokens: output, maxTokens: cap, temperature: 0,
        earlierOutputTokens: earlier)
}

/// Two runs of the same requests, as one machine gives them at temperature 0.
private func side(_ requests: [RequestSample]) -> LatencyBaseline {
    let group = ScenarioSamples(
        key: ScenarioKey(scenario: "planner", profile: "plan-economy", model: "m"),
        runs: [1, 2].map { ScenarioSamples.Run(runID: $0, requests: requests) }, repeatedCalls: [])
    return LatencyBaseline(grouping: .label, sources: ["test"], groups: [group])
}

/// The figures of the issue: a baseline machine whose model wrote long answers (prompts of 525
/// tokens that carry them), and a machine whose model writes short ones (prompts of 116).
private let longAnswers = side((0..<3).map { _ in request(input: 525, cached: 509, output: 64, earlier: 600) })
private let shortAnswers = side((0..<3).map { _ in request(input: 116, cached: 100, output: 30, earlier: 200) })

private func evaluate(_ baseline: LatencyBaseline, _ current: LatencyBaseline, sameMachine: Bool = false)
    throws -> GateEvaluation
{
    var configuration = GateConfiguration()
    configuration.sameMachine = sameMachine
    return try GateEvaluation.evaluate(baseline: baseline, current: current, configuration: configuration)
}

private func row(_ result: GateEvaluation, _ key: String) throws -> GateEvaluation.Row {
    try #require(result.rows.first { $0.key.description == key })
}

@Suite("gate workload")
struct WorkloadTests {
    @Test func otherAnswersWithTheSameSettingsAreNamedAndNotARegression() throws {
        // The hit rate fell from 97% to 86%: the same 16 uncached tokens in a shorter prompt, which
        // the model's shorter text made. Beyond budget, but the gate cannot tell whose it is.
        let result = try evaluate(longAnswers, shortAnswers)
        #expect(result.passed, "\(result.text)")
        let workload = try #require(result.workloads.first)
        #expect(workload.kind == .otherAnswers)
        let cache = try row(result, "cache_hit_rate.mean")
        #expect(cache.verdict == .notComparable)
        #expect(!cache.restated)
        let line = try #require(result.notes.first { $0.hasPrefix("workload of 'planner / plan-economy / m'") })
        #expect(line.contains("output tokens a request 64 -> 30 (-53%)"))
        #expect(line.contains("prompt tokens p50 525 -> 116 (-78%)"))
        #expect(line.contains("same settings (cap 64, temperature 0)"))
        #expect(result.githubAnnotations.contains("::warning title=Workload differs%3A planner / plan-economy / m::"))
    }

    @Test func theSameWorkloadIsJudgedAsItStands() throws {
        let result = try evaluate(shortAnswers, shortAnswers)
        #expect(result.passed)
        #expect(result.workloads.map(\.kind) == [.same])
        #expect(result.rows.allSatisfy { !$0.restated })
        #expect(!result.notes.contains { $0.hasPrefix("workload") })
    }

    @Test func aPromptThatGrewWithOtherAnswersIsNotComparableAcrossMachinesAndARegressionOnOne() throws {
        // Answers 30 -> 60 tokens, and 150 more tokens of the model's text before each request: how
        // much of the prompt's growth is the model's text the counts cannot tell.
        let bloated = side((0..<3).map { _ in request(input: 520, cached: 100, output: 60, earlier: 350) })
        let across = try evaluate(shortAnswers, bloated)
        #expect(across.workloads.map(\.kind) == [.otherAnswers])
        #expect(try row(across, "input_tokens.p50").verdict == .notComparable, "\(across.text)")
        #expect(across.passed)
        // On one machine and server, the change made the model write otherwise: judged as it stands.
        let same = try evaluate(shortAnswers, bloated, sameMachine: true)
        #expect(same.workloads.map(\.kind) == [.changedAnswers])
        let input = try row(same, "input_tokens.p50")
        #expect(input.verdict == .regression, "\(same.text)")
        #expect(!input.restated && input.currentValue == 520)
        #expect(same.notes.contains { $0.contains("on the same machine, so the change made it") })
    }

    @Test func answersTenPercentLongerAreOtherAnswers() throws {
        // 30 -> 34 output tokens (+13%, under the floor of 8) but 200 -> 236 tokens of earlier text
        // (+18%, over its floor of 32): a prompt that carries it grows by up to 18%, near the
        // input_tokens budget of +20%, so the text already counts as other.
        let longer = side((0..<3).map { _ in request(input: 137, cached: 100, output: 34, earlier: 236) })
        #expect(try evaluate(shortAnswers, longer).workloads.map(\.kind) == [.otherAnswers])
        let slightly = side((0..<3).map { _ in request(input: 120, cached: 100, output: 32, earlier: 215) })
        #expect(try evaluate(shortAnswers, slightly).workloads.map(\.kind) == [.same])
    }

    @Test func aCacheThatStopsServingFailsWhenTheAnswersAreTheSame() throws {
        // The same answers and prompts, but 80 of 116 tokens uncached instead of 16.
        let broken = side((0..<3).map { _ in request(input: 116, cached: 36, output: 30, earlier: 200) })
        let result = try evaluate(shortAnswers, broken)
        #expect(result.workloads.map(\.kind) == [.same])
        let cache = try row(result, "cache_hit_rate.mean")
        #expect(cache.verdict == .regression, "\(result.text)")
        #expect(abs((cache.currentValue ?? 0) - 36.0 / 116) < 0.001)
    }

    @Test func longerAnswersAskedForWithAnotherCapCountInLatency() throws {
        let capped = side((0..<3).map { _ in request(input: 116, cached: 100, output: 64, earlier: 200) })
        let longer = (0..<3).map { _ in request(input: 116, cached: 100, output: 300, earlier: 200, cap: 320) }
        let asked = try evaluate(capped, side(longer))
        #expect(asked.workloads.map(\.kind) == [.otherSettings])
        #expect(try row(asked, "latency.p50").verdict == .regression, "\(asked.text)")
        // The same answers with the cap unchanged are the model's: latency at the baseline's length.
        let unasked = try evaluate(capped, side(longer.map { var copy = $0; copy.maxTokens = 64; return copy }))
        #expect(unasked.workloads.map(\.kind) == [.otherAnswers])
        let latency = try row(unasked, "latency.p50")
        #expect(latency.restated)
        #expect(latency.verdict == .pass, "\(unasked.text)")
    }

    @Test func toolCallsThatFollowOtherAnswersAreNotComparable() throws {
        let calling = side((0..<3).map { _ in request(input: 116, cached: 100, output: 30, earlier: 200, toolCalls: 2) })
        let result = try evaluate(longAnswers, calling)
        let tools = try row(result, "tool_calls.mean")
        #expect(tools.verdict == .notComparable)
        #expect(result.passed)
        #expect(result.summaryLine.contains("2 beyond budget but not comparable"))  // tool calls and the hit rate
        #expect(result.junit.contains("<skipped message=\"not comparable: tool_calls.mean went from"))
        #expect(result.githubAnnotations.contains("::warning title=Tool calls beyond budget%2C not comparable"))
        // On the same workload, the same calls are a regression.
        let sameWorkload = side((0..<3).map { _ in request(input: 525, cached: 509, output: 64, earlier: 600, toolCalls: 2) })
        #expect(try row(evaluate(longAnswers, sameWorkload), "tool_calls.mean").verdict == .regression)
    }

    @Test func jsonCarriesTheWorkloadAndWhatWasNotComparable() throws {
        let json = try evaluate(longAnswers, shortAnswers).json.serialized()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let workloads = try #require(object["workloads"] as? [[String: Any]])
        #expect(workloads.first?["kind"] as? String == "other answers")
        #expect(workloads.first?["baseline_prompt_tokens"] as? Double == 525)
        #expect(workloads.first?["current_output_tokens"] as? Double == 30)
        #expect(workloads.first?["baseline_earlier_output_tokens"] as? Double == 600)
        let checks = try #require(object["checks"] as? [[String: Any]])
        #expect(checks.contains { $0["metric"] as? String == "cache_hit_rate.mean" && $0["verdict"] as? String == "not comparable" })
        #expect(checks.allSatisfy { $0["restated"] as? Bool == false })
    }

    @Test func earlierTextCountsRequestsThatEndedBeforeEachBegan() {
        let requests = [
            RequestRecord(requestID: 1, ts: 0, dur: 10, outputTokens: 5),
            RequestRecord(requestID: 2, ts: 5, dur: 10, outputTokens: 7),  // overlaps the first
            RequestRecord(requestID: 3, ts: 20, dur: 1, outputTokens: nil),
            RequestRecord(requestID: 4, ts: 30, dur: 1, outputTokens: 2),
        ]
        #expect(LatencyBaseline.earlierOutputTokens(of: requests) == [0, 0, 12, 12])
        #expect(LatencyBaseline.earlierOutputTokens(of: requests.reversed()) == [12, 12, 0, 0])
    }
}
