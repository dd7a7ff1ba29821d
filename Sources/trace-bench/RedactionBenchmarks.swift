import Redaction
import Reproducible
import SessionTrace

#if canImport(Glibc)
import Glibc
#endif

/// The redactor's throughput on realistic input, in MB/s (10^6 bytes of input per second).
///
/// - `redact.text`: `Redactor.standard.redact` over about 8 MB of generated service logs: access
///   lines, key=value app lines, JSON-looking lines, stack frames, ids and hashes, with a secret or
///   personal value (email, OpenAI key, bearer token, JWT, phone, card) on about one line in fifty.
/// - `redact.jsonl`: `Redactor.standard.redactJSONLines` over about 8 MB of export-like JSON Lines:
///   request and tool-call records and payload records carrying prompt text, with the same mix.
///
/// Each figure is megabytes per second of the thread's CPU time, best of five passes: the machine
/// is shared, and CPU time leaves out the time other processes hold the cores, which wall-clock
/// time on a loaded two-core machine does not. On a quiet machine the two agree. The input is
/// generated from a fixed seed, so runs compare.
func redactionBenchmarks(megabytes: Int = 8) -> [BenchmarkRow] {
    let text = RedactionCorpus.logText(bytes: megabytes * 1_000_000)
    let lines = RedactionCorpus.jsonLines(bytes: megabytes * 1_000_000)
    return [
        BenchmarkRow(
            metric: "redact.text", value: throughput(text) { Redactor.standard.redact($0) }, unit: "MB/s"),
        BenchmarkRow(
            metric: "redact.jsonl", value: throughput(lines) { Redactor.standard.redactJSONLines($0) },
            unit: "MB/s"),
    ]
}

/// Writes `megabytes` of the `redact.jsonl` corpus to `path`, 8 MB at a time, so that the command
/// is timed on the input the in-process figure is measured on.
func writeRedactionCorpus(to path: String, megabytes: Int) throws {
    guard let file = fopen(path, "w") else { throw CorpusError(path: path) }
    defer { fclose(file) }
    var written = 0
    while written < megabytes {
        let piece = min(8, megabytes - written)
        var lines = RedactionCorpus.jsonLines(bytes: piece * 1_000_000, seed: UInt64(written + 1))
        let count = lines.withUTF8 { fwrite($0.baseAddress, 1, $0.count, file) }
        guard count == lines.utf8.count else { throw CorpusError(path: path) }
        written += piece
    }
}

struct CorpusError: Error, CustomStringConvertible {
    var path: String
    var description: String { "could not write the corpus to \(path)" }
}

/// MB per CPU-second of `redact` over `input`, best of five passes.
private func throughput(_ input: String, _ redact: (String) -> RedactionResult) -> Double {
    let bytes = Double(input.utf8.count)
    var best = Double.infinity
    for _ in 0..<5 {
        let start = threadCPUNanoseconds()
        let result = redact(input)
        let elapsed = Double(threadCPUNanoseconds() - start) / 1e9
        precondition(result.text.utf8.count >= input.utf8.count / 2, "the redactor lost the input")
        best = min(best, elapsed)
    }
    return best > 0 ? bytes / 1e6 / best : 0
}

/// Generated, realistic input for the redaction benchmarks.
enum RedactionCorpus {
    /// A seeded generator, so the corpus is the same on every run.
    struct Generator {
        var random: SplitMix64
        init(seed: UInt64) { random = SplitMix64(seed: seed) }
        mutating func below(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
        mutating func pick<T>(_ values: [T]) -> T { values[below(values.count)] }
        mutating func hex(_ count: Int) -> String {
            String((0..<count).map { _ in Array("0123456789abcdef")[below(16)] })
        }
        mutating func alnum(_ count: Int) -> String {
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
            return String((0..<count).map { _ in alphabet[below(alphabet.count)] })
        }
    }

    static let words = [
        "plan", "day", "launch", "notes", "meeting", "review", "draft", "summary", "calendar", "weather",
        "travel",
        "budget", "the", "a", "for", "with", "and", "to", "of", "tomorrow", "morning", "team", "project",
        "update",
    ]
    static let paths = [
        "/v1/chat/completions", "/health", "/v1/models", "/api/notes/search", "/static/app.js",
    ]

    /// One secret or personal value, of a kind the redactor must find.
    static func secret(_ g: inout Generator) -> String {
        switch g.below(6) {
        case 0: "\(g.pick(["ana", "bob", "carol", "dave"])).\(g.pick(["lee", "kim", "ruiz"]))@example.org"
        case 1: "sk-proj-" + g.alnum(32)
        case 2: "Authorization: Bearer " + g.alnum(40)
        case 3: "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0." + g.alnum(43)
        case 4: "+1 415 555 0\(100 + g.below(899))"
        default: "4111 1111 1111 1111"
        }
    }

