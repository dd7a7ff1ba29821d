import Foundation
import Synchronization
import TestSupport
import Testing

@testable import TraceAnalysis

/// The checked-in baseline the CI gate compares against.
let checkedInBaseline = packageRoot.appendingPathComponent("tracefiles/baseline/planner-baseline.json").path

/// The planner configuration the baseline was recorded with (`scripts/record-baseline.sh`).
let gatePlannerArguments = ["--label", "planner", "--max-tokens", "64"]

/// A machine the planner runs on, simulated by the llama.cpp server's settings: the same agent,
/// model and server build, but answers that differ, as they do on another CPU.
enum SimulatedMachine: String, Sendable, CaseIterable, CustomTestStringConvertible {
    /// This machine's server as the demo starts it.
    case this
    /// A server whose sampler penalises repeated tokens (`--repeat-penalty 1.3`): at temperature 0
    /// it still decodes greedily, but picks other tokens, so answers and later prompts change length.
    case other

    /// `planner-demo` options that put a run on this machine.
    var plannerOptions: [String] {
        switch self {
        case .this: []
        case .other: ["--server-args", "--repeat-penalty 1.3"]
        }
    }

    /// The machine a baseline of the other comes from.
    var opposite: SimulatedMachine { self == .this ? .other : .this }

    var testDescription: String { "\(rawValue) machine" }
}

/// Planner runs made by the real-model tests, recorded once per test process and shared, so each
/// machine's unchanged configuration costs two runs however many tests look at it.
enum PlannerRuns {
    private static let directory = Mutex<TemporaryDirectory?>(nil)
    private static let unchanged = Mutex<[SimulatedMachine: [String]]>([:])

    /// Records `appending` planner runs (one by default) with `extra` options after the gate
    /// configuration into one new store; returns the store.
    static func record(_ name: String, extra: [String] = [], appending runs: Int = 1) throws -> String {
        let folder = try directory.withLock { folder in
            if folder == nil { folder = try TemporaryDirectory() }
            return folder!
        }
        let store = folder.path("\(name).sqlite")
        try? FileManager.default.removeItem(atPath: store)
        for _ in 0..<runs {
            let started = ContinuousClock.now
            let result = try runProgram(try builtProgram("planner-demo"), ["--store", store] + gatePlannerArguments + extra)
            try #require(result.status == 0, "planner-demo \(extra) failed: \(result.err)")
            print("GateTests: planner run \(name) took \(ContinuousClock.now - started)")
        }
        return store
    }

    private static let regressed = Mutex<[String: String]>([:])

    /// One run with `extra` options on this machine, recorded the first time it is asked for.
    static func recordOnce(_ name: String, extra: [String]) throws -> String {
        try regressed.withLock { runs in
            if let made = runs[name] { return made }
            let made = try record(name, extra: extra)
            runs[name] = made
            return made
        }
    }

    /// Two runs of the unchanged configuration on `machine`.
    static func unchangedRuns(on machine: SimulatedMachine = .this) throws -> [String] {
        try unchanged.withLock { runs in
            if let made = runs[machine] { return made }
            let made = try (1...2).map { try record("unchanged-\(machine.rawValue)-\($0)", extra: machine.plannerOptions) }
            runs[machine] = made
            return made
        }
    }

    /// A baseline file of `machine`'s two unchanged runs, in `directory`.
    static func baseline(of machine: SimulatedMachine, in directory: TemporaryDirectory) throws -> String {
        let path = directory.path("baseline-\(machine.rawValue).json")
        let made = try runProgram(try builtProgram("trace-report"), ["baseline", "--out", path] + unchangedRuns(on: machine))
        try #require(made.status == 0, "\(made.err)")
        return path
    }
}

/// The `metric.statistic` keys and scenarios of the `::error` annotations of `gate --github`,
/// whose titles read `<Metric> regression: <scenario> <key>`.
func regressions(inAnnotations text: String) -> [(scenario: String, key: String)] {
    text.split(separator: "\n").compactMap { line in
        guard line.hasPrefix("::error title="), let marker = line.range(of: " regression%3A ") else { return nil }
        let title = line[marker.upperBound...].prefix { $0 != ":" }
        let decoded = String(title).replacingOccurrences(of: "%3A", with: ":").replacingOccurrences(of: "%2C", with: ",")
        guard let space = decoded.lastIndex(of: " ") else { return nil }
        return (String(decoded[..<space]), String(decoded[decoded.index(after: space)...]))
    }
}
