import Foundation
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

    @Test func aGrowingSessionNamesItsLargestPrompt() throws {
        let json = try parseJSON(report(["growth", "--json", scenarioPath(.promptBloat)]).out)
        let sessions = try #require(json["sessions"] as? [[String: Any]])
        let finding = try #require((json["findings"] as? [[String: Any]])?.first)
        let session = try #require(sessions.first { $0["session_id"] as? String == finding["session_id"] as? String })
        let prompts = try #require(session["requests"] as? [[String: Any]])
        let largest = prompts.max { ($0["input_tokens"] as? Int ?? 0) < ($1["input_tokens"] as? Int ?? 0) }
        #expect(finding["largest_request_id"] as? String == largest?["request_id"] as? String)
        #expect(finding["largest_request_id"] as? String != nil)
    }
}
