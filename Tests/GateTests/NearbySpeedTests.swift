import Foundation
import SessionTrace
import TestSupport
import Testing
import TraceStore

@testable import LatencyGate

/// A load that starts within a run: the gate scales each request by the machine's speed around
/// it, so the busy part of a run is not judged at the quiet part's speed.
@Suite("machine speed within a run")
struct NearbySpeedTests {
    @Test func meanOfTheNearestRequestOnEachSideItselfLeftOut() {
        // Given out of time order; speeds 10 until the load, 30 after it.
        let starts: [Int64] = [5, 0, 1, 4, 2, 3]
        let perToken: [Double?] = [30, 10, 10, 30, 10, 30]
        #expect(NearbySpeed.of(perToken: perToken, starts: starts) == [30, 10, 10, 30, 20, 20])
        // Requests without a speed are passed over, and get one all the same.
        #expect(NearbySpeed.of(perToken: [10, nil, 30], starts: [0, 1, 2]) == [30, 20, 10])
        #expect(NearbySpeed.of(perToken: [10], starts: [0]) == [nil], "no other request")
        #expect(NearbySpeed.of(perToken: [nil, nil], starts: [0, 1]) == [nil, nil])
    }

    /// Runs of 6 `default` requests, then 5 `plan` ones; `load` slows the plan requests (the
    /// server's time per token and the request's times alike), `tokens` is what each plan request
    /// generates, at its cap.
    private func store(
        _ directory: TemporaryDirectory, _ name: String, runs: Int, load: Double, tokens: Int64 = 50
    ) throws -> String {
        let path = directory.path(name)
        let sink = try StoreSink(path: path)
        for run in 0..<runs {
            let tracer = Tracer(sink: sink, label: "demo")
            var ts = Int64(run) * 100_000_000_000 + 1_000_000_000
            for index in 0..<11 {
                let plan = index >= 6
                let slowdown = plan ? load : 1
                // 10 ms a token, ±5% from request to request; a 100 ms prompt.
                let perToken = 10_000_000 * (1 + 0.05 * Double((index * 7 + run * 3) % 5 - 2) / 2) * slowdown
                let generated: Int64 = plan ? tokens : 40
                let generation = Int64(perToken * Double(generated))
                let ttft = Int64(100_000_000 * slowdown)
                tracer.record(
                    .request(
                        RequestRecord(
                            requestID: tracer.makeID(), ts: ts, dur: ttft + generation, timeToFirstToken: ttft,
                            profile: plan ? "plan" : "default", provider: "llama.cpp", model: "m", inputTokens: 200,
                            cachedInputTokens: 100, outputTokens: generated,
                            serverTimings: ServerTimings(
                                promptTokens: 100, cachedTokens: 100, promptDuration: ttft / 2,
                                predictedTokens: generated, predictedDuration: generation),
                            maxTokens: generated, temperature: 0)),
                    kind: .request)
                ts += ttft + generation + 50_000_000
            }
        }
        sink.close()
        return path
    }

    private func gate(_ baseline: String, _ current: String) throws -> GateEvaluation {
        try GateEvaluation.evaluate(
            baseline: try LatencyBaseline.make(paths: [baseline], grouping: .label),
            current: try LatencyBaseline.make(paths: [current], grouping: .label))
    }

    @Test func aLoadThatStartsWithinARunIsNoRegressionAndARealOneStillIs() throws {
        let directory = try TemporaryDirectory()
        let quiet = try store(directory, "quiet.sqlite", runs: 3, load: 1)
        let loaded = try store(directory, "loaded.sqlite", runs: 3, load: 3)
        // 6 of 11 requests quiet: the run's median speed is the quiet one, so one speed for the
        // whole run would leave the plan requests three times as slow.
        let calm = try gate(quiet, loaded)
        #expect(calm.regressions.isEmpty, "\(calm.regressions.map { "\($0.group) \($0.key)" })")

        // The same load, and plan requests allowed and generating five times as much: still a regression.
        let longer = try store(directory, "longer.sqlite", runs: 3, load: 3, tokens: 250)
        let regressed = try gate(quiet, longer)
        #expect(regressed.regressions.map { "\($0.group.profile) \($0.key)" } == ["plan latency.p50"])

        // A baseline file keeps each request's nearby speed, and reads back to the same verdicts.
        let file = directory.path("quiet.json")
        try LatencyBaseline.make(paths: [quiet], grouping: .label).write(path: file)
        var json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
        func editRuns(_ edit: (inout [String: Any]) -> Void) throws -> String {
            var groups = json["groups"] as? [[String: Any]] ?? []
            for group in groups.indices {
                var runs = groups[group]["runs"] as? [[String: Any]] ?? []
                for run in runs.indices { edit(&runs[run]) }
                groups[group]["runs"] = runs
            }
            var edited = json
            edited["groups"] = groups
            let path = directory.path("edited-\(UUID().uuidString).json")
            try JSONSerialization.data(withJSONObject: edited).write(to: URL(fileURLWithPath: path))
            return path
        }
        let firstRun = try #require(((json["groups"] as? [[String: Any]])?.first?["runs"] as? [[String: Any]])?.first)
        #expect((firstRun["nearby_server_ns_per_token"] as? [Int])?.first == 10_000_000, "the next request's speed")
        let fromFile = try GateEvaluation.evaluate(
            baseline: try LatencyBaseline.make(paths: [file], grouping: .label),
            current: try LatencyBaseline.make(paths: [loaded], grouping: .label))
        #expect(fromFile.regressions.isEmpty)

        // A file written before the column was kept is read with each run's speed.
        let old = try editRuns { $0["nearby_server_ns_per_token"] = nil }
        let withoutColumn = try LatencyBaseline.make(paths: [old], grouping: .label)
        #expect(withoutColumn.groups.flatMap(\.requests).allSatisfy { $0.nearbyServerNanosPerToken == nil })
        #expect(withoutColumn.groups.flatMap(\.runs).allSatisfy { $0.serverNanosPerToken != nil })

        // A speed of 0 would scale every time to 0: refused, naming where.
        json["groups"] = (json["groups"] as? [[String: Any]]).map { Array($0.prefix(1)) }
        let zero = try editRuns { run in
            var speeds = run["nearby_server_ns_per_token"] as? [Int] ?? []
            speeds[0] = 0
            run["nearby_server_ns_per_token"] = speeds
        }
        #expect {
            _ = try LatencyBaseline.make(paths: [zero], grouping: .label)
        } throws: { error in
            "\(error)".contains("nearby_server_ns_per_token of group 1, run 1, value 1 holds 0")
        }
    }
}
