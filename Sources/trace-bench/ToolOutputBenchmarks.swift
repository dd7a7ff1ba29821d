import Foundation
import ModelSession
import SessionInstrumentation
import SessionTrace
import TraceStore

/// ``toolOutputBenchmarks(tracer:)`` into a SQLite store of its own, removed afterwards.
func toolOutputBenchmarks() async throws -> [BenchmarkRow] {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trace-bench-tools-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try StoreSink(path: directory.appendingPathComponent("tools.sqlite").path)
    defer { store.close() }
    return try await toolOutputBenchmarks(tracer: Tracer(sink: store, label: "tool-output"))
}

/// What recording a tool call costs, with its output's fingerprint and MinHash sketch, on a 100 KB
/// result and on a 16-byte one: each the median over 11 rounds of (traced − untraced) per call.
///
/// - `tool.traced.16B`, `tool.traced.100KB`: µs a traced call adds (the record, the sink, and the
///   fingerprint and sketch of the output);
/// - `fingerprint+sketch.100KB`: their difference, the cost of the 100 KB output's fingerprint and
///   sketch, against `c.utf8.sum.100KB`, one pass summing the same bytes from their buffer (the
///   least any look at the text costs), measured in the same run.
func toolOutputBenchmarks(tracer: Tracer) async throws -> [BenchmarkRow] {
    var large = notesText(bytes: 100_000)
    let small = try await toolCallCost(output: "3 notes: launch.", tracer: tracer)
    let big = try await toolCallCost(output: large, tracer: tracer)
    var sums: [Double] = []
    for _ in 0..<11 {
        let start = ContinuousClock.now
        var sum: UInt64 = 0
        for _ in 0..<20 {
            large.withUTF8 { bytes in
                for byte in bytes { sum &+= UInt64(byte) }
            }
        }
        sums.append((ContinuousClock.now - start).microseconds / 20)
        if sum == 1 { print("") }  // keeps the sum from being optimized away
    }
    return [
        BenchmarkRow(metric: "tool.traced.16B", value: small, unit: "µs/call"),
        BenchmarkRow(metric: "tool.traced.100KB", value: big, unit: "µs/call"),
        BenchmarkRow(
            metric: "fingerprint+sketch.100KB", value: big - small, unit: "µs/call", reference: "c.utf8.sum.100KB",
            referenceValue: sums.sorted()[5]),
    ]
}

/// Median µs a traced call of a tool answering `output` adds over an untraced one.
private func toolCallCost(output: String, tracer: Tracer) async throws -> Double {
    let plain = FixedTool(output: output)
    let traced = TracedTool(plain, tracer: tracer)
    let arguments = FixedTool.Arguments(query: "launch")
    var differences: [Double] = []
    for _ in 0..<11 {
        var start = ContinuousClock.now
        for _ in 0..<200 { _ = try await plain.call(arguments: arguments) }
        let untraced = (ContinuousClock.now - start).microseconds / 200
        start = ContinuousClock.now
        for _ in 0..<200 { _ = try await traced.call(arguments: arguments) }
        differences.append((ContinuousClock.now - start).microseconds / 200 - untraced)
    }
    return differences.sorted()[5]
}

/// Made-up notes of about `bytes` bytes: varied words, as a search or a fetched page returns.
private func notesText(bytes: Int) -> String {
    let words = ["launch", "prep", "meeting", "owner", "tracker", "review", "draft", "slides", "customer",
                 "email", "rollback", "steps", "pricing", "page", "translate", "sign-off", "demo", "friday"]
    var text = ""
    var index = 0
    while text.utf8.count < bytes {
        text += "Note \(index): " + (0..<12).map { words[($0 * 7 + index) % words.count] }.joined(separator: " ")
            + ", updated 2026-06-0\(index % 9 + 1).\n"
        index += 1
    }
    return text
}

/// A tool that answers at once with a fixed text.
private struct FixedTool: Tool {
    struct Arguments: Codable, Sendable { var query: String }
    let output: String
    var name: String { "search_notes" }
    var description: String { "Searches the user's notes." }
    var parameters: JSONSchema { .object([.init("query", .string())]) }
    func call(arguments: Arguments) async throws -> String { output }
}

extension Duration {
    fileprivate var microseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
    }
}
