import Foundation
import SessionTrace
import TestSupport
import Testing
import TraceScenarios

/// Evidence that names what a reader needs without another command: the tool of each call of a
/// loop, and the largest prompt of a growing session.
@Suite("Evidence keys")
struct EvidenceKeysTests {
    @Test func aLoopsCallsNameTheirTools() throws {
        let json = try parseJSON(report(["tools", "--json", scenarioPath(.toolLoop)]).out)
        let findings = try #require(json["findings"] as? [[String: Any]])
        let loop = try #require(findings.first { $0["kind"] as? String == "loop" })
        let calls = try #require(loop["calls"] as? [[String: Any]])
        let tools = Set((loop["pattern"] as? [String] ?? []) + [loop["tool"] as? String ?? ""])
        #expect(!calls.isEmpty)
        #expect(calls.allSatisfy { tools.contains($0["name"] as? String ?? "") }, "\(calls.map { $0["name"] })")
    }

    /// The prompt passes the warning share at its third request and keeps growing: the largest is
    /// the last, not the first over the share.
    @Test func aGrowingSessionNamesItsLargestPrompt() throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("growing.sqlite")
        var ids: [Int64] = []
        try makeStore(store) { tracer, clock in
            let session = tracer.makeID()
            for input: Int64 in [1_000, 3_000, 6_500, 7_000, 8_000] {
                ids.append(request(tracer, session: session, at: clock.now(), input: input).requestID)
                clock.advance(by: 1_000_000_000)
            }
            tracer.record(.session(SessionRecord(sessionID: session, ts: 0, dur: clock.now(), label: "s")), kind: .session)
        }
        let json = try parseJSON(report(["growth", "--json", store]).out)
        let finding = try #require((json["findings"] as? [[String: Any]])?.first)
        #expect(finding["first_over_warning_request_id"] as? String == String(ids[2]))
        #expect(finding["largest_request_id"] as? String == String(ids[4]))
    }
}
