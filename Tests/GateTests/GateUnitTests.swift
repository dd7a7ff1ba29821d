import Foundation
import Reproducible
import TestSupport
import Testing
import TraceStore

@testable import LatencyGate
@testable import TraceAnalysis
@testable import TraceModel
@testable import TraceReportCLI

/// Samples with a given centre and a spread, deterministic: `count` values around `centre`.
private func samples(centre: Double, spread: Double, count: Int, seed: UInt64) -> [RequestSample] {
    var generator = SplitMix64(seed: seed)
    return (0..<count).map { _ in
        let latency = centre * (1 + spread * Double.random(in: -1...1, using: &generator))
        return RequestSample(
            ttft: Int64(latency / 4), latency: Int64(latency), tokensPerSecond: 1e10 / latency, toolCalls: 1,
            inputTokens: 200, cachedInputTokens: 150)
    }
}

private func group(_ runs: [[RequestSample]], repeated: [RepeatedCall] = []) -> ScenarioSamples {
    ScenarioSamples(
        key: ScenarioKey(scenario: "demo", profile: "plan", model: "m"),
        runs: runs.enumerated().map { ScenarioSamples.Run(runID: Int64($0.offset + 1), requests: $0.element) },
        repeatedCalls: repeated)
}

private func baseline(_ group: ScenarioSamples) -> LatencyBaseline {
    LatencyBaseline(grouping: .label, sources: ["test"], groups: [group])
}

@Suite("budget grammar")
struct BudgetGrammarTests {
    @Test func ratioAndFloor() throws {
        let budget = try #require(try GateBudget.parse("ttft.p95: +15% and +50ms"))
        #expect(budget.key == MetricKey(.ttft, .percentile(95)))
        #expect(budget.relative == 0.15)
        #expect(budget.absolute == 50e6)
        #expect(budget.description == "ttft.p95: +15% and +50.0 ms")
    }

    @Test func unitsPerMetric() throws {
        #expect(try GateBudget.parse("latency.p50: +0.2s")?.absolute == 2e8)
        #expect(try GateBudget.parse("tokens_per_second.p50: -20% and -2tok/s")?.absolute == 2)
        #expect(try GateBudget.parse("cache_hit_rate.overall: -3pt")?.absolute == 0.03)
        #expect(try GateBudget.parse("input_tokens.mean: +10% and +64 tokens")?.absolute == 64)
        #expect(try GateBudget.parse("tool_calls.p95: 1")?.absolute == 1)
        #expect(try GateBudget.parse("repeated_tool_calls.new: +0")?.absolute == 0)
        #expect(try GateBudget.parse("ttft.p99.9: +10%")?.key.statistic == .percentile(99.9))
        #expect(try GateBudget.parse("ttft.p95: off") == nil)
    }

