// trace-bench: what emitting a trace event costs, measured against references in the same run.
//
//     swift run -c release trace-bench [--json] [--events N]
//
// Prints a table by default; with --json, an array of rows
// {"metric","value","unit","reference","reference_value"} for CI to compare with a baseline.

#if canImport(Glibc)
import Glibc
#endif

/// Writes one line to standard error.
func printError(_ message: String) {
    var line = message + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

let usage = """
    usage: trace-bench [--json] [--events N] [--only GROUP] [--alone METRIC] [--overhead PAIRS]
                   [--memory [CASE]] [--lttng-read [--trace DIR]] [--tool-output]
                   [--redaction [--corpus FILE MB]]

      --events N        events per emit and store measurement (default 1,000,000)
      --only GROUP      one group of the default rows alone: lttng (no sink, disabled, instants),
                        store (emit.store, store.ingest), redaction, or combined (requests into
                        LTTng, both sinks), to run two builds in turn and compare them
      --alone METRIC    instead, the bursts of one path of the default run alone, for a profiler or
                        an instruction counter (benchmarks/instructions.sh): c.lttng.enabled,
                        emit.lttng.enabled, emit.lttng.nested, c.lttng.request or
                        emit.lttng.request
      --tool-output     instead, what recording a tool call costs with a 100 KB and a 16-byte result
                        (its fingerprint and sketch), into a SQLite store
      --lttng-read      instead, reading an LTTng trace of N request records back: trace-report
                        summary against babeltrace2 into sink.utils.dummy, import against store.ingest
      --trace DIR       with --lttng-read, the trace: recorded there and kept if DIR is not there,
                        else read as it is (to profile it, or to measure it again)
      --overhead PAIRS  instead, the middleware's overhead on real requests to SmolLM2-135M on a
                        local llama.cpp server: PAIRS interleaved A/B pairs (at least 30)
      --redaction       instead, redact.text and redact.jsonl alone; with --corpus, first writes MB
                        megabytes of the redact.jsonl corpus to FILE, for timing trace-report redact
                        on it in the same run (benchmarks/redact-command.sh)
      --memory          instead, peak memory of a burst of large events and of 1,000 sessions
                        through one middleware, each case in a process of its own; with CASE
                        (burst, burst-unbounded, sessions, sessions-100), that case alone here
    """
var json = false
var events = 1_000_000
var overheadPairs: Int?
var lttngRead = false
var redactionOnly = false
var corpus: (path: String, megabytes: Int)?
var keptTrace: String?
var toolOutput = false
var memory = false
var memoryCase: MemoryCase?
/// The default run's groups of rows, in order, each with what its failure is called; `--only`
/// keeps one.
let groups: [(name: String, benchmark: String, rows: () throws -> [BenchmarkRow])] = [
    ("lttng", "LTTng benchmarks", { try lttngBenchmarks(events: events) }),
    ("store", "store benchmarks", { try storeBenchmarks(events: events) }),
    ("redaction", "redaction benchmarks", { redactionBenchmarks() }),
    ("combined", "LTTng and store benchmark", { try combinedBenchmarks(events: events) }),
]
var onlyGroup: String?
var alonePath: AlonePath?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--json":
        json = true
    case "--events":
        guard let value = arguments.popFirst().flatMap({ Int($0) }), value > 0 else {
            printError("trace-bench: --events needs a positive number\n\(usage)")
            exit(2)
        }
        events = value
    case "--only":
        guard let value = arguments.popFirst(), groups.contains(where: { $0.name == value }) else {
            printError("trace-bench: --only needs one of \(groups.map(\.name).joined(separator: ", "))\n\(usage)")
            exit(2)
        }
        onlyGroup = value
    case "--alone":
        guard let value = arguments.popFirst().flatMap(AlonePath.init(rawValue:)) else {
            let metrics = AlonePath.allCases.map(\.rawValue).joined(separator: ", ")
            printError("trace-bench: --alone needs one of \(metrics)\n\(usage)")
            exit(2)
        }
        alonePath = value
    case "--overhead":
        guard let value = arguments.popFirst().flatMap({ Int($0) }), value >= 30 else {
            printError("trace-bench: --overhead needs at least 30 pairs\n\(usage)")
            exit(2)
        }
        overheadPairs = value
    case "--lttng-read":
        lttngRead = true
    case "--trace":
        guard let value = arguments.popFirst() else {
            printError("trace-bench: --trace needs a folder\n\(usage)")
            exit(2)
        }
        keptTrace = value
    case "--tool-output":
        toolOutput = true
    case "--redaction":
        redactionOnly = true
    case "--corpus":
        guard let path = arguments.popFirst(), let value = arguments.popFirst().flatMap({ Int($0) }), value > 0
        else {
            printError("trace-bench: --corpus needs a file and a positive number of megabytes\n\(usage)")
            exit(2)
        }
        corpus = (path, value)
    case "--memory":
        memory = true
        if let name = arguments.first, !name.hasPrefix("--") {
            guard let chosen = MemoryCase(rawValue: name) else {
                printError("trace-bench: unknown memory case \(name)\n\(usage)")
                exit(2)
            }
            memoryCase = chosen
            arguments.removeFirst()
        }
    case "-h", "--help":
        print(usage)
        exit(0)
    default:
        printError("trace-bench: unknown argument \(argument)\n\(usage)")
        exit(2)
    }
}

