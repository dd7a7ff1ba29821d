import Foundation
import TestSupport
import Testing
import TraceModel
import TraceAnalysis

@testable import TraceReportCLI

/// One grammar across `trace-report`: the options every subcommand takes, `--json` where a
/// subcommand reports, usage lines that list every option, and completions and a man page made
/// from the same help, each checked with the program that reads it (jq, bash, zsh, fish, man).
@Suite("one command grammar")
struct CommandGrammarTests {
    static let planner = packageRoot.appendingPathComponent("tracefiles/planner").path
    static let baseline = packageRoot.appendingPathComponent("tracefiles/baseline/planner-baseline.json").path

    /// Runs `script` in bash with `$TR` set to the built trace-report, failing on any failed step.
    static func bash(_ script: String) throws -> (status: Int32, out: String, err: String) {
        let result = try runProgram("/bin/bash", ["-c", "set -euo pipefail; TR=\(try builtBinary()); " + script])
        return (result.status, result.out, result.err)
    }

    @Test("every subcommand's help lists each option in its usage, --no-color included")
    func usageListsEveryOption() throws {
        let binary = try builtBinary()
        for command in TraceReport.commands {
            let help = try runProgram(binary, [command.name, "--no-color", "--help"])
            #expect(help.status == 0, "\(command.name): \(help.err)")
            let lines = help.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let start = try #require(lines.firstIndex { $0.hasPrefix("Usage: ") })
            let usage = lines[start...].prefix { !$0.isEmpty }.joined(separator: " ")
            let listed = lines.drop { $0 != "Options:" }.dropFirst().compactMap { line in
                line.split(separator: " ").first.map(String.init)
            }
            #expect(listed.contains("--no-color"), "\(command.name)")
            for option in listed where option != "--help" {
                #expect(usage.contains(option), "\(command.name): usage lacks \(option)")
            }
            #expect(lines[start...].prefix { !$0.isEmpty }.allSatisfy { $0.count <= 100 }, "\(command.name)")
        }
    }

    @Test("every subcommand that reports writes JSON that jq reads, with --no-color", arguments: [
        "check", "summary", "timeline", "tools", "cache", "capped", "growth",
    ])
    func analysesWriteJSON(command: String) throws {
        let result = try Self.bash("$TR \(command) --no-color --json \(Self.planner)/run-2.sqlite | jq -e 'type'")
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out == "\"object\"\n")
    }

    @Test func diffGateAndRedactWriteJSONThatJqReads() throws {
        let runs = "\(Self.planner)/run-1.sqlite \(Self.planner)/run-2.sqlite"
        let diff = try Self.bash("$TR diff --no-color --json \(runs) | jq -e '.scenarios | length > 0'")
        #expect(diff.status == 0 && diff.out == "true\n", "\(diff.err)")
        // The gate's JSON holds every check with its verdict; its exit status still says pass or fail.
        let gate = try Self.bash("""
            out=$(mktemp); status=0
            $TR gate --no-color --json --baseline \(Self.baseline) --min-samples 1 \(runs) > $out || status=$?
            jq -r '"\\(.passed) \\(.checks | length) \\(.checks[0] | has("verdict"))"' $out; rm $out; echo $status
            """)
        let words = gate.out.split(whereSeparator: \.isWhitespace).map(String.init)
        try #require(words.count == 4, "\(gate.out)\(gate.err)")
        #expect(Int(words[1]).map { $0 > 0 } == true)
        #expect(words[2] == "true")
        #expect((words[0] == "true" && words[3] == "0") || (words[0] == "false" && words[3] == "1"))
        let mixed = try runProgram(
            try builtBinary(), ["gate", "--json", "--github", "--baseline", Self.baseline, "\(Self.planner)/run-1.sqlite"])
        #expect(mixed.status == 2 && mixed.err.contains("--json writes one JSON document"))
        let redact = try Self.bash("echo 'mail ana@example.org' | $TR redact --report --json --no-color | jq -r '.kinds[0].kind'")
        #expect(redact.out == "email\n", "\(redact.err)")
    }

    @Test func bashCompletesSubcommandsOptionsAndValues() throws {
        func complete(_ words: [String]) throws -> [String] {
            let line = words.map { "'\($0)'" }.joined(separator: " ")
            let result = try Self.bash("""
                source <($TR completions bash); COMP_WORDS=(trace-report \(line)); COMP_CWORD=\(words.count)
                _trace_report; printf '%s\\n' "${COMPREPLY[@]}"
                """)
            #expect(result.status == 0, "\(result.err)")
            return result.out.split(separator: "\n").map(String.init)
        }
        #expect(try complete(["ga"]) == ["gate"])
        #expect(try complete(["export", "--format", ""]) == ["perfetto", "otlp", "jsonl", "html"])
        #expect(try complete(["gate", "--j"]) == ["--junit", "--json"])
        #expect(try complete(["timeline", "--no-c"]) == ["--no-color"])
        #expect(try complete(["redact", "--input-format", "js"]) == ["json", "jsonl"])
        #expect(try complete(["completions", ""]) == ["bash", "zsh", "fish"])
        #expect(try complete(["summary", "\(Self.planner)/run-1.sq"]) == ["\(Self.planner)/run-1.sqlite"])
    }

    @Test func fishCompletesSubcommandsOptionsAndValues() throws {
        func complete(_ line: String) throws -> [String] {
            let result = try Self.bash("fish -c \"$TR completions fish | source; complete -C'\(line)'\"")
            #expect(result.status == 0, "\(result.err)")
            return result.out.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
        }
        #expect(try complete("trace-report ga") == ["gate"])
        #expect(try complete("trace-report export --format ") == ["html", "jsonl", "otlp", "perfetto"])
        #expect(try complete("trace-report diff --spe") == ["--speed"])
        #expect(try complete("trace-report gate --no-co") == ["--no-color"])
    }

    @Test func zshLoadsTheCompletionAndKnowsEverySubcommand() throws {
        let directory = try TemporaryDirectory()
        let script = directory.path("_trace-report")
        let result = try Self.bash("""
            $TR completions zsh > \(script); zsh -n \(script)
            zsh -fc 'fpath=(\(directory.url.path) $fpath); autoload -Uz compinit; compinit -u -d \(directory.path("dump"))
                print -r -- ${_comps[trace-report]}'
            """)
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out == "_trace-report\n")
        let text = try String(contentsOfFile: script, encoding: .utf8)
        for command in TraceReport.commands { #expect(text.contains("    \(command.name))\n"), "\(command.name)") }
        #expect(text.contains("'--format[the format to write]:perfetto|otlp|jsonl|html:(perfetto otlp jsonl html)'"))
    }

    @Test("the man page renders without a warning and holds every subcommand's usage and options")
    func manPage() throws {
        let result = try Self.bash("$TR man | groff -k -man -Tutf8 -ww -z")
        #expect(result.status == 0 && result.err.isEmpty, "\(result.err)")
        let page = try Self.bash("$TR man | MANWIDTH=200 man -l - | col -b")
        #expect(page.status == 0, "\(page.err)")
        for command in TraceReport.commands {
            #expect(page.out.contains("trace-report \(command.name)"), "\(command.name)")
            for option in command.acceptedOptions {
                #expect(page.out.contains(option.name), "\(command.name) \(option.name)")
            }
        }
        #expect(page.out.contains("--input-format json|jsonl|text"))
    }

    @Test func badShellExitsTwoWithOneSentence() throws {
        let result = try runProgram(try builtBinary(), ["completions", "tcsh"])
        #expect(result.status == 2)
        #expect(result.err == "trace-report completions: no completions for 'tcsh'; name one of bash, zsh, fish; "
            + "see 'trace-report completions --help'\n")
    }

    @Test("a mistyped subcommand or option is answered with the nearest one", arguments: [
        (["sumary", planner + "/run-1.sqlite"], "unknown subcommand 'sumary'; did you mean 'summary'?"),
        (["chekc", planner + "/run-1.sqlite"], "did you mean 'check'?"),
        (["summary", "--jsn", planner + "/run-1.sqlite"], "unknown option --jsn; did you mean '--json'?"),
        (["gate", "--basline", baseline, planner + "/run-1.sqlite"], "did you mean '--baseline'?"),
    ])
    func didYouMean(arguments: [String], expected: String) throws {
        let result = try runProgram(try builtBinary(), arguments)
        #expect(result.status == 2)
        #expect(result.err.contains(expected), "\(result.err)")
        #expect(result.err.split(separator: "\n").count == 1)
    }

    @Test func aWordNearNothingGetsNoSuggestion() {
        #expect(Suggestion.nearest(to: "frobnicate", among: TraceReport.commands.map { $0.name }) == nil)
        #expect(Suggestion.nearest(to: "x", among: ["--json", "--run"]) == nil)
        // Equally near two: no guess.
        #expect(Suggestion.nearest(to: "ab", among: ["ac", "bb"]) == nil)
        #expect(Suggestion.nearest(to: "tiemline", among: ["timeline", "tools"]) == "timeline")
    }
}