    @Test(arguments: [
        ("ttft.p95 +15%", "a budget reads"),
        ("speed.p50: +1%", "unknown budget metric"),
        ("ttft.median: +1%", "takes the statistic"),
        ("cache_hit_rate.new: 0", "takes the statistic"),
        ("ttft.p50: -15%", "takes '+'"),
        ("tokens_per_second.p50: +15%", "takes '-'"),
        ("ttft.p50: +15 apples", "needs a ratio"),
        ("ttft.p50: +15% and", "empty limit"),
        ("ttft.p50: +1ms and +2ms", "two absolute limits"),
        // Numbers a user can write but no run can reach: refused, never a trap later.
        ("ttft.p50: +1e19ns", "beyond any value a run can have"),
        ("latency.p95: +1e300s", "beyond any value a run can have"),
        ("input_tokens.p50: +1e20", "beyond any value a run can have"),
    ])
    func badBudgetsSayWhy(text: String, expected: String) {
        #expect {
            _ = try GateBudget.parse(text)
        } throws: { error in
            (error as? BudgetError)?.message.contains(expected) == true
        }
    }

    @Test func aRegressionMustExceedBothLimits() throws {
        let budget = try #require(try GateBudget.parse("latency.p50: +15% and +50ms"))
        #expect(!budget.isExceeded(base: 100e6, delta: 40e6))  // +40%, under the floor
        #expect(!budget.isExceeded(base: 2e9, delta: 100e6))  // over the floor, +5%
        #expect(budget.isExceeded(base: 1e9, delta: 200e6))
        #expect(!budget.isExceeded(base: 1e9, delta: -900e6))  // faster is never a regression
        let rate = try #require(try GateBudget.parse("tokens_per_second.p50: -20% and -2tok/s"))
        #expect(rate.isExceeded(base: 50, delta: -20))
        #expect(!rate.isExceeded(base: 50, delta: 20))
    }

    @Test func configFileOverridesDefaultsLineByLine() throws {
        var configuration = GateConfiguration()
        try configuration.apply(configText: """
            # CI budgets
            min-samples: 5
            ttft.p95: +15% and +50ms   # tail latency
            ttft.p50: off

            """, path: "gate.conf")
        #expect(configuration.minSamples == 5)
        let keys = configuration.budgets.map(\.key.description)
        #expect(keys.contains("ttft.p95"))
        #expect(!keys.contains("ttft.p50"))
        #expect(keys.contains("latency.p50"))
        try configuration.apply(budgetList: "latency.p50: +1%; input_tokens.mean: +5%")
        #expect(configuration.budgets.first { $0.key.description == "latency.p50" }?.relative == 0.01)
        #expect(throws: BudgetError.self) { try configuration.apply(configText: "ttft.p50 +1%\n", path: "x") }
    }
}

@Suite("statistics")
struct StatisticsTests {
    @Test func bootstrapIsDeterministic() {
        let before = group([samples(centre: 1e9, spread: 0.3, count: 20, seed: 1)])
        let after = group([samples(centre: 1.1e9, spread: 0.3, count: 20, seed: 2)])
        let keys = [MetricKey(.latency, .percentile(50)), MetricKey(.ttft, .percentile(95))]
        let first = Bootstrap().intervals(baseline: before, current: after, keys: keys)
        let second = Bootstrap().intervals(baseline: before, current: after, keys: keys)
        #expect(first == second)
        #expect(first.count == 2)
    }

    @Test func sameDistributionIsNoiseAndAShiftIsNot() throws {
        let before = group([samples(centre: 1e9, spread: 0.4, count: 30, seed: 3)])
        let same = group([samples(centre: 1e9, spread: 0.4, count: 30, seed: 4)])
        let slower = group([samples(centre: 2e9, spread: 0.4, count: 30, seed: 5)])
        let key = MetricKey(.latency, .percentile(50))
        let noise = try #require(Bootstrap().intervals(baseline: before, current: same, keys: [key])[key])
        #expect(!noise.excludesZero)
        let shift = try #require(Bootstrap().intervals(baseline: before, current: slower, keys: [key])[key])
        #expect(shift.isWorse(for: .latency))
        #expect(shift.lower > 0.5e9 && shift.upper < 1.5e9)
    }

    @Test func runToRunSpreadWidensTheInterval() throws {
        // Baseline runs on a machine whose load varied: one run twice as slow as the others.
        let runs = [
            samples(centre: 1e9, spread: 0.1, count: 10, seed: 6), samples(centre: 2e9, spread: 0.1, count: 10, seed: 7),
            samples(centre: 1e9, spread: 0.1, count: 10, seed: 8),
        ]
        let slowRun = group([samples(centre: 1.8e9, spread: 0.1, count: 10, seed: 9)])
        let key = MetricKey(.latency, .percentile(50))
        let pooled = try #require(
            Bootstrap().intervals(baseline: group([runs.flatMap { $0 }]), current: slowRun, keys: [key])[key])
        let byRun = try #require(Bootstrap().intervals(baseline: group(runs), current: slowRun, keys: [key])[key])
        #expect(pooled.isWorse(for: .latency))  // requests alone: looks like a regression
        #expect(!byRun.isWorse(for: .latency))  // runs: within what the baseline's load did
    }
}

