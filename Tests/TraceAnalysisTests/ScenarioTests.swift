import Foundation
import SessionTrace
import TestSupport
import Testing
import TraceScenarios

@testable import TraceAnalysis
@testable import TraceModel

/// Each scenario store holds what it should and yields exactly its expected findings: every
/// expected finding at the right session, requests and calls, and nothing else; both the copy
/// checked in under `tracefiles/scenarios` and one recorded afresh through the real session and
/// middleware. The expectations are written out in `ScenarioExpectations.swift`, apart from the
/// generator they check.
@Suite("Scenario stores")
struct ScenarioTests {
    static func found(_ path: String) throws -> [ExpectedFinding] {
        let trace = try TraceLoader.load(path: path)
        return Diagnosis.analyze([trace]).findings.map { ExpectedFinding($0, in: trace) }.sorted()
    }

    static func shape(_ path: String) throws -> Scenario.Shape {
        let runs = try TraceLoader.load(path: path).runs
        return Scenario.Shape(
            sessions: runs.reduce(0) { $0 + $1.sessions.count },
            requests: runs.reduce(0) { $0 + $1.requests.count },
            toolCalls: runs.reduce(0) { $0 + $1.toolCalls.count },
            handoffs: runs.reduce(0) { $0 + $1.handoffs.count })
    }

    @Test(arguments: Scenario.allCases)
    func checkedInStoreYieldsExactlyItsFindings(scenario: Scenario) throws {
        #expect(try Self.shape(scenarioPath(scenario)) == scenario.expectedShape)
        #expect(try Self.found(scenarioPath(scenario)) == scenario.expectedFindings.sorted())
    }

