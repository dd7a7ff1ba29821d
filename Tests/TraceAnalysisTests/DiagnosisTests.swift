import Foundation
import SessionTrace
import TestSupport
import Testing
import TraceScenarios

@testable import TraceAnalysis
@testable import TraceModel

/// Turns, the evidence of a cache break, and `trace-report check`.
@Suite("Diagnosis")
struct DiagnosisTests {
    static func run(requests: [RequestRecord], calls: [ToolCallRecord] = [], handoffs: [HandoffRecord] = [])
        -> RecordedRun
    {
        RecordedRun(
            run: RunRecord(runID: 1 << 32, ts: 0, wallClockStart: 0, host: "h", commandLine: "c"),
            sessions: [SessionRecord(sessionID: 7, ts: 0, dur: 10_000, label: "s")], requests: requests,
            toolCalls: calls, handoffs: handoffs)
    }

    static func request(
        _ id: Int64, at ts: Int64, finish: String? = "stop", entries: Int64 = 2, reused: Int64 = 0,
        input: Int64? = nil, cached: Int64? = nil, model: String = "m", profile: String = "p",
        turn: Int64? = nil,
        instructions: String? = nil
    ) -> RequestRecord {
        RequestRecord(
            requestID: id, sessionID: 7, ts: ts, dur: 10, timeToFirstToken: 5, profile: profile,
            provider: "x",
            model: model, inputTokens: input, cachedInputTokens: cached, transcriptEntries: entries,
            reusedPrefixEntries: reused, finishReason: finish, turnID: turn,
            instructionsFingerprint: instructions)
    }

    @Test func turnsAreInferredFromFinishReasonsAndToolCalls() {
        let requests = [
            Self.request(1, at: 100, finish: "tool_calls"), Self.request(2, at: 200),
            Self.request(3, at: 300, finish: "end_turn"),
            Self.request(4, at: 400, finish: "TOOL_USE"), Self.request(5, at: 500, finish: nil),
            Self.request(6, at: 600), Self.request(7, at: 700, finish: "length"),
        ]
        // Request 5 failed to report a finish reason, but its tool call shows it handed over.
        let call = ToolCallRecord(
            toolCallID: 50, requestID: 5, sessionID: 7, ts: 505, dur: 1, name: "t",
            argumentsFingerprint: "f", argumentsBytes: 2, outputBytes: 2)
        let turns = RunTurns(Self.run(requests: requests, calls: [call])).turns
        #expect(turns.map { $0.requests.map(\.requestID) } == [[1, 2], [3], [4, 5, 6], [7]])
        #expect(turns.allSatisfy { $0.isInferred })
        #expect(turns.map(\.index) == [0, 1, 2, 3])
    }

    @Test func recordedTurnsWin() {
        let requests = [
            Self.request(1, at: 100, finish: "tool_calls", turn: 10), Self.request(2, at: 200, turn: 11),
            Self.request(3, at: 300, turn: 11),
        ]
        let turns = RunTurns(Self.run(requests: requests)).turns
        #expect(turns.map { $0.requests.map(\.requestID) } == [[1], [2, 3]])
        #expect(turns.map(\.turnID) == [10, 11])
    }

    static func causes(_ requests: [RequestRecord], handoffs: [HandoffRecord] = []) -> [[CacheFindings.Cause]]
    {
        let trace = RecordedTrace(path: "memory", runs: [run(requests: requests, handoffs: handoffs)])
        return CacheFindings.analyze(trace).findings.map(\.causes)
    }

