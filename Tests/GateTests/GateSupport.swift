import Foundation
import Synchronization
import TestSupport
import Testing

@testable import TraceAnalysis

/// The checked-in baseline the CI gate compares against.
let checkedInBaseline = packageRoot.appendingPathComponent("tracefiles/baseline/planner-baseline.json").path

/// The planner configuration the baseline was recorded with (`scripts/record-baseline.sh`).
let gatePlannerArguments = ["--label", "planner", "--max-tokens", "64"]

/// Planner runs made by the real-model tests, recorded once per test process and shared, so the
/// unchanged configuration costs two runs however many tests look at it.
enum PlannerRuns {
    private static let directory = Mutex<TemporaryDirectory?>(nil)
    private static let unchanged = Mutex<[String]?>(nil)

    /// Records one planner run with `extra` options after the gate configuration; returns the store.
    static func record(_ name: String, extra: [String] = []) throws -> String {
        let folder = try directory.withLock { folder in
            if folder == nil { folder = try TemporaryDirectory() }
            return folder!
        }
        let store = folder.path("\(name).sqlite")
        try? FileManager.default.removeItem(atPath: store)
        let started = ContinuousClock.now
        let result = try runProgram(try builtProgram("planner-demo"), ["--store", store] + gatePlannerArguments + extra)
        try #require(result.status == 0, "planner-demo \(extra) failed: \(result.err)")
        print("GateTests: planner run \(name) took \(ContinuousClock.now - started)")
        return store
    }

    /// Two runs of the unchanged configuration.
    static func unchangedRuns() throws -> [String] {
        try unchanged.withLock { runs in
            if let runs { return runs }
            let made = [try record("unchanged-1"), try record("unchanged-2")]
            runs = made
            return made
        }
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