@Suite("gate evaluation")
struct GateEvaluationTests {
    @Test func slowerBeyondBudgetAndNoiseIsARegressionOnThatMetricOnly() throws {
        let before = baseline(group([samples(centre: 1e9, spread: 0.2, count: 20, seed: 10)]))
        let after = baseline(group([samples(centre: 2.5e9, spread: 0.2, count: 20, seed: 11)]))
        var configuration = GateConfiguration()
        try configuration.apply(budgetList: "ttft.p50: off; tokens_per_second.p50: off")
        let result = try GateEvaluation.evaluate(baseline: before, current: after, configuration: configuration)
        #expect(!result.passed)
        #expect(result.regressions.map(\.key.description) == ["latency.p50"])
        #expect(result.junit.contains("<failure message=\"latency.p50 went from "))
        #expect(result.githubAnnotations.contains("::error title=Latency regression%3A demo / plan / m latency.p50::"))
        #expect(result.json.serialized().contains(#""latency.p50""#))
        #expect(result.markdown.contains("### ❌ Latency gate failed"))
        #expect(result.text.contains("gate: FAIL, 1 regression"))
    }

    /// A failing evaluation with a check of every verdict, in a scenario named with XML's
    /// special characters.
    private func everyVerdict() throws -> GateEvaluation {
        let before = baseline(group([samples(centre: 1e9, spread: 0.2, count: 20, seed: 10)]))
        let after = baseline(group([samples(centre: 2.5e9, spread: 0.2, count: 20, seed: 11)]))
        var result = try GateEvaluation.evaluate(baseline: before, current: after)
        try #require(result.rows.count >= 4 && !result.passed)
        result.rows[1].verdict = .noise
        result.rows[2].verdict = .noData
        result.rows[3].group = ScenarioKey(scenario: "a <b> & \"c\" 'd'", profile: "plan", model: "m")
        return result
    }

    @Test("JUnit output is valid against the common JUnit schema, checked by xmllint")
    func junitValidatesAgainstTheSchema() throws {
        let result = try everyVerdict()
        let directory = try TemporaryDirectory()
        let schema = directory.path("junit.xsd")
        let report = directory.path("gate.xml")
        try junitSchema.write(toFile: schema, atomically: true, encoding: .utf8)
        try result.junit.write(toFile: report, atomically: true, encoding: .utf8)
        let xmllint = "/usr/bin/xmllint"
        try #require(FileManager.default.isExecutableFile(atPath: xmllint), "install libxml2-utils (scripts/install-deps.sh)")
        let checked = try runProgram(xmllint, ["--noout", "--schema", schema, report])
        #expect(checked.status == 0, "\(checked.err)\n\(result.junit)")
        #expect(checked.err.contains("validates"))
        // Every suite carries the counts the schema requires, and they add up.
        let suites = result.junit.components(separatedBy: "<testsuite ").dropFirst()
        #expect(suites.count == Set(result.rows.map(\.group)).count)
        #expect(suites.allSatisfy { $0.contains(" errors=\"0\"") && $0.contains(" failures=\"") })
    }

