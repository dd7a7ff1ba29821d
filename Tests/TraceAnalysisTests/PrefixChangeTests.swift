import Testing
import TraceScenarios

@testable import TraceAnalysis

/// The shape of a prompt-prefix change, never its value.
@Suite("Prefix change shapes")
struct PrefixChangeTests {
    @Test(arguments: [
        ("Plan the week.\nNow: 2026-06-02 09:41:07.", "Plan the week.\nNow: 2026-06-02 09:42:13.", PrefixChange.timestamp),
        ("Today is 2026-06-02.", "Today is 2026-06-03.", .timestamp),
        ("Clock 1780000000123 ms", "Clock 1780000004567 ms", .timestamp),
        ("Request 6f1c2a34-9b0e-4c7d-8a21-3e5f7b9d0c11 of the plan",
         "Request 0a9b8c7d-1e2f-4a3b-9c8d-7e6f5a4b3c2d of the plan", .uuid),
        ("You are turn 41 of the session.", "You are turn 42 of the session.", .counter),
        (#"{"type":"object","properties":{"a":1,"b":2}}"#, #"{"properties":{"b":2,"a":1},"type":"object"}"#,
         .reorderedJSON),
        (#"[{"name":"a"},{"name":"b"}]"#, #"[{"name":"b"},{"name":"a"}]"#, .reorderedJSON),
        ("Plan the week.  Be brief.", "Plan the week.\nBe brief.", .whitespace),
        ("Today is Monday.", "Today is Tuesday.", .text),
    ])
    func eachShapeIsNamed(old: String, new: String, shape: PrefixChange) {
        #expect(PrefixChange.shape(from: old, to: new) == shape)
    }

    @Test func equalTextsHaveNoChange() {
        #expect(PrefixChange.shape(from: "same", to: "same") == nil)
    }

    /// The chronic scenarios name the shape of the change, and no report prints the changed value.
    @Test func reportsNameTheShapeNeverTheValue() throws {
        let cache = report(["cache", "--json", scenarioPath(.timestampInInstructions)]).out
        let chronic = try #require((try parseJSON(cache)["chronic"] as? [[String: Any]])?.first)
        #expect(chronic["shapes"] as? [String] == ["timestamp"])
        let check = report(["check", scenarioPath(.timestampInInstructions)]).out
        #expect(check.contains("(a timestamp)"))
        for output in [cache, check] { #expect(!output.contains("09:4") && !output.contains("2026-06-02")) }
        let tools = report(["cache", scenarioPath(.reorderedToolSchema)]).out
        #expect(tools.contains("tool definitions changed on every one of 3 follow-up requests"))
        #expect(tools.contains("(reordered JSON)"))
    }
}
