import Foundation
import LlamaServer
import ModelSession
import SessionInstrumentation
import SessionTrace
import SessionTraceLTTng
import TraceStore

/// What the tracing middleware adds to a real request: the same request to SmolLM2-135M on a
/// local llama.cpp server, with and without the middleware, in interleaved A/B pairs (the order
/// within a pair alternates, so drift in the machine's load falls on both sides alike).
///
/// - `request.plain`: median wall time of an untraced `respond`, in ms.
/// - `overhead.median`: median over pairs of (traced − plain), in ms; `overhead.iqr` its spread.
/// - `overhead.share`: the median difference over the median plain request, in percent
///   (target ≤ 1).
/// - `middleware.cost`: the middleware's own cost per request, in µs, measured on a model that
///   answers at once, so that no server noise hides it; `middleware.share` is that cost over
///   the median real request, in percent.
/// - the rows of ``toolOutputBenchmarks(tracer:)``, and `tool.share.100KB`: a traced tool call with a
///   100 KB result over the median real request, in percent.
func overheadBenchmarks(pairs: Int) async throws -> [BenchmarkRow] {
    let server = try await LlamaServer.start()
    defer { server.stop() }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trace-bench-overhead-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try StoreSink(path: directory.appendingPathComponent("overhead.sqlite").path)
    defer { store.close() }
    let tracer = Tracer(sink: MultiplexSink([LTTngSink(), store]), label: "overhead")

    let model = OpenAICompatibleModel(baseURL: server.baseURL, modelName: "SmolLM2-135M-Instruct")
    let options = GenerationOptions(temperature: 0, maximumResponseTokens: 24)
    func request(traced: Bool) async throws -> Double {
        let session = LanguageModelSession(
            model: model, label: "overhead", instructions: "Answer in one short sentence.",
            middleware: traced ? [TracingMiddleware(tracer: tracer)] : [])
        let start = ContinuousClock.now
        _ = try await session.respond(to: "Name three fruits.", options: options)
        return (ContinuousClock.now - start).milliseconds
    }

    for _ in 0..<3 { _ = try await request(traced: false) }  // warm the server's prompt cache
    var plain: [Double] = []
    var differences: [Double] = []
    for pair in 0..<pairs {
        let a: Double
        let b: Double
        if pair % 2 == 0 {
            a = try await request(traced: false)
            b = try await request(traced: true)
        } else {
            b = try await request(traced: true)
            a = try await request(traced: false)
        }
        plain.append(a)
        differences.append(b - a)
    }
    let medianPlain = median(plain)
    let medianDifference = median(differences)
    let cost = try await middlewareCost(tracer: tracer)
    let tools = try await toolOutputBenchmarks(tracer: tracer)
    let toolCost = tools.first { $0.metric == "tool.traced.100KB" }?.value ?? 0
    return tools + [
        BenchmarkRow(metric: "tool.share.100KB", value: 100 * toolCost / 1000 / medianPlain, unit: "%"),
        BenchmarkRow(metric: "request.plain", value: medianPlain, unit: "ms"),
        BenchmarkRow(metric: "overhead.median", value: medianDifference, unit: "ms"),
        BenchmarkRow(metric: "overhead.iqr", value: quantile(differences, 0.75) - quantile(differences, 0.25), unit: "ms"),
        BenchmarkRow(metric: "overhead.share", value: 100 * medianDifference / medianPlain, unit: "%"),
        BenchmarkRow(metric: "middleware.cost", value: cost, unit: "µs/request"),
        BenchmarkRow(metric: "middleware.share", value: 100 * cost / 1000 / medianPlain, unit: "%"),
    ]
}

/// Median µs the middleware adds to one request of a model that answers at once.
private func middlewareCost(tracer: Tracer) async throws -> Double {
    let model = InstantModel()
    func run(traced: Bool, requests: Int) async throws -> Double {
        let start = ContinuousClock.now
        for _ in 0..<requests {
            let session = LanguageModelSession(
                model: model, label: "cost", instructions: "Answer.",
                middleware: traced ? [TracingMiddleware(tracer: tracer)] : [])
            _ = try await session.respond(to: "Name three fruits.")
        }
        return (ContinuousClock.now - start).milliseconds * 1000 / Double(requests)
    }
    var differences: [Double] = []
    for _ in 0..<11 {
        let plain = try await run(traced: false, requests: 500)
        let traced = try await run(traced: true, requests: 500)
        differences.append(traced - plain)
    }
    return median(differences)
}

/// Answers every request at once with a short reply and usage, as a server would report it.
struct InstantModel: LanguageModel {
    var provider: String { "instant" }
    var modelName: String { "instant" }

    func stream(_ request: ModelRequest) -> AsyncThrowingStream<ModelEvent, any Error> {
        AsyncThrowingStream { continuation in
            for event: ModelEvent in [
                .outputStarted, .contentDelta("Apples, "), .contentDelta("pears, plums."),
                .usage(TokenUsage(inputTokens: 20, cachedInputTokens: 16, outputTokens: 6)), .finished(reason: "stop"),
            ] {
                continuation.yield(event)
            }
            continuation.finish()
        }
    }
}

private func median(_ values: [Double]) -> Double { quantile(values, 0.5) }

/// The nearest-rank quantile of `values`.
private func quantile(_ values: [Double], _ q: Double) -> Double {
    let sorted = values.sorted()
    let rank = max(1, Int((q * Double(sorted.count)).rounded(.up)))
    return sorted[min(rank, sorted.count) - 1]
}

extension Duration {
    fileprivate var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