/// `--run` takes a run's label as `--session` takes a session's, and every per-run report takes both.
@Suite("Choosing runs and sessions")
struct RunAndSessionChoiceTests {
    static let store = packageRoot.appendingPathComponent("tracefiles/planner/run-1.sqlite").path

    @Test func aRunIsChosenByItsLabel() throws {
        let json = try parseJSON(report(["tools", "--json", "--run", "planner", Self.store]).out)
        #expect((json["tool_calls"] as? Int ?? 0) > 0)
        let missing = report(["tools", "--run", "nightly", Self.store])
        #expect(missing.status == .usageOrInput)
        #expect(missing.err.contains("no run 'nightly'"))
    }

    /// `#3` unquoted starts a shell comment, so `--session 3` means the same session; `summary --json`
    /// gives the short ids beside the full ones.
    @Test func aSessionIsChosenByItsNumberWithOrWithoutTheHash() throws {
        let bare = report(["timeline", "--no-color", "--session", "3", Self.store])
        let hashed = report(["timeline", "--no-color", "--session", "#3", Self.store])
        #expect(bare.status == .success && !bare.out.isEmpty)
        #expect(bare.out == hashed.out)
        #expect(report(["timeline", "--session", "999", Self.store]).status == .usageOrInput)
        let summary = try parseJSON(report(["summary", "--json", Self.store]).out)
        let sessions = try #require(summary["sessions"] as? [[String: Any]])
        #expect(sessions.contains { $0["session_short_id"] as? String == "#3" })
        let runs = try #require(summary["runs"] as? [[String: Any]])
        for run in runs {
            let id = try #require(Int64(run["run_id"] as? String ?? ""))
            #expect(run["run_short_id"] as? String == ShortID.run(id))
        }
    }

    @Test func growthTakesRunAndSession() throws {
        let json = try parseJSON(report(["growth", "--json", "--run", "planner", "--session", "plan", Self.store]).out)
        let sessions = try #require(json["sessions"] as? [[String: Any]])
        #expect(sessions.map { $0["session"] as? String } == ["plan"])
        #expect(report(["growth", "--session", "nope", Self.store]).status == .usageOrInput)
    }
}
