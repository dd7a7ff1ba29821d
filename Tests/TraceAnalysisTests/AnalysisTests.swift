import Foundation
import SessionTrace
import TestSupport
import Testing
import TraceScenarios
import TraceStore

@testable import TraceAnalysis
@testable import TraceModel

@Suite("Analyses")
struct AnalysisTests {
    /// `summary` takes several stores as `check` does: their runs side by side, each run's figures
    /// what it has alone.
    @Test func summaryOfSeveralStoresListsEveryRunAsItsOwnSummaryHasIt() throws {
        let paths = [Scenario.modelSwitch, .fanOut].map(scenarioPath)
        let together = try parseJSON(report(["summary", "--json"] + paths).out)
        let alone = try paths.map { try parseJSON(report(["summary", "--json", $0]).out) }
        let runs = try #require(together["runs"] as? [[String: Any]])
        let separate = alone.flatMap { ($0["runs"] as? [[String: Any]]) ?? [] }
        #expect(runs.count == separate.count && runs.count >= 2)
        for run in separate {
            let id = run["run_id"] as? String
            let same = runs.first { $0["run_id"] as? String == id }
            #expect(same?["requests"] as? Int == run["requests"] as? Int, "run \(id ?? "?")")
            #expect(
                (same?["ttft_ns"] as? [String: Any])?["p50"] as? Int == (run["ttft_ns"] as? [String: Any])?["p50"] as? Int)
        }
        #expect(together["store"] as? String == paths.joined(separator: ", "))
        #expect(report(["summary"] + paths).status == .success)
    }

    @Test func nearestRankPercentiles() {
        #expect(Percentile.nearestRank(50, of: [40, 10, 30, 20]) == 20)
        #expect(Percentile.nearestRank(95, of: Array(1...20)) == 19)
        #expect(Percentile.nearestRank(95, of: Array(1...21)) == 20)
        #expect(Percentile.nearestRank(100, of: [3, 1, 2]) == 3)
        #expect(Percentile.nearestRank(50, of: [7]) == 7)
        #expect(Percentile.nearestRank(50, of: [Int]()) == nil)
        let values = (0..<10_001).map { ($0 * 7_919) % 10_001 }
        var copy = values
        #expect(Percentile.select(&copy, rank: Percentile.rank(95, count: values.count)) == values.sorted()[9_500])
    }

    @Test func summaryFromStreamedRowsEqualsSummaryFromTheLoadedTrace() throws {
        for scenario in Scenario.allCases {
            let streamed = try SummaryReport.compute(reader: StoreReader(path: scenarioPath(scenario)))
            let loaded = SummaryReport.compute(trace: try TraceLoader.load(path: scenarioPath(scenario)))
            #expect(streamed.json == loaded.json, "\(scenario)")
        }
    }

    @Test func summaryFigures() throws {
        let report = try SummaryReport.compute(reader: StoreReader(path: scenarioPath(.toolLoop)))
        let planner = try #require(report.sessions.first { $0.label == "planner" })
        // The scripted server: first token after 15 ms and 0.5 ms per uncached input token, then
        // 8 ms per output token; the planner's two requests take 29 (none cached) and 60 (29 cached).
        #expect(planner.requests == 2)
        #expect(planner.ttftP50 == 29_500_000)
        #expect(planner.ttftP95 == 30_500_000)
        #expect(planner.toolTime == 3 * 40_000_000)
        #expect(planner.modelTime == 117_500_000 + 110_500_000)
        #expect(planner.cacheHitRate == 29.0 / (29 + 60))
        // (11 - 1) tokens over 11 × 8 ms for the first request, over 10 × 8 ms for the second: p50 is the lower.
        #expect(planner.tokensPerSecondP50 == 10.0 / (88_000_000.0 / 1e9))
        #expect(report.profiles.count == 1)
        #expect(report.runs.first?.droppedEvents == 0)
    }

    @Test func emptyStoreSaysNoRequestsRecorded() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("empty.sqlite")
        try makeStore(path) { _, _ in }
        for command in ["summary", "timeline", "capped", "growth"] {
            let result = report([command, path])
            #expect(result.status == .success)
            #expect(result.out.contains("no requests recorded"), "\(command): \(result.out)")
        }
        #expect(report(["tools", path]).out.contains("no tool calls recorded"))
        #expect(report(["cache", path]).out.contains("nothing to compare"))
        #expect(report(["check", path]).out.contains("no findings"))
        let json = try parseJSON(report(["summary", "--json", path]).out)
        #expect(json["requests"] as? Int == 0)
    }

    @Test func identicalArgumentsAreFoundByFingerprintWithoutPayloads() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("identical.sqlite")
        try makeStore(path) { tracer, _ in
            let session = tracer.makeID()
            tracer.record(.session(SessionRecord(sessionID: session, ts: 0, dur: 10_000_000_000, label: "s")),
                          kind: .session)
            for index in Int64(0)..<2 {
                let asked = request(tracer, session: session, at: 6_000_000_000 + index * 1_000_000_000)
                tracer.record(
                    .toolCall(ToolCallRecord(
                        toolCallID: tracer.makeID(), requestID: asked.requestID, sessionID: session,
                        ts: asked.ts + asked.dur, dur: 50_000_000, name: "lookup", argumentsFingerprint: "abc",
                        argumentsBytes: 10, outputBytes: 10)), kind: .toolCall)
            }
        }
        let result = ToolFindings.analyze(try TraceLoader.load(path: path))
        #expect(result.findings.map(\.kind) == [.identicalArguments])
        // The repeat's tool time, and the round that asked only for it.
        #expect(result.findings.first?.toolTime == 50_000_000)
        #expect(result.findings.first?.extraRounds.count == 1)
        #expect(result.findings.first?.cost == 550_000_000)
        #expect(result.findings.first?.requestIDs.count == 2)
    }

    @Test func handoffsNameTheCauseAndInstructionChangesAreNotAHistoryTransform() throws {
        let run = RecordedRun(
            run: RunRecord(runID: 1 << 32, ts: 0, wallClockStart: 0, host: "h", commandLine: "c"),
            sessions: [SessionRecord(sessionID: 7, ts: 0, dur: 10, label: "s")],
            requests: [
                RequestRecord(requestID: 1, sessionID: 7, ts: 100, dur: 50, transcriptEntries: 4),
                RequestRecord(requestID: 2, sessionID: 7, ts: 200, dur: 50, transcriptEntries: 6, reusedPrefixEntries: 0),
                RequestRecord(requestID: 3, sessionID: 7, ts: 300, dur: 50, transcriptEntries: 8, reusedPrefixEntries: 6),
            ],
            handoffs: [HandoffRecord(handoffID: 9, sessionID: 7, ts: 190, kind: "instructions", from: "a", to: "b")])
        let report = CacheFindings.analyze(RecordedTrace(path: "memory", runs: [run]))
        #expect(report.findings.map(\.causes) == [[.instructionsChanged]])
        #expect(report.findings.first?.explanation == "instructions changed: a → b")
        #expect(report.followUpRequests == 2)
    }

    @Test func loaderMakesUpSessionsThatNeverEndedAndKeepsRowsOfUnknownRuns() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("partial.sqlite")
        try makeStore(path) { tracer, _ in
            request(tracer, session: 424_242, at: 6_000_000_000)
        }
        try sqlite(path, "CREATE TEMP TABLE copy AS SELECT * FROM request; "
            + "UPDATE copy SET request_id = request_id + 1, run_id = 99 << 32, session_id = NULL; "
            + "INSERT INTO request SELECT * FROM copy")
        let trace = try TraceLoader.load(path: path)
        #expect(trace.runs.count == 2)
        #expect(trace.requestCount == 2)
        #expect(trace.runs.contains { !$0.hasRunRecord && $0.run.runID == 99 << 32 })
        let recorded = try #require(trace.runs.first { $0.hasRunRecord })
        #expect(recorded.sessionLabel(424_242) == "session 424242")
    }
}
