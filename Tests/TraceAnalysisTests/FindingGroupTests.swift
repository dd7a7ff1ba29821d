import Foundation
import SessionTrace
import TestSupport
import Testing

@testable import TraceAnalysis
@testable import TraceReportCLI

/// A thousand repeats of one problem read as one group: `check` fits on a screen, `--json` keeps
/// every instance inside its group, and a break within noise is listed apart.
@Suite("Finding groups")
struct FindingGroupTests {
    /// 10 sessions of 200 requests; every 5th request's prompt is re-read from scratch (a cache
    /// break of `lost` tokens that made the first token `slower`): 39 breaks in each of 10 sessions.
    static func writeRepeatedBreaks(_ path: String, lost: Int64 = 4_000, slower: Int64 = 300_000_000) throws {
        try makeStore(path) { tracer, clock in
            for index in 0..<10 {
                let session = tracer.makeID()
                let start = clock.now()
                for turn in 0..<200 {
                    let breaks = turn > 0 && turn % 5 == 0
                    request(
                        tracer, session: session, at: clock.now(), ttft: 100_000_000 + (breaks ? slower : 0),
                        entries: Int64(2 + 2 * turn), reused: breaks || turn == 0 ? 0 : Int64(2 * turn),
                        input: lost + 100, cached: breaks || turn == 0 ? 0 : lost)
                    clock.advance(by: 600_000_000)
                }
                tracer.record(
                    .session(SessionRecord(sessionID: session, ts: start, dur: clock.now() - start, label: "agent \(index)")),
                    kind: .session)
            }
        }
    }

    @Test func aThousandRepeatsFitOnAScreen() throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("repeats.sqlite")
        try Self.writeRepeatedBreaks(store)
        let check = report(["check", "--no-color", store])
        let lines = check.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(check.out.contains("390 findings in 10 groups"), "\(check.out.prefix(300))")
        #expect(lines.count <= 30, "\(lines.count) lines")
        #expect(check.out.contains("cache_break ×39 [agent 0]"))

        let limited = report(["check", "--no-color", "--limit", "3", store]).out
        #expect(limited.split(separator: "\n").filter { $0.contains("cache_break ×39") }.count == 3)
        #expect(limited.contains("and 7 more groups (--limit N lists more)"))
        let expanded = report(["check", "--no-color", "--limit", "1", "--expand", store]).out
        #expect(expanded.split(separator: "\n").filter { $0.contains("  cache_break [agent") }.count == 39)

        let json = try parseJSON(report(["check", "--json", store]).out)
        let groups = try #require(json["groups"] as? [[String: Any]])
        #expect(groups.count == 10)
        for group in groups {
            let instances = try #require(group["instances"] as? [[String: Any]])
            #expect(group["count"] as? Int == 39 && instances.count == 39)
            #expect(group["severity"] as? String == "medium", "each break: 300 ms and 4,000 tokens")
            #expect(Set(instances.compactMap { $0["session_id"] as? String }) == [group["session_id"] as? String])
            #expect(instances.allSatisfy { $0["kind"] as? String == "cache_break" })
        }
        #expect((json["findings"] as? [Any])?.count == 390)
    }

    /// Breaks that lost fewer cached tokens than the floor, or after which the first token came no
    /// later, are counted apart below the real ones, and listed with `--all`.
    @Test(arguments: [(lost: Int64(100), slower: Int64(300_000_000)), (lost: Int64(4_000), slower: Int64(-5_000_000))])
    func breaksWithinNoiseAreListedApart(lost: Int64, slower: Int64) throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("noise.sqlite")
        try Self.writeRepeatedBreaks(store, lost: lost, slower: slower)
        let check = report(["check", "--no-color", store]).out
        #expect(!check.contains("cache_break ×39"))
        #expect(check.contains("within noise, listed apart: 10 groups of 390 findings (--all lists them)"))
        let all = report(["check", "--no-color", "--all", store]).out
        #expect(all.contains("Within noise"))
        #expect(all.split(separator: "\n").filter { $0.contains("cache_break ×39") }.count == 10)
        let json = try parseJSON(report(["check", "--json", store]).out)
        let severities = (json["groups"] as? [[String: Any]] ?? []).compactMap { $0["severity"] as? String }
        #expect(severities == Array(repeating: "noise", count: 10))
    }

    @Test func severityFollowsTheCost() {
        #expect(Finding.Severity.of(.init(time: 2_000_000_000)) == .high)
        #expect(Finding.Severity.of(.init(tokens: 1_500)) == .medium)
        #expect(Finding.Severity.of(.init(time: 1_000_000, tokens: 10, dollars: 0.02)) == .medium)
        #expect(Finding.Severity.of(.init(time: 1_000_000, tokens: 10)) == .low)
    }
}
