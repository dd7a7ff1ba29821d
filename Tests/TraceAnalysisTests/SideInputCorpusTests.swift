import Foundation
import TestSupport
import Testing

/// Hostile side inputs (rules files, baselines, gate configs, price files, budgets) given to every
/// command that reads them, through the built `trace-report`: each run ends within a bound with
/// exit 0, 1 or 2, prints no raw control byte and no line over a few KB, and never Foundation's
/// words instead of ours.
@Suite("hostile side inputs")
struct SideInputCorpusTests {
    /// A file of the corpus: its name, and its bytes.
    struct SideFile: CustomStringConvertible, Sendable {
        var name: String
        var bytes: Data
        var description: String { name }
    }

    static let escape = "\u{1B}[2J\u{1B}]0;title\u{07}"

    /// Files no writer of ours would make, each in the shape some option expects or near it.
    static let files: [SideFile] = {
        let base = try? String(
            contentsOf: packageRoot.appendingPathComponent("tracefiles/baseline/planner-baseline.json"), encoding: .utf8)
        let json = base ?? "{}"
        func text(_ name: String, _ value: String) -> SideFile { SideFile(name: name, bytes: Data(value.utf8)) }
        return [
            text("empty", ""),
            SideFile(name: "binary", bytes: Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) })),
            text("escapes", escape + "\n" + escape + "\t" + escape + "\n"),
            text("long-line", String(repeating: "x", count: 1_000_000)),
            text("nested-json", String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)),
            text("json-wrong-types", #"{"version": "one", "groups": {"a": 1}, "prices": [1e999]}"#),
            text("json-huge-numbers", #"{"version": 1e308, "groups": [{"scenario": 1e400}]}"#),
            text("baseline-escaped-names", json.replacingOccurrences(of: "\"scenario\": \"", with: "\"scenario\": \"\\u001b[2J\\u0007")),
            text("baseline-truncated", String(json.prefix(json.count / 2))),
            text("rules-catastrophic", "nested\t(a+)+$\nalternation\t(a|aa)+$\nbackreference\t(a*)*\\1b\n"),
            text("rules-bad-regex", "broken\t([a-\n" + escape + "\t[\n"),
            text("config-hostile", "ttft.p50: +1e19ns\nlatency.p95: " + escape + "\nmin-samples: 99999999999999999999\n"),
            text("prices-hostile", "model\tinput\toutput\n" + escape + "\t1e999\t-5\nm\tNaN\t1e7\n"),
        ]
    }()

    /// Each option that reads a side file, and a command line around it; `FILE` is the corpus file.
    static let commandLines: [[String]] = [
        ["redact", "--rules", "FILE", "INPUT"],
        ["summary", "--rules", "FILE", "STORE"],
        ["check", "--rules", "FILE", "STORE"],
        ["summary", "--prices", "FILE", "STORE"],
        ["check", "--prices", "FILE", "STORE"],
        ["export", "--format", "jsonl", "--prices", "FILE", "--out", "OUT", "STORE"],
        ["gate", "--baseline", "FILE", "STORE"],
        ["gate", "--baseline", "BASELINE", "--config", "FILE", "STORE"],
        ["gate", "--baseline", "BASELINE", "--json", "--config", "FILE", "STORE"],
        ["gate", "--baseline", "BASELINE", "--prices", "FILE", "--budget", "cost.mean: +10%", "STORE"],
        ["diff", "FILE", "STORE"],
        ["baseline", "--out", "OUT", "FILE"],
    ]

    /// Budgets as a user may write them, or a file may hand them over (named, so a test's name
    /// stays short).
    static let budgets: [SideFile] = [
        ("huge-limit", "ttft.p50: +1e19ns"), ("huge-ratio", "latency.p95: -1e400%"), ("escapes", "ttft.p50: " + escape),
        ("5000-budgets", String(repeating: "ttft.p50: +1%;", count: 5_000)),
        ("huge-rate", "tokens_per_second.p50: -99999999999999999999tok/s"), ("nan", "cost.mean: +NaN%"),
        ("huge-percentile", "ttft.p999999999999: +1%"),
    ].map { SideFile(name: $0.0, bytes: Data($0.1.utf8)) }

    /// Phrases of Foundation's own error descriptions that must never reach a user.
    static let foundationWords = [
        "NSCocoaErrorDomain", "Error Domain=", "The operation could", "couldn’t be", "couldn't be",
        "You don’t have permission", "The data couldn’t", "NSError", "NSLocalizedDescription",
    ]

    /// Runs `trace-report` with `arguments`, killing it if it runs past a minute; its status
    /// (nil when killed), and what it printed.
    @discardableResult
    private func check(_ arguments: [String], _ label: String) throws -> Int32? {
        let output = try TemporaryDirectory()
        let process = try startProgram(try builtBinary(), arguments, outputIn: output)
        let deadline = ContinuousClock.now + .seconds(60)
        while process.isRunning && ContinuousClock.now < deadline { usleep(10_000) }
        let timedOut = process.isRunning
        if timedOut { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(!timedOut, "\(label): still running after a minute")
        let signaled = process.terminationReason == .uncaughtSignal
        #expect(timedOut || (!signaled && [0, 1, 2].contains(process.terminationStatus)),
            "\(label): exit \(process.terminationStatus)")
        let result = (
            out: String(decoding: try Data(contentsOf: output.url.appendingPathComponent("out")), as: UTF8.self),
            err: String(decoding: try Data(contentsOf: output.url.appendingPathComponent("err")), as: UTF8.self))
        for (stream, text) in [("stdout", result.out), ("stderr", result.err)] {
            let control = text.unicodeScalars.first { $0.value < 0x20 && $0 != "\n" && $0 != "\t" || $0.value == 0x7F }
            #expect(control == nil, "\(label): a raw control character on \(stream)")
            let longest = text.split(separator: "\n").map(\.utf8.count).max() ?? 0
            #expect(longest <= 8_192, "\(label): a line of \(longest) bytes on \(stream)")
            for words in Self.foundationWords {
                #expect(!text.contains(words), "\(label): Foundation's words on \(stream): \(text.prefix(300))")
            }
        }
        return timedOut || signaled ? nil : process.terminationStatus
    }

    @Test(arguments: files)
    func everyCommandEndsInTimeAndSaysItInOurWords(_ file: SideFile) throws {
        let directory = try TemporaryDirectory()
        let side = directory.path(file.name)
        try file.bytes.write(to: URL(fileURLWithPath: side))
        let input = directory.path("input.txt")
        try Data(("a" + String(repeating: "a", count: 40) + "!\n").utf8).write(to: URL(fileURLWithPath: input))
        let store = packageRoot.appendingPathComponent("tracefiles/planner/run-1.sqlite").path
        let baseline = packageRoot.appendingPathComponent("tracefiles/baseline/planner-baseline.json").path
        for line in Self.commandLines {
            let arguments = line.map { word in
                switch word {
                case "FILE": side
                case "INPUT": input
                case "STORE": store
                case "BASELINE": baseline
                case "OUT": directory.path("out")
                default: word
                }
            }
            try check(arguments, "\(line.joined(separator: " ")) with \(file.name)")
        }
    }

    @Test(arguments: budgets)
    func everyBudgetEndsInTimeAndSaysItInOurWords(_ file: SideFile) throws {
        let budget = String(decoding: file.bytes, as: UTF8.self)
        let store = packageRoot.appendingPathComponent("tracefiles/planner/run-1.sqlite").path
        let baseline = packageRoot.appendingPathComponent("tracefiles/baseline/planner-baseline.json").path
        try check(["gate", "--baseline", baseline, "--budget", budget, store], "budget \(file.name)")
        try check(["gate", "--json", "--baseline", baseline, "--budget", budget, store], "budget \(file.name)")
    }

    /// Side "files" that are not regular files: a folder, a FIFO nobody writes to, a device.
    @Test(arguments: ["folder", "fifo", "/dev/zero", "/nonexistent/file"])
    func aSideInputThatIsNoFileIsRefusedInOurWords(_ kind: String) throws {
        let directory = try TemporaryDirectory()
        var path = kind
        if kind == "folder" { path = directory.path("folder"); try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false) }
        if kind == "fifo" { path = directory.path("fifo"); #expect(mkfifo(path, 0o600) == 0) }
        let store = packageRoot.appendingPathComponent("tracefiles/planner/run-1.sqlite").path
        for option in ["--rules", "--prices", "--baseline", "--config"] {
            var arguments = ["gate", option, path, store]
            if option == "--rules" || option == "--prices" || option == "--config" {
                arguments = ["gate", "--baseline", store, option, path, store]
            }
            #expect(try check(arguments, "\(option) \(kind)") == 2, "\(option) \(kind)")
        }
    }
}
