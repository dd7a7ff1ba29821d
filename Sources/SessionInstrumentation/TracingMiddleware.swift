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
    public let tracer: Tracer
    public let options: TracingOptions
    private let recorders = Mutex<[SessionInfo: SessionRecorder]>([:])

    public init(tracer: Tracer, options: TracingOptions = .init()) {
        self.tracer = tracer
        self.options = options
    }

    public func model(_ model: any LanguageModel, session: SessionInfo) -> any LanguageModel {
        TracedModel(model, recorder: recorder(for: session), options: options)
    }

    public func tool<T: Tool>(_ tool: T, session: SessionInfo) -> any Tool {
        TracedTool(tool, tracer: tracer, recorder: recorder(for: session), options: options)
    }

    private func recorder(for session: SessionInfo) -> SessionRecorder {
        recorders.withLock { recorders in
            if let recorder = recorders[session] { return recorder }
            let recorder = SessionRecorder(tracer: tracer, label: session.label)
            recorders[session] = recorder
            return recorder
        }
    }
}
