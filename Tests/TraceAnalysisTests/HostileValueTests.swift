import Foundation
import Synchronization
import TestSupport
import Testing

/// Every numeric column of the schema, holding values no recording writes (the extremes of
/// Int64, negatives, REALs, infinity, text, blobs), read by the built `trace-report` through every
/// subcommand that reads a store or a baseline: each exits 0, 1 or 2, never on a signal, and the
/// value is reported as an anomaly.
@Suite("hostile values", .serialized)
struct HostileValueTests {
    /// SQL literals, the first of them implausible in every column, so a table of one row gets one.
    static let values = [
        "1e19", "'many'", "-1", "9223372036854775807", "-9223372036854775808", "-1e300", "1.5", "x'00ff'",
        "4611686018427387905", "9e999",
    ]

    struct Column: Sendable, CustomStringConvertible {
        var table: String
        var name: String
        var isPrimaryKey: Bool
        var description: String { "\(table).\(name)" }
    }

    /// A real planner run with a row in every table, so that every column is read.
    private func fixture(_ directory: TemporaryDirectory) throws -> String {
        let path = directory.path("fixture.sqlite")
        try FileManager.default.copyItem(
            atPath: packageRoot.appendingPathComponent("tracefiles/planner/run-1.sqlite").path, toPath: path)
        try sqlite(
            path,
            """
            INSERT INTO instant (instant_id, run_id, parent_id, ts, name, metadata)
                SELECT request_id + 1000000, run_id, request_id, ts, 'mark', '{"n":1}' FROM request LIMIT 3;
            INSERT INTO chunk (run_id, request_id, ts, tokens) SELECT run_id, request_id, ts + dur, 5 FROM request;
            INSERT INTO payload (payload_id, run_id, parent_id, ts, kind, text)
                SELECT request_id + 2000000, run_id, request_id, ts, 'prompt', 'plan my day' FROM request LIMIT 3;
            INSERT INTO dropped (run_id, ts, sink, reason, count) SELECT run_id, ts, 'store', 'queue_full', 3 FROM run;
            """)
        return path
    }

    /// Every INTEGER and REAL column of every table, from the store's own schema.
    private func numericColumns(_ path: String) throws -> [Column] {
        let sql = """
            SELECT m.name, p.name, p.pk FROM sqlite_schema AS m, pragma_table_info(m.name) AS p
            WHERE m.type = 'table' AND p.type IN ('INTEGER', 'REAL') ORDER BY m.name, p.cid
            """
        let out = try runProgram("/usr/bin/sqlite3", ["-separator", "|", path, sql]).out
        return out.split(separator: "\n").map { line in
            let fields = line.split(separator: "|").map(String.init)
            return Column(table: fields[0], name: fields[1], isPrimaryKey: fields[2] == "1")
        }
    }

    /// Every subcommand that reads a store, on `store`.
    private func commands(store: String, source: String, out: String) -> [[String]] {
        let baseline = packageRoot.appendingPathComponent("tracefiles/baseline/planner-baseline.json").path
        var commands: [[String]] = []
        for name in ["summary", "timeline", "tools", "cache", "growth"] {
            commands += [[name, store], [name, "--json", store]]
        }
        for format in ["perfetto", "otlp", "jsonl", "html"] {
            commands.append(["export", "--format", format, "--out", out + "." + format, store])
        }
        commands += [
            ["baseline", store],
            ["diff", "--resamples", "100", source, store],
            ["diff", "--speed", "normalized", "--resamples", "100", source, store],
            ["gate", "--baseline", baseline, "--min-samples", "1", "--resamples", "100", store],
        ]
        return commands
    }

