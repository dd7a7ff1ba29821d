import Foundation
import ModelSession
import Redaction
import SessionInstrumentation
import SessionTrace
import SessionTraceTesting
import Synchronization
import TraceStore

/// One scenario being recorded: the real `Tracer`, `StoreSink` and `TracingMiddleware` on the
/// scenario's clock, and the scripted servers and tools its sessions use.
public final class ScenarioRecording: Sendable {
    /// The scenario's time: it moves only when the scripted model or a scripted tool spends time,
    /// so every timestamp of a scenario store is chosen, not measured, and the same on every run
    /// (an uptime of 1000 s at the start).
    public let clock = TestClock(at: 1_000_000_000_000, wallClock: 1_780_000_000_000_000_000)
    let sink: StoreSink
    public let tracer: Tracer
    public let middleware: TracingMiddleware
    private let servers = Mutex<[ScriptedServer]>([])

    /// Starts a store at `path`, replacing a file there; `capturePayloads` records argument and
    /// prompt text (made up, and redacted all the same by the standard redactor).
    init(path: String, label: String, capturePayloads: Bool) throws {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        sink = try StoreSink(path: path)
        let redactor = Redactor.standard
        tracer = Tracer(
            sink: sink, clock: clock, label: label, commandLine: "make-scenarios", gitRevision: nil,
            payloadRedaction: { redactor.redact($0).text })
        middleware = TracingMiddleware(
            tracer: tracer, options: TracingOptions(capturePayloads: capturePayloads))
    }

    /// A scripted server for one session.
    public func server(
        _ script: [ScriptedReply], cacheReporting: ScriptedServer.CacheReporting = .cachedTokens,
        timings: ScriptedServer.TimingReports? = nil
    ) -> ScriptedServer {
        let server = ScriptedServer(clock: clock, script: script, cacheReporting: cacheReporting, timings: timings)
        servers.withLock { $0.append(server) }
        return server
    }

    /// A tool that takes string arguments and answers with `output`, or fails with what it throws.
    public func tool(
        _ name: String, _ description: String, properties: [String], duration: Int64 = 40_000_000,
        output: @escaping @Sendable ([String: ScenarioValue]) throws -> String
    ) -> ScenarioTool {
        ScenarioTool(
            name, description: description, properties: properties, clock: clock, duration: duration,
            output: output)
    }

    /// A session with a fixed model, tools and instructions, traced by the scenario's middleware.
    public func session(
        _ label: String, _ server: ScriptedServer, tools: [any Tool] = [], instructions: String
    ) -> LanguageModelSession {
        LanguageModelSession(
            model: server.model(), label: label, tools: tools, instructions: instructions,
            middleware: [middleware])
    }

    /// The user takes a moment, then sends `prompt`.
    @discardableResult
    public func ask(_ session: LanguageModelSession, _ prompt: String) async throws -> String {
        clock.advance(by: 300_000_000)
        return try await session.respond(to: prompt).content
    }

    /// Flushes and closes the store; fails when a script was not used up.
    func finish() throws {
        tracer.flush()
        sink.close()
        let unused = servers.withLock { $0.map(\.unusedReplies).reduce(0, +) }
        guard unused == 0 else { throw ScenarioError.unusedReplies(unused) }
    }

    enum ScenarioError: Error, CustomStringConvertible {
        case unusedReplies(Int)
        var description: String {
            switch self {
            case .unusedReplies(let count): "the scenario left \(count) scripted replies unused"
            }
        }
    }
}

/// A counter the dynamic profiles of scenarios read, as app state.
public final class TurnCounter: Sendable {
    private let value = Mutex(0)
    public init() {}
    public var count: Int { value.withLock { $0 } }
    public func next() { value.withLock { $0 += 1 } }
}