    @Test func aModelChangeBreaksTheCacheEvenWhenTheTranscriptIsReusedWhole() {
        #expect(
            Self.causes([
                Self.request(1, at: 100), Self.request(2, at: 200, entries: 4, reused: 2, model: "n"),
            ])
                == [[.modelSwitch]])
    }

    @Test func aProfileSwitchAloneIsABreakOnlyWhenTheServerShowsOne() {
        let profile = HandoffRecord(handoffID: 9, sessionID: 7, ts: 150, kind: "profile", from: "p", to: "q")
        let unknown = [
            Self.request(1, at: 100), Self.request(2, at: 200, entries: 4, reused: 2, profile: "q"),
        ]
        #expect(Self.causes(unknown, handoffs: [profile]).isEmpty)
        let kept = [
            Self.request(1, at: 100, input: 100, cached: 0),
            Self.request(2, at: 200, entries: 4, reused: 2, input: 150, cached: 100, profile: "q"),
        ]
        #expect(Self.causes(kept, handoffs: [profile]).isEmpty)
        let lost = [
            Self.request(1, at: 100, input: 100, cached: 0),
            Self.request(2, at: 200, entries: 4, reused: 2, input: 150, cached: 10, profile: "q"),
        ]
        #expect(Self.causes(lost, handoffs: [profile]) == [[.profileSwitch]])
    }

    @Test func theServersCachedTokensOverruleTheClientsEvidence() {
        // The history was rewritten, yet the server reused all but 2 tokens of 200: no break.
        let kept = [
            Self.request(1, at: 100, entries: 4, input: 200, cached: 0),
            Self.request(2, at: 200, entries: 4, reused: 3, input: 260, cached: 198),
        ]
        #expect(Self.causes(kept).isEmpty)
        // A drop with no change on the client's side (another session evicted the cache): no break.
        let evicted = [
            Self.request(1, at: 100, input: 200, cached: 0),
            Self.request(2, at: 200, entries: 4, reused: 2, input: 260, cached: 0),
        ]
        #expect(Self.causes(evicted).isEmpty)
        let broken = [
            Self.request(1, at: 100, entries: 4, input: 200, cached: 0),
            Self.request(2, at: 200, entries: 4, reused: 1, input: 260, cached: 40),
        ]
        let report = CacheFindings.analyze(RecordedTrace(path: "m", runs: [Self.run(requests: broken)]))
        #expect(report.findings.map(\.causes) == [[.historyTransform]])
        #expect(report.findings.first?.cachedTokensLost == 160)
    }

    @Test func changedInstructionsAreNotAlsoAHistoryTransform() {
        let requests = [
            Self.request(1, at: 100, instructions: "a"),
            Self.request(2, at: 200, entries: 4, reused: 0, instructions: "b"),
        ]
        #expect(Self.causes(requests) == [[.instructionsChanged]])
    }

    @Test func theFirstRequestOfASessionAndAnAppendOnlyChatAreNotBreaks() {
        let requests = [
            Self.request(1, at: 100, entries: 1), Self.request(2, at: 200, entries: 3, reused: 1),
            Self.request(3, at: 300, entries: 5, reused: 3),
        ]
        #expect(Self.causes(requests).isEmpty)
    }

    // MARK: trace-report check

    @Test func checkRanksEveryFindingByCostWithTheCommandThatShowsIt() throws {
        let stores = [scenarioPath(.roundLoop), scenarioPath(.modelSwitch), scenarioPath(.oversizedOutput)]
        let result = try runProgram(try builtBinary(), ["check", "--json"] + stores)
        #expect(result.status == 0)
        let object = try parseJSON(result.out)
        #expect(object["stores"] as? [String] == stores)
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(
            findings.map { $0["kind"] as? String } == [
                "loop", "near_identical_arguments", "cache_break", "oversized_tool_output",
            ])
        let costs = findings.map { (($0["cost"] as? [String: Any])?["time_ns"] as? Int ?? -1) }
        #expect(costs == costs.sorted(by: >))
        let counts = try #require(object["counts"] as? [String: Int])
        #expect(counts["loop"] == 1 && counts["prompt_growth"] == 0)
        for finding in findings {
            let command = try #require(finding["detail_command"] as? String)
            let words = command.split(separator: " ").map(String.init)
            #expect(words.first == "trace-report")
            let detail = try runProgram(try builtBinary(), Array(words.dropFirst()))
            let session = try #require(finding["session"] as? String)
            #expect(detail.status == 0, "\(command): \(detail.err)")
            #expect(detail.out.contains(session))
        }
    }

    @Test func checkPrintsOneLinePerFindingAndGatesOnRequest() throws {
        let binary = try builtBinary()
        let text = try runProgram(binary, ["check", scenarioPath(.alternation)])
        #expect(text.status == 0)
        let lines = text.out.split(separator: "\n").filter { $0.contains("trace-report tools") }
        #expect(lines.count == 3)
        #expect(lines[0].contains("loop [triage turn 1 "))
        #expect(
            try runProgram(binary, ["check", "--fail-on-findings", scenarioPath(.alternation)]).status == 1)
        let quiet = try runProgram(binary, ["check", "--fail-on-findings", scenarioPath(.pagination)])
        #expect(quiet.status == 0)
        #expect(quiet.out.contains("no findings"))
        let missing = try runProgram(binary, ["check", scenarioPath(.pagination), "/nonexistent/x.sqlite"])
        #expect(missing.status == 2)
        #expect(missing.out.isEmpty)
        #expect(missing.err.split(separator: "\n").count == 1)
        #expect(try runProgram(binary, ["check"]).status == 2)
    }

    /// What `check` says of the real planner runs, each finding with the reason it holds; a new
    /// kind of finding here must be judged and written down in docs/trace-report.md first.
    @Test func thePlannerRunsGiveOnlyFindingsThatHold() throws {
        let directory = packageRoot.appendingPathComponent("tracefiles/planner").path
        let stores = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".sqlite") }.sorted().map { directory + "/" + $0 }
        try #require(!stores.isEmpty)
        for store in stores {
            let trace = try TraceLoader.load(path: store)
            for finding in Diagnosis.analyze([trace]).findings {
                let place = "\(finding.kind.rawValue) in \(finding.sessionLabel)"
                switch (finding.kind, finding.sessionLabel) {
                case (.cappedAnswer, _):
                    // SmolLM2 does not finish a day plan in 64 tokens (`--max-tokens 64`, economy
                    // mode's 64), nor every answer about the notes in 160: each named answer stopped
                    // at the cap its request asked for.
                    let requests = trace.runs.flatMap(\.requests).filter { finding.requestIDs.contains($0.requestID) }
                    #expect(!requests.isEmpty, "\(store): \(place) names no request")
                    for request in requests {
                        #expect(request.maxTokens != nil && request.outputTokens == request.maxTokens,
                                "\(store): \(place): \(request.outputTokens ?? -1) of \(request.maxTokens ?? -1) tokens")
                    }
                case (.identicalArguments, "context"):
                    // SmolLM2 searched the notes with the same query in two turns about different topics.
                    #expect(finding.summary.contains("search_notes"), "\(store)")
                case (.cacheBreak, "plan"):
                    // Economy mode's rolling window of one prompt drops the previous exchange.
                    guard case .array(let causes)? = finding.evidence["causes"] else {
                        Issue.record("\(store): \(place) without causes")
                        continue
                    }
                    #expect(causes.contains(.string("history_transform")), "\(store): \(finding.summary)")
                default:
                    Issue.record("\(store): \(place) not judged: \(finding.summary)")
                }
            }
        }
    }
}