var rows: [BenchmarkRow] = []
var failed = false
if let memoryCase {
    do {
        try await memoryCase.run()
        exit(0)
    } catch {
        printError("trace-bench: the memory case \(memoryCase.rawValue) failed: \(error)")
        exit(1)
    }
}
if memory {
    do {
        rows = try memoryBenchmarks()
    } catch {
        printError("trace-bench: \(error)")
        exit(1)
    }
    print(json ? BenchmarkRow.json(rows) : BenchmarkRow.table(rows))
    exit(0)
}
if let pairs = overheadPairs {
    do {
        rows = try await overheadBenchmarks(pairs: pairs)
    } catch {
        printError("trace-bench: the overhead benchmark failed: \(error)")
        exit(1)
    }
    print(json ? BenchmarkRow.json(rows) : BenchmarkRow.table(rows))
    exit(0)
}
if toolOutput {
    do {
        rows = try await toolOutputBenchmarks()
    } catch {
        printError("trace-bench: the tool output benchmark failed: \(error)")
        exit(1)
    }
    print(json ? BenchmarkRow.json(rows) : BenchmarkRow.table(rows))
    exit(0)
}
if redactionOnly {
    if let corpus {
        do { try writeRedactionCorpus(to: corpus.path, megabytes: corpus.megabytes) } catch {
            printError("trace-bench: cannot write \(corpus.path): \(error)")
            exit(1)
        }
    }
    print(json ? BenchmarkRow.json(redactionBenchmarks()) : BenchmarkRow.table(redactionBenchmarks()))
    exit(0)
}
if let alonePath {
    do {
        rows = try alonePath.rows(events: events)
    } catch {
        printError("trace-bench: the \(alonePath.rawValue) benchmark failed: \(error)")
        exit(1)
    }
    print(json ? BenchmarkRow.json(rows) : BenchmarkRow.table(rows))
    exit(0)
}
if lttngRead {
    do {
        rows = try lttngReadBenchmarks(events: events, keptTrace: keptTrace)
    } catch {
        printError("trace-bench: the LTTng read benchmark failed: \(error)")
        exit(1)
    }
    print(json ? BenchmarkRow.json(rows) : BenchmarkRow.table(rows))
    exit(0)
}
for group in groups where onlyGroup == nil || onlyGroup == group.name {
    do {
        rows += try group.rows()
    } catch {
        printError("trace-bench: \(group.benchmark) failed: \(error)")
        failed = true
    }
}

print(json ? BenchmarkRow.json(rows) : BenchmarkRow.table(rows))
exit(failed ? 1 : 0)