    static func sentence(_ g: inout Generator, words count: Int) -> String {
        (0..<count).map { _ in g.pick(words) }.joined(separator: " ")
    }

    /// One log line of a service that calls a model.
    static func logLine(_ g: inout Generator, index: Int) -> String {
        let time =
            "2026-11-30T12:\(10 + index / 60_000 % 50):\(10 + index / 1_000 % 50).\(100 + index % 900)Z"
        var line: String
        switch g.below(5) {
        case 0:
            line =
                "\(time) 10.0.\(g.below(255)).\(g.below(255)) \"POST \(g.pick(paths)) HTTP/1.1\" "
                + "\(g.pick([200, 200, 200, 404, 500])) \(g.below(90_000)) \(g.below(2_000))ms "
                + "req=\(g.hex(8))-\(g.hex(4))-\(g.hex(4))-\(g.hex(4))-\(g.hex(12))"
        case 1:
            line =
                "\(time) INFO planner session=\(g.below(10_000)) model=smollm2-135m profile=economy "
                + "ttft_ms=\(g.below(900)) tokens=\(g.below(400)) msg=\"\(sentence(&g, words: 6))\""
        case 2:
            line =
                "\(time) DEBUG {\"event\":\"tool_call\",\"name\":\"searchNotes\",\"query\":\"\(sentence(&g, words: 3))\","
                + "\"fingerprint\":\"\(g.hex(16))\",\"bytes\":\(g.below(5_000))}"
        case 3:
            line =
                "\(time) WARN retrying after \(g.below(30))s: upstream closed connection\n"
                + "    at HTTPClient.send (Sources/ModelSession/HTTP/EventStreamClient.swift:\(g.below(400)))\n"
                + "    at LanguageModelSession.respond (Sources/ModelSession/LanguageModelSession.swift:\(g.below(400)))"
        default:
            line =
                "\(time) INFO commit \(g.hex(40)) deployed to worker-\(g.below(64)); \(sentence(&g, words: 10))"
        }
        if g.below(50) == 0 { line += " user said: \(secret(&g))" }
        return line
    }

    /// About `bytes` bytes of log text.
    static func logText(bytes: Int) -> String {
        var g = Generator(seed: 0x5EED)
        var out = ""
        out.reserveCapacity(bytes + 1_000)
        var index = 0
        while out.utf8.count < bytes {
            out += logLine(&g, index: index) + "\n"
            index += 1
        }
        return out
    }

    /// About `bytes` bytes of JSON Lines shaped like `trace-report export --format jsonl`.
    static func jsonLines(bytes: Int, seed: UInt64 = 0) -> String {
        var g = Generator(seed: 0x15_0A1 &+ seed)
        var out = ""
        out.reserveCapacity(bytes + 1_000)
        var id = 1
        while out.utf8.count < bytes {
            id += 1
            let note = g.below(50) == 0 ? " \(secret(&g))" : ""
            switch g.below(3) {
            case 0:
                out +=
                    "{\"type\":\"request\",\"request_id\":\(id),\"session_id\":7,\"ts\":\(id * 1_000_000),"
                    + "\"dur\":900000000,\"ttft\":120000000,\"profile\":\"economy\",\"provider\":\"llama.cpp\","
                    + "\"model\":\"smollm2-135m\",\"input_tokens\":\(g.below(4_000)),\"output_tokens\":\(g.below(400)),"
                    + "\"finish_reason\":\"stop\",\"error\":\(note.isEmpty ? "null" : "\"failed:\(note)\"")}\n"
            case 1:
                out +=
                    "{\"type\":\"tool_call\",\"tool_call_id\":\(id),\"name\":\"searchNotes\",\"call_id\":\"call_"
                    + "\(g.alnum(12))\",\"arguments_fingerprint\":\"\(g.hex(16))\",\"arguments_bytes\":\(g.below(900)),"
                    + "\"outcome\":\"ok\",\"arguments\":{\"query\":\"\(sentence(&g, words: 3))\",\"api_key\":"
                    + "\(g.below(20) == 0 ? "\"\(g.alnum(24))\"" : "null")}}\n"
            default:
                out +=
                    "{\"type\":\"payload\",\"payload_id\":\(id),\"kind\":\"prompt\",\"text\":\"You are a planner. "
                    + "\(sentence(&g, words: 40)).\\nUser: \(sentence(&g, words: 12))\(note)\"}\n"
            }
        }
        return out
    }
}