    @Test(arguments: Scenario.allCases)
    func freshRecordingYieldsExactlyItsFindings(scenario: Scenario) async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path(scenario.fileName)
        try await scenario.write(to: path)
        #expect(try Self.shape(path) == scenario.expectedShape)
        #expect(try Self.found(path) == scenario.expectedFindings.sorted())
    }

    @Test func thereAreAtLeastTwentyStoresWithPositivesAndNegatives() {
        #expect(Scenario.allCases.count >= 20)
        #expect(Scenario.allCases.filter { $0.expectedFindings.isEmpty }.count >= 8)
        let kinds = Set(Scenario.allCases.flatMap { $0.expectedFindings.map(\.kind) })
        #expect(kinds == Set(Finding.Kind.allCases))
    }

    /// A schema-1 store has no turns, fingerprints or caps: turns come from finish reasons, changes
    /// of instructions and tools from the handoffs, and the findings stay the same, the cap unknown.
    @Test(arguments: Scenario.allCases)
    func aStoreWithoutTurnsOrFingerprintsGivesTheSameFindings(scenario: Scenario) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path(scenario.fileName)
        try FileManager.default.copyItem(atPath: scenarioPath(scenario), toPath: path)
        try sqlite(
            path,
            "UPDATE request SET turn_id = NULL, instructions_fingerprint = NULL, "
                + "tools_fingerprint = NULL, max_tokens = NULL")
        let trace = try TraceLoader.load(path: path)
        #expect(trace.runs.allSatisfy { RunTurns($0).turns.allSatisfy(\.isInferred) })
        var expected = scenario.expectedFindings
        for index in expected.indices where expected[index].kind == .cappedAnswer {
            expected[index].detail = "cap ?"
        }
        #expect(try Self.found(path) == expected.sorted())
    }

    @Test func aLoopOverRoundsCostsItsRepeatsAndTheRoundsThatAskedForThem() throws {
        let trace = try TraceLoader.load(path: scenarioPath(.roundLoop))
        let loop = try #require(ToolFindings.analyze(trace).findings.first { $0.kind == .loop })
        #expect(loop.turnIndex == 0)
        #expect(loop.requestIDs.count == 3)
        #expect(loop.repeatIDs == loop.calls.dropFirst().map(\.record.toolCallID))
        #expect(loop.toolTime == 80_000_000)
        #expect(loop.extraRounds.map(\.requestID) == Array(loop.requestIDs.dropFirst()))
        let tokens = loop.extraRounds.reduce(Int64(0)) { $0 + $1.inputTokens! + $1.outputTokens! }
        #expect(loop.extraRoundTokens == tokens)
        #expect(loop.cost == 80_000_000 + loop.extraRounds.reduce(0) { $0 + $1.dur })
        #expect(
            loop.calls.compactMap(\.arguments) == [
                #"{"query":"launch"}"#, #"{"query":"launch prep"}"#, #"{"query":"launch tasks"}"#,
            ])
    }

    @Test func aLoopInOneRequestHasNoExtraRounds() throws {
        let trace = try TraceLoader.load(path: scenarioPath(.toolLoop))
        let loop = try #require(ToolFindings.analyze(trace).findings.first { $0.kind == .loop })
        #expect(loop.requestIDs.count == 1)
        #expect(loop.extraRounds.isEmpty)
        #expect(loop.cost == 80_000_000)
    }

    @Test func anAlternationNamesItsCycle() throws {
        let trace = try TraceLoader.load(path: scenarioPath(.alternation))
        let report = ToolFindings.analyze(trace)
        let loop = try #require(report.findings.first { $0.kind == .loop })
        #expect(loop.pattern == ["search_tickets", "get_ticket"])
        // The identical-arguments findings name the same repeats: the report counts them once.
        #expect(report.findings.count == 3)
        #expect(report.cost == loop.cost)
        #expect(
            loop.headline
                == "loop: search_tickets → get_ticket made 2 times in one turn, over 4 rounds, "
                + "the same results each time")
        #expect(loop.repeatIDs == loop.calls.suffix(2).map(\.record.toolCallID))
        #expect(loop.extraRounds.count == 2)
    }

    @Test func aStuckLoopShowsItsRepeatsReturnedTheSameResults() throws {
        let report = ToolFindings.analyze(try TraceLoader.load(path: scenarioPath(.stuckLoop)))
        let loop = try #require(report.findings.first { $0.kind == .loop })
        #expect(loop.results.same == 2 && loop.results.new == 0 && loop.results.leastSimilarity == 1)
        #expect(loop.headline.hasSuffix("over 3 rounds, the same results each time"))
        // Each extra round states its tokens and time.
        #expect(loop.extraRounds.count == 2)
        #expect(loop.costText.contains("2 extra rounds took") && loop.extraRoundTokens ?? 0 > 0)
        // Search results that differ but share most words overlap, and still make a loop.
        let overlap = ToolFindings.analyze(try TraceLoader.load(path: scenarioPath(.roundLoop)))
        let round = try #require(overlap.findings.first { $0.kind == .loop })
        #expect(round.results.overlapping == 2 && round.headline.contains("results overlap (similarity ≥"))
    }

    @Test func pollingIsReportedAsPollingWithItsNewResults() throws {
        let report = ToolFindings.analyze(try TraceLoader.load(path: scenarioPath(.polling)))
        #expect(report.findings.map(\.kind) == [.polling])
        let polling = try #require(report.findings.first)
        #expect(polling.results.new == 3)
        #expect(
            polling.headline
                == "polling: check_job called 4 times with the same arguments in one turn, over 4 rounds, "
                + "new results each time")
    }

    /// Without output fingerprints (a store from before they were recorded), repeats are judged by
    /// their arguments alone: polling and refined searches read as loops. Without the failures,
    /// the retries read as repeated calls.
    @Test(arguments: [
        (Scenario.polling, "output_fingerprint = NULL, output_sketch = NULL", Finding.Kind.loop),
        (.refinedSearches, "output_fingerprint = NULL, output_sketch = NULL", .loop),
        (.retriesAfterErrors, "outcome = 'ok', error = NULL", .identicalArguments),
    ])
    func withoutWhatShowsTheResultsRepeatsAreJudgedByArguments(
        scenario: Scenario, change: String, kind: Finding.Kind
    ) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path(scenario.fileName)
        try FileManager.default.copyItem(atPath: scenarioPath(scenario), toPath: path)
        try sqlite(path, "UPDATE tool_call SET " + change)
        #expect(try Self.found(path).map(\.kind).contains(kind))
    }

    @Test func aModelSwitchIsPricedByTheServersCachedTokens() throws {
        let report = CacheFindings.analyze(try TraceLoader.load(path: scenarioPath(.modelSwitch)))
        let finding = try #require(report.findings.first)
        #expect(finding.causes == [.modelSwitch])
        // The whole previous prompt was reusable, and the new model had none of it cached.
        #expect(finding.reusableTokens == finding.previous.inputTokens)
        #expect(finding.request.cachedInputTokens == 0)
        #expect(finding.cachedTokensLost == finding.previous.inputTokens)
        // 15 ms and 0.5 ms of prefill per uncached token, on the scenario's clock.
        func firstToken(_ request: RequestRecord) -> Int64 {
            15_000_000 + (request.inputTokens! - request.cachedInputTokens!) * 500_000
        }
        #expect(finding.ttftIncrease == firstToken(finding.request) - firstToken(finding.previous))
        #expect(finding.explanation == "model switch: scripted/scripted-small → scripted/scripted-large")
        // The transcript was reused whole: the entries alone would not show the break.
        #expect(finding.request.reusedPrefixEntries == finding.previous.transcriptEntries)
    }

    @Test func aRollingWindowBreaksEveryTrimmedRequest() throws {
        let report = CacheFindings.analyze(try TraceLoader.load(path: scenarioPath(.rollingWindow)))
        #expect(report.findings.count == 4)
        #expect(
            report.findings.allSatisfy { $0.causes == [.historyTransform] && ($0.cachedTokensLost ?? 0) > 0 })
        #expect(report.text.contains("rolling window drops entries from the front"))
    }

    @Test func cappedAnswersReportTheCapAndHowOftenItWasHit() throws {
        let report = CappedAnswers.analyze(try TraceLoader.load(path: scenarioPath(.cappedAnswers)))
        let finding = try #require(report.findings.first)
        #expect(report.findings.count == 1)
        #expect(finding.cap == 12)
        #expect(finding.capped.count == 2)
        #expect(finding.requestsUnderCap == 3)
        #expect(finding.outputTokens == 24)
        #expect(finding.headline == "capped answers: 2 of 3 requests of session brief hit the 12-token cap")
    }

    @Test func oversizedOutputNamesTheToolItsBytesItsShareAndTheRequestItInflated() throws {
        let trace = try TraceLoader.load(path: scenarioPath(.oversizedOutput))
        let finding = try #require(OversizedToolOutputs.analyze(trace).findings.first)
        #expect(finding.call.name == "fetch_page")
        #expect(finding.call.outputBytes == 12_000)
        #expect(finding.share == 12_000.0 / Double(finding.inflated.promptBytes))
        #expect(finding.share > 0.9)
        let run = try #require(trace.runs.first)
        let requests = run.requests(in: finding.sessionID)
        #expect(finding.inflated.requestID == requests[1].requestID)
        #expect(finding.call.requestID == requests[0].requestID)
    }

    @Test func promptBloatFlagsTheFirstRequestOverTheWarningShare() throws {
        let report = GrowthReport.analyze(try TraceLoader.load(path: scenarioPath(.promptBloat)))
        let session = try #require(report.findings.first)
        #expect(session.label == "researcher")
        #expect((session.peakShare ?? 0) >= 0.75)
        // Recorded without payload capture: the argument sketches are what near-duplicates are judged by.
        let tools = ToolFindings.analyze(try TraceLoader.load(path: scenarioPath(.promptBloat)))
        #expect(tools.callsWithArguments == 0 && tools.callsComparable == 10)
        #expect(!tools.text.contains("near-identical arguments were not checked"))
    }

    /// The argument sketches judge near-duplicates as the captured text does: with every store's
    /// captured arguments deleted, the findings stay the same.
    @Test(arguments: Scenario.allCases.filter(\.capturesPayloads))
    func withoutCapturedArgumentsTheSketchesGiveTheSameFindings(scenario: Scenario) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path(scenario.fileName)
        try FileManager.default.copyItem(atPath: scenarioPath(scenario), toPath: path)
        try sqlite(path, "DELETE FROM payload WHERE kind = 'tool_arguments'")
        #expect(try Self.found(path) == scenario.expectedFindings.sorted())
    }

    /// A store from before argument sketches (schema 2) without captured arguments: near-duplicates
    /// cannot be judged, and the report and `check`'s notes say so.
    @Test func withoutSketchesOrTextNearDuplicatesAreNotCheckedAndTheReportSaysSo() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("old.sqlite")
        try FileManager.default.copyItem(atPath: scenarioPath(.rephrasedLoopWithoutPayloads), toPath: path)
        try sqlite(path, "UPDATE tool_call SET arguments_sketch = NULL")
        let trace = try TraceLoader.load(path: path)
        let tools = ToolFindings.analyze(trace)
        #expect(tools.callsComparable == 0)
        #expect(tools.text.contains("near-identical arguments were not checked"))
        #expect(Diagnosis.analyze([trace]).notes.contains { $0.contains("no argument sketch") })
        // Only the fingerprints are left: the rephrased searches read as three different asks.
        #expect(!tools.findings.contains { $0.tool == "search_notes" })
    }
}
