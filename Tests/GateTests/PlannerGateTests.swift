import Foundation
import TestSupport
import Testing

@testable import TraceAnalysis

/// The gate against the real planner on the real llama.cpp server: unchanged runs pass, and each
/// real regression fails on its own metric and on no other. Serialized: one model server at a
/// time on a two-core machine. Five planner runs in all (two unchanged, shared; three regressed).
@Suite("gate on real planner runs", .serialized)
struct PlannerGateTests {
    /// A planner change that makes one thing worse, and the one check that must catch it.
    struct Regression: Sendable, CustomTestStringConvertible {
        var name: String
        var options: [String]
        var failingKey: String
        /// Metrics the same change may also move, for a physical reason, without being wrong.
        var mayAlsoFail: Set<String> = []
        var testDescription: String { name }
    }

    static let cases = [
        // Filler notes in the plan instructions: prompts grow, the cache serves the rest.
        // A prompt 4.5 times larger (114 -> 519 tokens) also takes longer to process, so time to first
        // token and latency may rise with it (measured: latency.p50 +52%, CI +352 ms .. +2.48 s).
        Regression(
            name: "prompt-bloat", options: ["--bloat", "12"], failingKey: "input_tokens.p50",
            mayAlsoFail: ["ttft.p50", "latency.p50"]),
        // Economy mode's rolling window from the first turn: history is dropped, the cache misses.
        Regression(name: "rolling-window", options: ["--economy-after", "0"], failingKey: "cache_hit_rate.mean"),
        // Five times the response cap for the plan turns: the same prompts, much longer answers.
        // Longer answers also generate more slowly per token on SmolLM2 on CPU (measured on a quiet
        // machine: 49.6 -> 23.4 tok/s), so the rate may fail with the latency; nothing else may.
        Regression(
            name: "more-output-tokens", options: ["--max-tokens", "320"], failingKey: "latency.p50",
            mayAlsoFail: ["tokens_per_second.p50"]),
    ]

    @Test func twoUnchangedRunsPassAgainstTheCheckedInBaseline() throws {
        let runs = try PlannerRuns.unchangedRuns()
        let result = try runProgram(
            try builtProgram("trace-report"), ["gate", "--baseline", checkedInBaseline, "--github"] + runs)
        #expect(result.status == 0, "\(result.out)\(result.err)")
        #expect(result.out.contains("gate: PASS"))
        #expect(!result.out.contains("::error"))
    }

    @Test(arguments: cases)
    func regressionFailsOnItsMetricAndNoOther(_ regression: Regression) throws {
        let report = try builtProgram("trace-report")
        let directory = try TemporaryDirectory()
        // Against a baseline of this machine's unchanged runs of a moment ago, so a quiet or a
        // busy CI machine compares like with like.
        let baseline = directory.path("fresh-baseline.json")
        let made = try runProgram(report, ["baseline", "--out", baseline] + (try PlannerRuns.unchangedRuns()))
        try #require(made.status == 0, "\(made.err)")
        let run = try PlannerRuns.record(regression.name, extra: regression.options)
        let junit = directory.path("gate.xml")
        let result = try runProgram(
            report, ["gate", "--baseline", baseline, "--min-samples", "2", "--github", "--junit", junit, run])
        #expect(result.status == 1, "\(result.out)\(result.err)")
        let failing = regressions(inAnnotations: result.out)
        #expect(!failing.isEmpty, "\(result.out)")
        let keys = Set(failing.map(\.key))
        #expect(keys.contains(regression.failingKey), "\(result.out)")
        #expect(keys.isSubset(of: regression.mayAlsoFail.union([regression.failingKey])), "\(result.out)")
        #expect(failing.allSatisfy { $0.scenario.hasPrefix("planner / plan") }, "\(result.out)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.components(separatedBy: "<failure ").count - 1 == failing.count)
        #expect(xml.contains("name=\"\(regression.failingKey)\""))
    }
}
