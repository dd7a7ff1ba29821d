import Foundation
import SessionTrace
import TestSupport
import Testing
import TraceScenarios

@testable import TraceAnalysis
@testable import TraceModel

/// Prices from a file the user gives: cost in summary, cache savings and tax in cache and check,
/// and every report unchanged, saying so, without one.
@Suite("Prices")
struct PriceTests {
    static let examplePrices = packageRoot.appendingPathComponent("examples/prices.json").path

    static func prices() throws -> PriceTable { try PriceTable.load(path: examplePrices) }

    @Test func anExactModelBeatsAPatternAndALongerPatternAShorterOne() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("prices.json")
        try #"""
            {"models": [
              {"provider": "*", "model": "claude*", "input": 1, "output": 1},
              {"provider": "anthropic", "model": "claude-sonnet-4*", "input": 3, "output": 15},
              {"provider": "anthropic", "model": "claude-sonnet-4-5", "input": 4, "cached_input": 0.4, "output": 16}
            ]}
            """#.write(toFile: path, atomically: true, encoding: .utf8)
        let table = try PriceTable.load(path: path)
        #expect(table.price(provider: "anthropic", model: "claude-sonnet-4-5")?.input == 4)
        #expect(table.price(provider: "anthropic", model: "claude-sonnet-4-1")?.input == 3)
        #expect(table.price(provider: "anthropic", model: "claude-sonnet-4-1")?.cacheWrite == 3)
        #expect(table.price(provider: "bedrock", model: "claude-haiku")?.input == 1)
        #expect(table.price(provider: "openai", model: "gpt-4o") == nil)
    }

    /// Cache writes and reads as Anthropic reports them: each request's cost charges its uncached,
    /// cached and written tokens at their own prices; caching saved the cached tokens' discount.
    @Test func anAnthropicStyleRunIsPricedByReadsAndWrites() throws {
        let trace = try TraceLoader.load(path: scenarioPath(.anthropicCache))
        let requests = try #require(trace.runs.first?.requests)
        #expect(requests.count == 3)
        // The middleware recorded the server's cache writes: the whole first prompt, then the new tail.
        #expect(requests.allSatisfy { $0.cacheWriteTokens != nil })
        #expect(requests[0].cacheWriteTokens == requests[0].inputTokens && requests[0].cachedInputTokens == 0)
        #expect(requests[1].cachedInputTokens! > 0)
        let prices = try Self.prices()
        var total = 0.0
        var savings = 0.0
        var premium = 0.0
        for request in requests {
            let (input, cached, written) =
                (Double(request.inputTokens!), Double(request.cachedInputTokens!), Double(request.cacheWriteTokens!))
            total += ((input - cached - written) * 3 + cached * 0.3 + written * 3.75
                + Double(request.outputTokens!) * 15) / 1e6
            savings += cached * (3 - 0.3) / 1e6
            premium += written * (3.75 - 3) / 1e6
        }
        let summary = SummaryReport.compute(trace: trace, prices: prices)
        #expect(abs((summary.runs[0].cost ?? 0) - total) < 1e-12)
        let cache = CacheFindings.analyze(trace, prices: prices)
        let money = try #require(cache.money)
        #expect(abs(money.savings - savings) < 1e-12 && abs(money.writePremium - premium) < 1e-12)
        #expect(cache.text.contains("caching saved \(PriceTable.dollars(savings)); cache writes cost"))
        // The store read row by row gives the same cost.
        let streamed = try parseJSON(
            report(["summary", "--json", "--prices", Self.examplePrices, scenarioPath(.anthropicCache)]).out)
        let run = try #require((streamed["runs"] as? [[String: Any]])?.first)
        #expect(abs((run["cost_usd"] as? Double ?? 0) - total) < 1e-12)
    }

    @Test func withoutPricesEveryReportSaysSoAndShowsNoCost() throws {
        let store = scenarioPath(.anthropicCache)
        let summary = report(["summary", store]).out
        #expect(summary.contains("cost: no prices given (--prices FILE)") && !summary.contains("$"))
        #expect(report(["cache", store]).out.contains("dollars: no prices given"))
        #expect(report(["check", store]).out.contains("cost: no prices given"))
        let priced = report(["summary", "--prices", Self.examplePrices, store]).out
        #expect(priced.contains(" cost ") && priced.contains("$"))
    }

    /// A server that reports no cache figures: "not reported", never 0%.
    @Test func noCacheFiguresReadNotReported() throws {
        let store = scenarioPath(.noCacheFigures)
        let summary = report(["summary", "--prices", Self.examplePrices, store]).out
        #expect(summary.contains("not reported") && !summary.contains(" 0%"))
        let cache = report(["cache", "--prices", Self.examplePrices, store]).out
        #expect(cache.contains("cached input tokens: not reported by the server"))
        #expect(cache.contains("caching saved: not reported"))
    }

    /// Findings carry dollars: a loop's extra rounds, a cache break's lost tokens.
    @Test func checkPricesEachFinding() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("prices.json")
        try #"{"models": [{"provider": "scripted", "model": "*", "input": 2, "cached_input": 0.5, "output": 8}]}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        let prices = try PriceTable.load(path: path)
        let loop = Diagnosis.analyze([try TraceLoader.load(path: scenarioPath(.stuckLoop))], prices: prices)
            .findings.first { $0.kind == .loop }
        let rounds = try #require(
            ToolFindings.analyze(try TraceLoader.load(path: scenarioPath(.stuckLoop))).findings
                .first { $0.kind == .loop }?.extraRounds)
        let expected = rounds.reduce(0.0) {
            $0 + (Double($1.inputTokens! - $1.cachedInputTokens!) * 2 + Double($1.cachedInputTokens!) * 0.5
                + Double($1.outputTokens!) * 8) / 1e6
        }
        #expect(abs((loop?.cost.dollars ?? 0) - expected) < 1e-12)
        let breaks = CacheFindings.analyze(try TraceLoader.load(path: scenarioPath(.modelSwitch)), prices: prices)
        let lost = try #require(breaks.findings.first?.cachedTokensLost)
        #expect(breaks.findings.first?.taxDollars == Double(lost) * 1.5 / 1e6)
    }

    /// A real planner run (SmolLM2 on llama.cpp) shows its cost with the example table.
    @Test func aRealPlannerRunShowsCostWithTheExampleTable() throws {
        let store = packageRoot.appendingPathComponent("tracefiles/planner/run-1.sqlite").path
        let summary = SummaryReport.compute(trace: try TraceLoader.load(path: store), prices: try Self.prices())
        #expect(summary.runs.allSatisfy { ($0.cost ?? 0) > 0 && $0.unpricedRequests == 0 })
        #expect(summary.profiles.allSatisfy { ($0.cost ?? 0) > 0 })
    }

    @Test(arguments: [
        ("{", "is not a price file"), (#"{"models": [{"model": "x", "input": 1, "output": 1}]}"#, "needs a provider"),
        (#"{"models": [{"provider": "a", "model": "x", "input": -1, "output": 1}]}"#, "needs input"),
        (#"{"models": [{"provider": "a", "model": "x", "input": 1, "output": 1000000.01}]}"#, "from 0 to 1000000"),
    ])
    func aBadPriceFileIsOneSentenceAndExitTwo(content: String, phrase: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("prices.json")
        try content.write(toFile: path, atomically: true, encoding: .utf8)
        for command in ["summary", "cache", "check"] {
            let result = report([command, "--prices", path, scenarioPath(.anthropicCache)])
            #expect(result.status == .usageOrInput && result.out.isEmpty)
            #expect(result.err.contains(phrase) && result.err.split(separator: "\n").count == 1)
        }
        #expect(report(["summary", "--prices", directory.path("none.json"), scenarioPath(.anthropicCache)]).status
            == .usageOrInput)
    }

    @Test func theDocumentedHighestPriceIsAccepted() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("prices.json")
        try #"{"models": [{"provider": "a", "model": "x", "input": 1000000, "output": 1000000}]}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        let table = try PriceTable.load(path: path)
        #expect(table.price(provider: "a", model: "x")?.output == 1_000_000)
    }
}