    @Test("GitHub annotation titles name the metric that regressed")
    func annotationTitlesNameTheMetric() throws {
        let result = try everyVerdict()
        let titles = result.githubAnnotations.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("::error") || line.hasPrefix("::warning") else { return nil }
            return line.split(separator: "=", maxSplits: 1)[1].components(separatedBy: "::")[0]
        }
        let flagged = result.rows.filter { $0.verdict == .regression || $0.verdict == .noise }
        #expect(titles.count == flagged.count)
        for (title, row) in zip(titles, flagged) {
            #expect(title.hasPrefix(row.key.metric.title + (row.verdict == .noise ? " beyond budget" : " regression")))
            #expect(title.hasSuffix(" " + row.key.description))
        }
        #expect(Set(titles.map { $0.prefix { $0 != " " } }).count > 1, "\(titles)")
    }

    /// Cost is priced from tokens, both sides with the one table `--prices` gives: twice the
    /// output of the plan requests (asked for with twice the cap) at the same prices regresses
    /// `cost.mean` there and nowhere else; without prices the metric has no data, never a zero.
    @Test func costBudgetPricesBothSidesWithOneTable() throws {
        let prices = try PriceTable.load(path: packageRoot.appendingPathComponent("examples/prices.json").path)
        let runs = (1...4).map { packageRoot.appendingPathComponent("tracefiles/planner/run-\($0).sqlite").path }
        let before = try LatencyBaseline.make(paths: Array(runs[0..<2]), grouping: .label)
        var after = try LatencyBaseline.make(paths: Array(runs[2..<4]), grouping: .label)
        for index in after.groups.indices where after.groups[index].key.profile == "plan" {
            for run in after.groups[index].runs.indices {
                after.groups[index].runs[run].requests = after.groups[index].runs[run].requests.map { request in
                    var longer = request
                    longer.usage.outputTokens = request.outputTokens.map { $0 * 2 }
                    longer.maxTokens = request.maxTokens.map { $0 * 2 }
                    return longer
                }
            }
        }
        let configuration = GateConfiguration(budgets: [try #require(try GateBudget.parse("cost.mean: +10%"))], minSamples: 2)
        let unpriced = try GateEvaluation.evaluate(baseline: before, current: after, configuration: configuration)
        #expect(!unpriced.rows.isEmpty && unpriced.rows.allSatisfy { $0.verdict == .noData })
        let priced = try GateEvaluation.evaluate(
            baseline: before.priced(by: prices), current: after.priced(by: prices), configuration: configuration)
        let verdicts = Dictionary(priced.rows.map { ($0.group.profile, $0.verdict) }, uniquingKeysWith: { $1 })
        #expect(verdicts["plan"] == .regression, "\(priced.text)")
        #expect(verdicts["default"] == .pass, "\(priced.text)")
    }

    @Test func sameDistributionPasses() throws {
        let before = baseline(group([samples(centre: 1e9, spread: 0.5, count: 20, seed: 12)]))
        let after = baseline(group([samples(centre: 1e9, spread: 0.5, count: 20, seed: 13)]))
        let result = try GateEvaluation.evaluate(baseline: before, current: after)
        #expect(result.passed, "\(result.text)")
        #expect(result.markdown.hasPrefix("### ✅ Latency gate passed"))
    }

    @Test func behaviourGates() throws {
        let calm = samples(centre: 1e9, spread: 0.1, count: 10, seed: 14)
        var busy = calm
        for index in busy.indices {
            busy[index].toolCalls = 3
            busy[index].usage.inputTokens = 400
            busy[index].usage.cachedInputTokens = 40
        }
        let repeated = RepeatedCall(kind: "loop", session: "context", tool: "search_notes")
        let result = try GateEvaluation.evaluate(
            baseline: baseline(group([calm])), current: baseline(group([busy], repeated: [repeated])))
        #expect(Set(result.regressions.map(\.key.description)) == [
            "tool_calls.mean", "input_tokens.p50", "cache_hit_rate.mean", "repeated_tool_calls.new",
        ])
        #expect(result.regressions.contains { $0.message.contains("loop search_notes in context") })
    }

    @Test func tooFewSamplesNamesTheScenarioAndCount() {
        let before = baseline(group([samples(centre: 1e9, spread: 0.1, count: 10, seed: 15)]))
        let after = baseline(group([samples(centre: 1e9, spread: 0.1, count: 2, seed: 16)]))
        #expect {
            _ = try GateEvaluation.evaluate(baseline: before, current: after)
        } throws: { error in
            "\(error)" == "scenario 'demo / plan / m' has 2 requests in the current runs, fewer than the 3 needed "
                + "(--min-samples); record more runs"
        }
    }

    @Test func annotationsCannotBeEndedEarlyByALabel() {
        #expect(GateEvaluation.githubProperty("a: b, c%\nd") == "a%3A b%2C c%25^Jd")  // control characters are shown, not sent
        #expect(GateEvaluation.xmlEscaped("<a href=\"x\">&'") == "&lt;a href=&quot;x&quot;&gt;&amp;&apos;")
        #expect(GateEvaluation.markdownEscaped("a|b") == "a\\|b")
    }
}

