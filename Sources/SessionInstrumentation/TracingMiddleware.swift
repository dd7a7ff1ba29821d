import ModelSession
import SessionTrace
import Synchronization

/// Records every request and tool call of the sessions it is given to.
///
/// One line wraps a session:
/// ```swift
/// let session = LanguageModelSession(model: model, tools: [search],
///                                    middleware: [TracingMiddleware(tracer: tracer)])
/// ```
public final class TracingMiddleware: SessionMiddleware {
    /// The tracer every session's requests and tool calls are recorded with.
    public let tracer: Tracer
    /// What is recorded beyond requests and tool calls, and how long an idle session is remembered.
    public let options: TracingOptions
    private let state = Mutex(State())

    /// A recorder per live session; one ends when its session does, or when idle for
    /// ``TracingOptions/recorderIdleTimeout``, so a server sharing one middleware stays bounded.
    private struct State {
        var recorders: [SessionInfo: Entry] = [:]
        /// When idle recorders were last looked for, on the tracer's clock.
        var lastSweep: Int64 = 0
    }

    private struct Entry {
        let recorder: SessionRecorder
        var lastUsed: Int64
    }

    /// A middleware recording to `tracer`; one instance may serve many sessions at once.
    public init(tracer: Tracer, options: TracingOptions = .init()) {
        self.tracer = tracer
        self.options = options
    }

    /// Wraps the session's model in a ``TracedModel`` that records into that session.
    public func model(_ model: any LanguageModel, session: SessionInfo) -> any LanguageModel {
        TracedModel(model, recorder: recorder(for: session), options: options)
    }

    /// Wraps `tool` in a ``TracedTool`` whose calls nest under the session's latest request.
    public func tool<T: Tool>(_ tool: T, session: SessionInfo) -> any Tool {
        TracedTool(tool, tracer: tracer, recorder: recorder(for: session), options: options)
    }

    /// Lets the session's recorder go: its requests and its session record are recorded already.
    public func sessionEnded(_ session: SessionInfo) {
        _ = state.withLock { $0.recorders.removeValue(forKey: session) }
    }

    /// The sessions whose recorder is kept.
    var recorderCount: Int { state.withLock { $0.recorders.count } }

    private func recorder(for session: SessionInfo) -> SessionRecorder {
        let now = tracer.now()
        let idleLimit = options.recorderIdleTimeout.map(Self.nanoseconds)
        return state.withLock { state in
            if let idleLimit, now - state.lastSweep >= idleLimit / 4 {
                // At most four sweeps per timeout: each is one pass over the live sessions.
                state.lastSweep = now
                state.recorders = state.recorders.filter { now - $0.value.lastUsed < idleLimit }
            }
            if let entry = state.recorders[session] {
                state.recorders[session]?.lastUsed = now
                return entry.recorder
            }
            let recorder = SessionRecorder(tracer: tracer, label: session.label)
            state.recorders[session] = Entry(recorder: recorder, lastUsed: now)
            return recorder
        }
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds.multipliedReportingOverflow(by: 1_000_000_000).overflow
            ? .max : seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
