import Testing

@testable import TraceAnalysis
@testable import TraceReportCLI

@Suite("Argument parsing")
struct CommandLineParserTests {
    static let json = OptionSpec.flag("--json", "")
    static let width = OptionSpec.value("--width", "N", "")
    static let from = OptionSpec.value("--from", "T", "")
    static let file = OptionSpec.required("--file", "FILE", "")
    let options = [json, width, from, file]

    @Test func readsFlagsValuesAndPositionalsInAnyOrder() throws {
        let parsed = try CommandLineParser.parse(
            ["--width", "80", "run.sqlite", "--json", "--from=1.5s"], options: options)
        #expect(parsed.flag(Self.json))
        #expect(parsed.value(Self.width) == "80")
        #expect(try parsed.int(Self.width, default: 100) == 80)
        #expect(try parsed.duration(Self.from) == 1_500_000_000)
        #expect(parsed.positionals == ["run.sqlite"])
        #expect(try parsed.storePath() == "run.sqlite")
    }

    @Test func doubleDashEndsOptions() throws {
        let parsed = try CommandLineParser.parse(["--", "--json"], options: options)
        #expect(!parsed.flag(Self.json))
        #expect(parsed.positionals == ["--json"])
    }

    @Test func aRequiredOptionIsCheckedWhereItIsRead() throws {
        let given = try CommandLineParser.parse(["--file", "a.json"], options: options)
        #expect(try given.required(Self.file) == "a.json")
        let absent = try CommandLineParser.parse([], options: options)
        #expect(throws: UsageError("--file FILE is required")) { try absent.required(Self.file) }
    }

    @Test func helpIsSeenAnywhere() throws {
        #expect(try CommandLineParser.parse(["run.sqlite", "-h"], options: options).wantsHelp)
        #expect(try CommandLineParser.parse(["--help"], options: options).wantsHelp)
    }

    @Test(arguments: [
        (["--bogus"], "unknown option --bogus"),
        (["--width"], "--width needs a value (N)"),
        (["--json=yes"], "--json takes no value"),
    ])
    func rejectsBadCommandLines(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try CommandLineParser.parse(arguments, options: options) }
    }

    @Test func rejectsBadValuesWithOneSentence() throws {
        let parsed = try CommandLineParser.parse(["--width", "wide", "--from", "soon"], options: options)
        #expect(throws: UsageError.self) { try parsed.int(Self.width, default: 100) }
        #expect(throws: UsageError.self) { try parsed.duration(Self.from) }
        #expect(throws: UsageError("no store given; name a .sqlite file")) { try ParsedArguments().storePath() }
        var two = ParsedArguments()
        two.positionals = ["a.sqlite", "b.sqlite"]
        #expect(throws: UsageError.self) { try two.storePath() }
    }

    @Test(arguments: [
        ("1.5s", Int64(1_500_000_000)), ("250ms", 250_000_000), ("40us", 40_000), ("40µs", 40_000),
        ("7ns", 7), ("2m", 120_000_000_000), ("3", 3_000_000_000), ("0.5", 500_000_000),
    ])
    func parsesDurations(text: String, nanoseconds: Int64) {
        #expect(CommandLineParser.parseDuration(text) == nanoseconds)
    }

    @Test(arguments: ["", "s", "-1s", "1.5h", "abc", "nan"])
    func rejectsBadDurations(text: String) {
        #expect(CommandLineParser.parseDuration(text) == nil)
    }

    @Test func everySubcommandHasHelpAndTheProgramListsTheVisibleOnes() {
        let top = report(["--help"])
        #expect(top.status == .success)
        for command in TraceReport.commands {
            let help = report([command.name, "--help"])
            #expect(help.status == .success)
            #expect(help.out.contains("Usage: trace-report \(command.name)"))
            #expect(help.out.contains("--help"))
            #expect(top.out.contains("  \(command.name) "))
        }
        #expect(report(["help", "timeline"]).out == report(["timeline", "--help"]).out)
    }

    @Test func usageErrorsExitTwoWithOneLine() {
        let cases: [[String]] = [
            [], ["frobnicate"], ["summary"], ["summary", "--bogus", "x"], ["timeline", "--width", "0", "x"],
            ["summary", "a", "b"],
        ]
        for arguments in cases {
            let result = report(arguments)
            #expect(result.status == .usageOrInput, "\(arguments)")
            #expect(result.out.isEmpty)
            #expect(result.err.split(separator: "\n").count == 1, "\(arguments): \(result.err)")
        }
    }
}
