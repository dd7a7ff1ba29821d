import Foundation
import Testing

@testable import TraceAnalysis

/// Each scenario store yields exactly its expected findings, in every analysis, both the copy
/// checked in under `tracefiles/scenarios` and one freshly written by the generator.
@Suite("Scenario stores")
struct ScenarioTests {
    static func findings(_ path: String) throws -> (tools: [String], cache: [[CacheFindings.Cause]], growth: [String]) {
        let trace = try TraceLoader.load(path: path)
        let tools = ToolFindings.analyze(trace).findings.map { "\($0.kind.rawValue) \($0.tool)×\($0.calls.count)" }
        let cache = CacheFindings.analyze(trace).findings.map(\.causes)
        let growth = GrowthReport.analyze(trace).findings.map(\.label)
        return (tools, cache, growth)
    }

    @Test(arguments: Scenario.allCases)
    func checkedInStoreYieldsExactlyItsFindings(scenario: Scenario) throws {
        let found = try Self.findings(scenarioPath(scenario))
        #expect(found.tools.sorted() == scenario.expectedToolFindings.sorted())
        #expect(found.cache == scenario.expectedCacheCauses)
        #expect(found.growth == scenario.expectedGrowthSessions)
    }

    @Test(arguments: Scenario.allCases)
    func regeneratedStoreYieldsTheSameFindings(scenario: Scenario) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path(scenario.fileName)
        try scenario.write(to: path)
        let fresh = try Self.findings(path)
        let checkedIn = try Self.findings(scenarioPath(scenario))
        #expect(fresh.tools == checkedIn.tools)
        #expect(fresh.cache == checkedIn.cache)
        #expect(fresh.growth == checkedIn.growth)
    }

    @Test func toolLoopNamesTheQueriesTheSessionAndTheCost() throws {
        let report = ToolFindings.analyze(try TraceLoader.load(path: scenarioPath(.toolLoop)))
        let near = try #require(report.findings.first { $0.kind == .nearIdenticalArguments })
        #expect(near.calls.compactMap(\.arguments) == [
            #"{"query":"launch"}"#, #"{"query":"launch prep"}"#, #"{"query":"launch tasks"}"#,
        ])
        #expect(near.sessionLabel == "planner")
        #expect(near.requestIDs.count == 1)
        #expect(near.cost == 310_000_000)
        let loop = try #require(report.findings.first { $0.kind == .loop })
        #expect(loop.requestIDs == near.requestIDs)
        #expect(report.callsWithArguments == report.toolCallCount)
    }

    @Test func rollingWindowCostsAreAgainstTheLastIntactRequest() throws {
        let report = CacheFindings.analyze(try TraceLoader.load(path: scenarioPath(.rollingWindow)))
        #expect(Set(report.findings.map(\.baseline.requestID)).count == 1)
        #expect(report.findings.allSatisfy { $0.cachedTokensLost == 1_150 && $0.ttftIncrease == 325_000_000 })
        #expect(report.cachedTokensLost == 6 * 1_150)
        #expect(report.ttftIncrease == 6 * 325_000_000)
        #expect(report.text.contains("rolling window drops entries from the front"))
    }

    @Test func promptBloatFlagsTheFirstRequestOverTheWarningShare() throws {
        let report = GrowthReport.analyze(try TraceLoader.load(path: scenarioPath(.promptBloat)))
        let session = try #require(report.findings.first)
        #expect(session.firstOverWarning?.inputTokens == 6_200)
        #expect(session.peakShare == 7_170.0 / 8_192)
        #expect(report.largest.first?.request.inputTokens == 7_170)
        // Without payload capture, near-identical detection says it did not look.
        let tools = ToolFindings.analyze(try TraceLoader.load(path: scenarioPath(.promptBloat)))
        #expect(tools.callsWithArguments == 0)
        #expect(tools.text.contains("near-identical arguments were not checked"))
    }

    @Test func aSmallerContextWindowTurnsGrowthIntoFindings() throws {
        let trace = try TraceLoader.load(path: scenarioPath(.rollingWindow))
        #expect(GrowthReport.analyze(trace, options: .init(contextWindow: 2_048)).findings.map(\.label) == ["chat"])
    }
}
