import Foundation
import ModelSession
import SessionInstrumentation
import SessionTrace
import TraceStore

/// Peak memory of the store sink and the middleware, each case in a process of its own (this
/// program, run as `trace-bench --memory CASE`), so that no case inherits another's heap.
///
/// - `memory.burst`: peak RSS while 20,000 interval events with 100 KB of metadata each are
///   recorded as fast as the caller can, into a `StoreSink` with its default bounds; reference
///   `memory.burst.unbounded`, the same with no byte bound (a queue bounded by events only).
///   `memory.burst.accepted` is how many of the 20,000 the bounded sink took (it counted the
///   rest as `queue_full`). The peak is read when the burst ends; the process then exits without
///   writing the rest, which would take minutes and no more memory.
/// - `memory.sessions`: peak RSS of 1,000 sessions × 100 requests, one after the other, through
///   one `TracingMiddleware` (a model that answers at once, a store sink); reference
///   `memory.sessions.100`, the first 100 of those sessions alone. Flat memory is a ratio near 1.
/// - `memory.sessions.growth`: RSS after the 1,000th session minus RSS after the 100th, in the
///   same process: near 0 when nothing is kept per ended session.
func memoryBenchmarks() throws -> [BenchmarkRow] {
    var figures: [String: Double] = [:]
    for name in MemoryCase.allCases.map(\.rawValue) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        process.arguments = ["--memory", name]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw MemoryCase.Failure(message: "the memory case \(name) failed")
        }
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 2, let value = Double(fields[1]) { figures[String(fields[0])] = value }
        }
    }
    func row(_ metric: String, _ unit: String, reference: String? = nil) -> BenchmarkRow {
        BenchmarkRow(
            metric: metric, value: figures[metric] ?? .nan, unit: unit, reference: reference,
            referenceValue: reference.map { figures[$0] ?? .nan })
    }
    return [
        row("memory.burst", "MiB", reference: "memory.burst.unbounded"),
        row("memory.burst.unbounded", "MiB"),
        row("memory.burst.accepted", "events"),
        row("memory.sessions", "MiB", reference: "memory.sessions.100"),
        row("memory.sessions.100", "MiB"),
        row("memory.sessions.growth", "MiB"),
    ]
}

/// One memory measurement, run in a process of its own.
enum MemoryCase: String, CaseIterable {
    case burst, burstUnbounded = "burst-unbounded", sessions, sessions100 = "sessions-100"

    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// Runs the case and prints its figures, `metric value` per line.
    func run() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("trace-bench-memory-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("memory.sqlite").path
        switch self {
        case .burst, .burstUnbounded:
            let sink = try StoreSink(
                path: store, byteCapacity: self == .burst ? 64 << 20 : .max, automaticDrain: [])
            let tracer = Tracer(sink: sink, label: "memory")
            let events = 20_000
            for index in 0..<events {
                // A fresh 100 KB string per event, as distinct payloads would be.
                let letter = Character(Unicode.Scalar(UInt8(97 + index % 26)))
                let interval = IntervalRecord(
                    intervalID: tracer.makeID(), ts: tracer.now(), dur: 1, name: "burst",
                    metadata: ["blob": .string(String(repeating: letter, count: 100_000))])
                tracer.record(.interval(interval), kind: .interval)
            }
            let prefix = self == .burst ? "memory.burst" : "memory.burst.unbounded"
            print("\(prefix) \(Self.mebibytes(Self.status("VmHWM")))")
            if self == .burst {
                print("memory.burst.accepted \(events - Int(sink.droppedCounts[.queueFull] ?? 0))")
            }
            try? FileManager.default.removeItem(at: directory)
            exit(0)
        case .sessions, .sessions100:
            let sink = try StoreSink(path: store)
            let tracer = Tracer(sink: sink, label: "memory")
            let middleware = TracingMiddleware(tracer: tracer)
            var afterHundred = 0.0
            for index in 1...(self == .sessions ? 1_000 : 100) {
                let session = LanguageModelSession(
                    model: InstantModel(), label: "session \(index)", instructions: "Answer.",
                    middleware: [middleware])
                for request in 0..<100 { _ = try await session.respond(to: "Name three fruits, \(request).") }
                if index == 100 { afterHundred = Self.status("VmRSS") }
            }
            sink.close()
            if self == .sessions {
                print("memory.sessions \(Self.mebibytes(Self.status("VmHWM")))")
                print("memory.sessions.growth \(Self.mebibytes(Self.status("VmRSS") - afterHundred))")
            } else {
                print("memory.sessions.100 \(Self.mebibytes(Self.status("VmHWM")))")
            }
        }
    }

    /// A figure of `/proc/self/status`, in KiB.
    private static func status(_ key: String) -> Double {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return .nan }
        for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
            return Double(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? .nan
        }
        return .nan
    }

    private static func mebibytes(_ kibibytes: Double) -> Double { (kibibytes / 1024 * 10).rounded() / 10 }
}