@Suite("baseline files")
struct BaselineFileTests {
    let scenarios = ["tool-loop", "rolling-window", "prompt-bloat", "model-switch"].map {
        packageRoot.appendingPathComponent("tracefiles/scenarios/\($0).sqlite").path
    }

    @Test(arguments: ScenarioGrouping.allCases)
    func roundTripKeepsEverySample(grouping: ScenarioGrouping) throws {
        let made = try LatencyBaseline.make(paths: scenarios, grouping: grouping)
        #expect(!made.groups.isEmpty)
        let directory = try TemporaryDirectory()
        try made.write(path: directory.path("b.json"))
        let text = try String(contentsOfFile: directory.path("b.json"), encoding: .utf8)
        #expect(text.contains(#""run_id": ""#), "ids are strings")
        #expect(text.range(of: #""run_id": [0-9-]"#, options: .regularExpression) == nil, "no id as a number")
        let read = try LatencyBaseline.read(path: directory.path("b.json"))
        #expect(read.grouping == grouping)
        #expect(read.groups.map(\.key) == made.groups.map(\.key))
        // Rates are written with three decimals; everything else exactly.
        let rounded = made.groups.map { group in
            group.runs.map { run in
                run.requests.map { request in
                    var copy = request
                    copy.tokensPerSecond = request.tokensPerSecond.map { ($0 * 1000).rounded() / 1000 }
                    return copy
                }
            }
        }
        #expect(read.groups.map { $0.runs.map(\.requests) } == rounded)
        #expect(read.groups.map { $0.runs.map(\.runID) } == made.groups.map { $0.runs.map(\.runID) })
        #expect(read.groups.map(\.repeatedCalls) == made.groups.map(\.repeatedCalls))
        // Written twice, byte for byte the same: stable for check-in.
        try made.write(path: directory.path("c.json"))
        #expect(try Data(contentsOf: directory.url.appendingPathComponent("b.json"))
            == Data(contentsOf: directory.url.appendingPathComponent("c.json")))
    }

    /// A hand-made file whose run holds more requests than a written baseline keeps is thinned
    /// as it is read, evenly, so the gate's bootstrap never runs over more than ``sampleCap``.
    @Test func aRunLongerThanTheCapIsThinnedAsItIsRead() throws {
        let made = try LatencyBaseline.make(paths: [scenarios[0]], grouping: .label)
        var long = made
        let requests = long.groups[0].runs[0].requests
        long.groups[0].runs = [
            ScenarioSamples.Run(
                runID: 1, requests: (0..<4 * LatencyBaseline.sampleCap).map { requests[$0 % requests.count] },
                serverNanosPerToken: long.groups[0].runs[0].serverNanosPerToken)
        ]
        let directory = try TemporaryDirectory()
        try long.write(path: directory.path("long.json"))
        let read = try LatencyBaseline.read(path: directory.path("long.json"))
        #expect(read.groups[0].runs[0].requests.count == LatencyBaseline.sampleCap)
        // Evenly: every 4th of four times the cap.
        #expect(read.groups[0].runs[0].requests.prefix(3).map(\.ttft) == (0..<3).map { requests[4 * $0 % requests.count].ttft })
    }

    /// Redacting a baseline of many groups merges them in one pass: 2,000 groups come out as
    /// 2,000 groups, in order, and groups that redact to one key become one.
    @Test func redactingManyGroupsKeepsThemAndMergesThoseThatBecomeOne() throws {
        let made = try LatencyBaseline.make(paths: [scenarios[0]], grouping: .label)
        var many = made
        many.groups = (0..<2_000).map { index in
            var group = made.groups[0]
            group.key.scenario = String(format: "s%04d", index)
            return group
        }
        let redacted = many.redacted(by: .standard)
        #expect(redacted.groups.map(\.key.scenario) == many.groups.map(\.key.scenario))
        var twins = made
        twins.groups = ["alice@example.com", "bob@example.com"].map { scenario in
            var group = made.groups[0]
            group.key.scenario = scenario
            return group
        }
        let merged = twins.redacted(by: .standard)
        #expect(merged.groups.count == 1)
        #expect(merged.groups[0].runs.count == 2 * made.groups[0].runs.count)
    }

    @Test func loopScenarioKeepsItsRepeatedCalls() throws {
        let made = try LatencyBaseline.make(paths: [scenarios[0]], grouping: .label)
        #expect(made.groups.flatMap(\.repeatedCalls).contains { $0.kind == "loop" })
    }

    @Test func checkedInBaselineIsReadable() throws {
        let checkedIn = try LatencyBaseline.read(path: checkedInBaseline)
        #expect(checkedIn.grouping == .label)
        #expect(checkedIn.groups.map(\.key.profile) == ["default", "plan", "plan-economy"])
        #expect(checkedIn.groups.allSatisfy { $0.runs.count >= 5 })
        // What pricing needs is kept: every request's output tokens and provider; and what the
        // workload comparison needs: the settings asked with and the model's text before.
        #expect(checkedIn.groups.allSatisfy { $0.requests.allSatisfy { $0.outputTokens != nil && $0.provider != nil } })
        #expect(checkedIn.groups.allSatisfy {
            $0.requests.allSatisfy { $0.maxTokens != nil && $0.temperature != nil && $0.earlierOutputTokens != nil }
        })
    }

    /// `gate --prices` prices the checked-in baseline and the runs alike, for a cost budget.
    @Test func gateWithPricesReportsCost() throws {
        let runs = (1...2).map { packageRoot.appendingPathComponent("tracefiles/planner/run-\($0).sqlite").path }
        let prices = packageRoot.appendingPathComponent("examples/prices.json").path
        let arguments = ["gate", "--baseline", checkedInBaseline, "--budget", "cost.mean: +10%"]
        let priced = try runProgram(try builtProgram("trace-report"), arguments + ["--prices", prices] + runs)
        #expect(priced.status == 0, "\(priced.out)\(priced.err)")
        let costRows = priced.out.split(separator: "\n").filter { $0.contains("cost.mean") }
        #expect(costRows.count == 3 && costRows.allSatisfy { $0.contains("$0.0") && $0.contains("pass") }, "\(priced.out)")
        let unpriced = try runProgram(try builtProgram("trace-report"), arguments + runs)
        #expect(unpriced.out.split(separator: "\n").filter { $0.contains("cost.mean") }
            .allSatisfy { $0.contains("no data") }, "\(unpriced.out)")
    }

    @Test func notABaselineIsExitTwoWithOneSentence() throws {
        let report = try builtProgram("trace-report")
        let directory = try TemporaryDirectory()
        let other = directory.path("other.json")
        try #"{"hello": 1}"#.write(toFile: other, atomically: true, encoding: .utf8)
        let cases: [([String], String)] = [
            (["gate", "--baseline", other, scenarios[0]], "is not a latency baseline"),
            (["gate", "--baseline", directory.path("missing.json"), scenarios[0]], "it does not exist"),
            (["gate", scenarios[0]], "--baseline FILE is required"),
            (["gate", "--baseline", checkedInBaseline, "--budget", "ttft.p50: -5%", scenarios[0]], "takes '+'"),
            (["gate", "--baseline", checkedInBaseline, scenarios[0]], "no scenario of the baseline"),
            (["diff", scenarios[0]], "diff takes two runs"),
            (["baseline"], "no run given"),
        ]
        for (arguments, expected) in cases {
            let result = try runProgram(report, arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.err.contains(expected), "\(arguments): \(result.err)")
            #expect(result.err.split(separator: "\n").count == 1)
        }
    }

    /// Side inputs a pull request can hand the gate: names with terminal escapes and thousands of
    /// scenarios, and limits beyond any run. One bounded sentence, no raw escape, no trap.
    @Test func hostileSideInputsAreOneBoundedSentence() throws {
        let report = try builtProgram("trace-report")
        let directory = try TemporaryDirectory()
        var object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: checkedInBaseline)))
                as? [String: Any])
        let group = try #require((object["groups"] as? [[String: Any]])?.first)
        object["groups"] = (0..<500).map { index -> [String: Any] in
            var copy = group
            copy["scenario"] = "\u{1B}[2J\u{1B}]0;title\u{07}" + String(repeating: "long name ", count: 50) + "\(index)"
            return copy
        }
        let hostile = directory.path("hostile.json")
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: hostile))
        let runs = (1...2).map { packageRoot.appendingPathComponent("tracefiles/planner/run-\($0).sqlite").path }
        let result = try runProgram(report, ["gate", "--baseline", hostile] + runs)
        #expect(result.status == 2, "\(result.err)")
        #expect(result.err.contains("no scenario of the baseline") && result.err.contains("and 495 more"))
        #expect(!result.err.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(result.err.utf8.count < 4100 && result.err.split(separator: "\n").count == 1)

        let config = directory.path("gate.conf")
        try "ttft.p50: +1e19ns\n".write(toFile: config, atomically: true, encoding: .utf8)
        for options in [["--budget", "ttft.p50: +1e19ns"], ["--config", config]] {
            let huge = try runProgram(report, ["gate", "--baseline", checkedInBaseline] + options + runs)
            #expect(huge.status == 2, "\(options): \(huge.err)")
            #expect(huge.err.contains("beyond any value a run can have"), "\(huge.err)")
        }
    }

    /// A baseline whose machine speed is 0 would scale every time to 0 and pass anything: the gate
    /// cannot judge with it, and says so (exit 2), never a pass.
    @Test func aBaselineWithNoMachineSpeedIsRefusedNotPassed() throws {
        let directory = try TemporaryDirectory()
        var object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: checkedInBaseline)))
                as? [String: Any])
        object["groups"] = try #require(object["groups"] as? [[String: Any]]).map { group in
            var group = group
            group["runs"] = (group["runs"] as? [[String: Any]] ?? []).map { run in
                var run = run
                run["server_ns_per_token"] = 0
                return run
            }
            return group
        }
        let zero = directory.path("zero-speed.json")
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: zero))
        let runs = (1...2).map { packageRoot.appendingPathComponent("tracefiles/planner/run-\($0).sqlite").path }
        let result = try runProgram(
            try builtProgram("trace-report"), ["gate", "--baseline", zero, "--budget", "ttft.p50: +1% and +1ms"] + runs)
        #expect(result.status == 2, "\(result.out)\(result.err)")
        #expect(result.err.contains("server_ns_per_token") && result.err.contains("above 0"), "\(result.err)")
    }

    /// `gate --json` that cannot judge (too few samples, a bad budget) still prints one JSON
    /// document, an error object, beside its sentence on standard error and exit 2.
    @Test func gateJSONOnBadInputIsAnErrorObject() throws {
        let report = try builtProgram("trace-report")
        let run = packageRoot.appendingPathComponent("tracefiles/planner/run-1.sqlite").path
        for (arguments, kind, phrase) in [
            (["--min-samples", "1000"], "input", "fewer than the 1000 needed"),
            (["--budget", "ttft.p50: -5%"], "usage", "takes '+'"),
        ] {
            let result = try runProgram(report, ["gate", "--json", "--baseline", checkedInBaseline] + arguments + [run])
            #expect(result.status == 2, "\(result.err)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
            let error = try #require(object["error"] as? [String: Any], "\(result.out)")
            #expect(error["kind"] as? String == kind)
            #expect((error["message"] as? String)?.contains(phrase) == true, "\(result.out)")
            #expect(object["exit_status"] as? Int == 2)
            #expect(result.err.contains(phrase) && result.err.split(separator: "\n").count == 1)
        }
    }

    @Test func diffJSONHasTheDocumentedKeys() throws {
        let result = try runProgram(try builtProgram("trace-report"), ["diff", "--json", scenarios[1], scenarios[2]])
        #expect(result.status == 0, "\(result.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        for key in ["a", "b", "group_by", "confidence", "scenarios", "only_in_a", "only_in_b"] {
            #expect(object[key] != nil, "missing \(key)")
        }
        let text = try runProgram(try builtProgram("trace-report"), ["diff", scenarios[1], scenarios[1]])
        #expect(text.status == 0)
        #expect(!text.out.contains(" yes"))  // a store against itself: nothing beyond noise
    }
}

