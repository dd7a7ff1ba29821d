import Foundation
import TestSupport
import Testing
import TraceScenarios

@testable import TraceAnalysis
import TraceStore

/// Runs the built `trace-report` binary, as a user or a CI job would.
@Suite("trace-report end to end")
struct EndToEndTests {
    @Test(arguments: ["summary", "timeline", "tools", "cache", "capped", "growth"])
    func binaryPrintsWhatTheLibraryRenders(command: String) throws {
        let binary = try builtBinary()
        for scenario in Scenario.allCases {
            let arguments = [command, scenarioPath(scenario)]
            let result = try runProgram(binary, arguments, environment: ["PATH": "/usr/bin"])
            #expect(result.status == 0)
            #expect(result.err.isEmpty)
            #expect(result.out == report(arguments).out, "\(command) \(scenario)")
            let json = try runProgram(binary, [command, "--json", scenarioPath(scenario)])
            #expect(json.status == 0)
            let object = try parseJSON(json.out)
            #expect(object["store"] as? String == scenarioPath(scenario))
        }
    }

    /// Every analysis on every real planner run in `tracefiles/planner/`, recorded from SmolLM2.
    @Test(arguments: ["summary", "timeline", "tools", "cache", "capped", "growth"])
    func everyAnalysisReadsTheRecordedPlannerRuns(command: String) throws {
        let binary = try builtBinary()
        let directory = packageRoot.appendingPathComponent("tracefiles/planner").path
        let stores = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".sqlite") }.sorted().map { directory + "/" + $0 }
        try #require(!stores.isEmpty, "no planner runs in tracefiles/planner")
        for store in stores {
            let result = try runProgram(binary, [command, "--json", store])
            #expect(result.status == 0, "\(command) \(store): \(result.err)")
            let object = try parseJSON(result.out)
            #expect(object["store"] as? String == store)
        }
        let summary = try parseJSON(try runProgram(binary, ["summary", "--json", stores[0]]).out)
        let runs = try #require(summary["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        #expect((runs[0]["requests"] as? Int ?? 0) > 0)
    }

    @Test func toolsOutputOfTheLoopScenario() throws {
        let result = try runProgram(try builtBinary(), ["tools", scenarioPath(.toolLoop)])
        let lines = result.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            lines.contains(
                "loop: search_notes called 3 times with near-identical arguments in one turn, in one request, "
                    + "results overlap (similarity ≥ 0.78)"))
        #expect(lines.contains(
            "near-identical arguments: search_notes called 3 times with similar arguments (similarity ≥ 1.00)"))
        #expect(lines.contains("  cost: 2 repeats took 80.0 ms of tool time"))
        #expect(lines.contains(#"    2. at 458 ms, 40.0 ms, ok, repeat  {"query":"launch prep"}"#))
    }

    @Test(arguments: [
        ("tools", Scenario.toolLoop), ("tools", .oversizedOutput), ("cache", .rollingWindow), ("cache", .modelSwitch),
        ("capped", .cappedAnswers), ("growth", .promptBloat), ("check", .roundLoop),
    ])
    func gatingExitsOneOnFindingsAndZeroWithout(command: String, scenario: Scenario) throws {
        let binary = try builtBinary()
        #expect(try runProgram(binary, [command, "--fail-on-findings", scenarioPath(scenario)]).status == 1)
        #expect(try runProgram(binary, [command, scenarioPath(scenario)]).status == 0)
        #expect(try runProgram(binary, [command, "--fail-on-findings", scenarioPath(.pagination)]).status == 0)
    }

    @Test func summaryJSONHasTheDocumentedKeys() throws {
        let result = try runProgram(try builtBinary(), ["summary", "--json", scenarioPath(.modelSwitch)])
        let object = try parseJSON(result.out)
        #expect(object["percentile_method"] as? String == "nearest-rank")
        let profiles = try #require(object["profiles"] as? [[String: Any]])
        #expect(profiles.count == 2)
        let first = profiles[0]
        for key in ["profile", "model", "requests", "ttft_ns", "tokens_per_second_p50", "latency_ns", "model_time_ns",
                    "tool_time_ns", "cache_hit_rate", "errors"] {
            #expect(first[key] != nil, "missing \(key)")
        }
        let ttft = try #require(first["ttft_ns"] as? [String: Any])
        #expect(Set(ttft.keys) == ["p50", "p95", "max"])
    }

    @Test func badInputIsOneSentenceAndExitTwo() throws {
        let binary = try builtBinary()
        let directory = try TemporaryDirectory()
        let text = directory.path("notes.txt")
        try "hello, not a database\n".write(toFile: text, atomically: true, encoding: .utf8)
        let truncated = directory.path("truncated.sqlite")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: scenarioPath(.toolLoop)))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: truncated))
        let newer = directory.path("newer.sqlite")
        try bytes.write(to: URL(fileURLWithPath: newer))
        try sqlite(newer, "UPDATE meta SET value = 99 WHERE key = 'schema_version'")
        let empty = directory.path("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        let cases: [(String, String)] = [
            (directory.path("missing.sqlite"), "does not exist"),
            (text, "is not a SessionTrace store"),
            (empty, "is not a SessionTrace store (the file is empty)"),
            (truncated, "is a damaged SessionTrace store (truncated"),
            (newer, "has schema version 99, newer than this tool's \(StoreSchema.version)"),
        ]
        for command in ["summary", "timeline", "tools", "cache", "capped", "growth", "check"] {
            for (path, message) in cases {
                let result = try runProgram(binary, [command, path])
                #expect(result.status == 2, "\(command) \(path)")
                #expect(result.out.isEmpty)
                #expect(result.err.hasPrefix("trace-report: \(path) "))
                #expect(result.err.contains(message), "\(command): \(result.err)")
                #expect(result.err.filter { $0 == "\n" }.count == 1)
            }
        }
    }

    @Test func storesAreReadOnlyAndByteForByteUnchanged() throws {
        let binary = try builtBinary()
        let directory = try TemporaryDirectory()
        let path = directory.path("copy.sqlite")
        try FileManager.default.copyItem(atPath: scenarioPath(.toolLoop), toPath: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        // Each command must have read the store and reported, not stopped early (exit 2) or printed
        // something else: a binary that never opens the store leaves it unchanged too.
        for command in ["summary", "timeline", "tools", "cache", "capped", "growth", "check"] {
            let text = try runProgram(binary, [command, path])
            #expect(text.status == 0, "\(command): \(text.err)")
            #expect(text.err.isEmpty, "\(command)")
            #expect(text.out == report([command, path]).out, "\(command)")
            let json = try runProgram(binary, [command, "--json", path])
            #expect(json.status == 0, "\(command) --json: \(json.err)")
            #expect(json.out == report([command, "--json", path]).out, "\(command) --json")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["copy.sqlite"])
    }

    @Test func usageErrorsFromTheBinary() throws {
        let binary = try builtBinary()
        let unknown = try runProgram(binary, ["summary", "--frobnicate", scenarioPath(.toolLoop)])
        #expect(unknown.status == 2)
        #expect(unknown.err == "trace-report summary: unknown option --frobnicate; see 'trace-report summary --help'\n")
        let help = try runProgram(binary, ["summary", "--help"])
        #expect(help.status == 0)
        #expect(help.out.contains("nearest-rank"))
        let noSession = try runProgram(binary, ["timeline", "--session", "ghost", scenarioPath(.toolLoop)])
        #expect(noSession.status == 2)
        #expect(noSession.err == "trace-report: no session is labelled or numbered 'ghost' in the store\n")
    }
}