    /// Runs every command on every store, two at a time; returns what each printed, by store, and
    /// every run that did not exit with 0, 1 or 2.
    private func runAll(
        _ stores: [String], source: String, directory: TemporaryDirectory
    ) throws -> (output: [String: String], failures: [String]) {
        let binary = try builtBinary()
        let outputs = directory.path("out")
        let output = Mutex<[String: String]>([:])
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: stores.count) { index in
            let store = stores[index]
            var printed = ""
            for arguments in commands(store: store, source: source, out: "\(outputs)-\(index)") {
                let command = arguments.filter { !$0.hasPrefix("/") }.joined(separator: " ")
                guard let result = try? runProgram(binary, arguments) else {
                    failures.withLock { $0.append("\(store): \(command) did not start") }
                    continue
                }
                printed += result.out + result.err
                if let signal = result.signal {
                    failures.withLock { $0.append("\((store as NSString).lastPathComponent): \(command) -> signal \(signal)") }
                } else if !(0...2).contains(result.status) {
                    failures.withLock { $0.append("\((store as NSString).lastPathComponent): \(command) -> \(result.status)") }
                }
            }
            output.withLock { $0[store] = printed }
        }
        return (output.withLock { $0 }, failures.withLock { $0 })
    }

    @Test func everyNumericColumnHoldingEveryHostileValueIsReportedNeverATrap() throws {
        let directory = try TemporaryDirectory()
        let source = try fixture(directory)
        let columns = try numericColumns(source)
        #expect(columns.count >= 40, "the schema's numeric columns: \(columns)")
        var stores: [String: Column] = [:]
        for column in columns {
            let store = directory.path("\(column.table)-\(column.name).sqlite")
            try FileManager.default.copyItem(atPath: source, toPath: store)
            let name = "\"\(column.name)\""
            if column.isPrimaryKey {
                // A rowid holds integers only, each once: the extremes on the first and last rows.
                try sqlite(store, """
                    UPDATE \(column.table) SET \(name) = -9223372036854775808
                        WHERE rowid = (SELECT max(rowid) FROM \(column.table)) AND
                        (SELECT count(*) FROM \(column.table)) > 1;
                    UPDATE \(column.table) SET \(name) = 9223372036854775807
                        WHERE rowid = (SELECT min(rowid) FROM \(column.table));
                    """)
            } else {
                let cases = Self.values.enumerated().map { "WHEN \($0.offset) THEN \($0.element)" }.joined(separator: " ")
                let position = "(SELECT count(*) FROM \(column.table) AS o WHERE o.rowid < \(column.table).rowid)"
                try sqlite(store, "UPDATE \(column.table) SET \(name) = CASE \(position) % \(Self.values.count) \(cases) END")
            }
            stores[store] = column
        }
        let (output, failures) = try runAll(stores.keys.sorted(), source: source, directory: directory)
        #expect(failures.isEmpty, "\(failures.count) runs ended on a signal or a bad status: \(failures.prefix(20))")
        for (store, column) in stores where !column.isPrimaryKey {
            #expect(output[store]?.contains("\(column) holds") == true, "no command reported the values of \(column)")
        }
    }

    @Test(arguments: values)
    func oneHostileValueInEveryNumericColumnAtOnce(_ value: String) throws {
        let directory = try TemporaryDirectory()
        let source = try fixture(directory)
        let store = directory.path("every-column.sqlite")
        try FileManager.default.copyItem(atPath: source, toPath: store)
        let byTable = Dictionary(grouping: try numericColumns(source).filter { !$0.isPrimaryKey }, by: \.table)
        let updates = byTable.map { table, columns in
            "UPDATE \(table) SET " + columns.map { "\"\($0.name)\" = \(value)" }.joined(separator: ", ") + ";"
        }
        try sqlite(store, updates.joined(separator: "\n"))
        let (output, failures) = try runAll([store], source: source, directory: directory)
        #expect(failures.isEmpty, "\(failures)")
        if value != "9223372036854775807" && value != "4611686018427387905" {
            // Implausible for every kind of column but identifiers; a request's duration is a time.
            #expect(output[store]?.contains("request.dur holds") == true)
        }
    }

    /// Every numeric array of the checked-in baseline, poisoned with one value at a time: the
    /// subcommands that read a baseline refuse an implausible one with one sentence (exit 2) or
    /// read it, and never trap.
    @Test func everyBaselineSampleHoldingAHostileValueIsRefusedOrReadNeverATrap() throws {
        let directory = try TemporaryDirectory()
        let source = packageRoot.appendingPathComponent("tracefiles/planner/run-1.sqlite").path
        let original = try parseJSON(
            String(contentsOfFile: packageRoot.appendingPathComponent(
                "tracefiles/baseline/planner-baseline.json").path, encoding: .utf8))
        let keys = [
            "ttft_ns", "latency_ns", "tokens_per_second", "tool_calls", "input_tokens", "cached_input_tokens",
            "server_ns_per_token", "run_id",
        ]
        let poisons: [Any] = [1e30, -1e30, -1, 1.5, "many", 9.3e18, Int64.max, Int64.min, NSNull()]
        let binary = try builtBinary()
        var failures: [String] = []
        var refused = 0
        for key in keys {
            for (index, poison) in poisons.enumerated() {
                var root = original
                var groups = try #require(root["groups"] as? [[String: Any]])
                var runs = try #require(groups[0]["runs"] as? [[String: Any]])
                if var samples = runs[0][key] as? [Any] {
                    samples[0] = poison
                    runs[0][key] = samples
                } else {
                    runs[0][key] = poison
                }
                groups[0]["runs"] = runs
                root["groups"] = groups
                let path = directory.path("\(key)-\(index).json")
                try JSONSerialization.data(withJSONObject: root).write(to: URL(fileURLWithPath: path))
                for arguments in [
                    ["baseline", path], ["diff", "--resamples", "100", path, source],
                    ["gate", "--baseline", path, "--min-samples", "1", "--resamples", "100", source],
                ] {
                    let result = try runProgram(binary, arguments)
                    if result.signal != nil || !(0...2).contains(result.status) {
                        failures.append("\(key) = \(poison): \(arguments[0]) -> \(result.status)")
                    }
                    if result.status == 2 {
                        refused += 1
                        #expect(result.err.split(separator: "\n").count == 1, "one sentence: \(result.err)")
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures)")
        #expect(refused > 0)
    }
}