@Suite("machine speed")
struct MachineSpeedTests {
    /// Baseline runs at 30 ms a token; the current run 5× slower in every time, at 150 ms a token.
    private func inputs() -> (LatencyBaseline, LatencyBaseline) {
        let runs = (0..<3).map { index in
            ScenarioSamples.Run(
                runID: Int64(index + 1), requests: samples(centre: 1e9, spread: 0.2, count: 8, seed: UInt64(20 + index)),
                serverNanosPerToken: 30e6)
        }
        var slow = samples(centre: 1e9, spread: 0.2, count: 8, seed: 30)
        for index in slow.indices {
            slow[index].latency *= 5
            slow[index].ttft = slow[index].ttft.map { $0 * 5 }
            slow[index].tokensPerSecond = slow[index].tokensPerSecond.map { $0 / 5 }
        }
        let key = ScenarioKey(scenario: "demo", profile: "plan", model: "m")
        let before = LatencyBaseline(grouping: .label, sources: [], groups: [
            ScenarioSamples(key: key, runs: runs, repeatedCalls: []),
        ])
        let after = LatencyBaseline(grouping: .label, sources: [], groups: [
            ScenarioSamples(key: key, runs: [.init(runID: 9, requests: slow, serverNanosPerToken: 150e6)],
                            repeatedCalls: []),
        ])
        return (before, after)
    }

    @Test func aBusierMachineIsNotARegressionOnceNormalized() throws {
        let (before, after) = inputs()
        #expect(before.medianServerNanosPerToken == 30e6)
        let normalized = try GateEvaluation.evaluate(baseline: before, current: after)
        #expect(normalized.passed, "\(normalized.text)")
        #expect(normalized.notes.contains { $0.contains("(5.00×)") })
        var raw = GateConfiguration()
        raw.normalizesSpeed = false
        let result = try GateEvaluation.evaluate(baseline: before, current: after, configuration: raw)
        #expect(Set(result.regressions.map(\.key.description)) == ["ttft.p50", "latency.p50", "tokens_per_second.p50"])
    }

    @Test func speedSurvivesTheBaselineFile() throws {
        let (before, _) = inputs()
        let directory = try TemporaryDirectory()
        try before.write(path: directory.path("b.json"))
        #expect(try LatencyBaseline.read(path: directory.path("b.json")).medianServerNanosPerToken == 30e6)
    }
}
