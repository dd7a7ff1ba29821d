import ModelSession
import SessionTrace
import Synchronization

/// What the middleware remembers of one session between its requests: enough to tell prefix
/// reuse (the client-side predictor of a KV-cache hit) and handoffs.
final class SessionRecorder: Sendable {
    let tracer: Tracer
    let sessionID: Int64
    let label: String
    let start: Int64
    private let state = Mutex(State())

    private struct State {
        var previousInstructions: String?
        var previousEntries: [Transcript.Entry] = []
        var previousSignature: RequestSignature?
        var lastRequestID: Int64?
        var hasRequests = false
    }

    init(tracer: Tracer, label: String) {
        self.tracer = tracer
        self.sessionID = tracer.makeID()
        self.label = label
        self.start = tracer.now()
    }

    /// The request that most recently asked for tools; tool calls nest under it.
    var lastRequestID: Int64? { state.withLock { $0.lastRequestID } }

    /// Compares `request` with the previous request of the session: records a handoff for every
    /// change of profile, model, instructions or tool set, at the request's start, and returns the
    /// reused prefix length.
    func beginRequest(_ request: ModelRequest, model: any LanguageModel, requestID: Int64, at start: Int64) -> Int64 {
        let signature = RequestSignature(request: request, model: model)
        let (reused, changes) = state.withLock { state -> (Int64, [(String, String, String)]) in
            let reused: Int64
            if state.hasRequests, state.previousInstructions == request.instructions {
                reused = Int64(zip(state.previousEntries, request.entries).prefix(while: { $0 == $1 }).count)
            } else {
                reused = 0
            }
            let changes = state.previousSignature.map { $0.changes(to: signature) } ?? []
            state.previousInstructions = request.instructions
            state.previousEntries = request.entries
            state.previousSignature = signature
            state.lastRequestID = requestID
            state.hasRequests = true
            return (reused, changes)
        }
        if !changes.isEmpty, tracer.isEnabled(.handoff) {
            for (kind, from, to) in changes {
                tracer.sink.record(
                    .handoff(HandoffRecord(handoffID: tracer.makeID(), sessionID: sessionID, ts: start, kind: kind,
                                           from: from, to: to)))
            }
        }
        return reused
    }

    /// Re-records the session with its duration so far; the store keeps the latest record.
    func recordSession() {
        guard tracer.isEnabled(.session) else { return }
        tracer.sink.record(
            .session(SessionRecord(sessionID: sessionID, ts: start, dur: tracer.now() - start, label: label)))
    }
}

/// The parts of a request whose change between two requests is a handoff.
struct RequestSignature: Equatable {
    var profile: String
    var model: String
    var instructions: String
    var tools: String

    init(request: ModelRequest, model: any LanguageModel) {
        profile = request.profileName
        self.model = "\(model.provider)/\(model.modelName)"
        instructions = request.instructions.map { "instructions#" + Fingerprint.of($0).prefix(8) } ?? "none"
        tools = request.tools.map(\.name).sorted().joined(separator: ",")
    }

    /// `(kind, from, to)` for each part that differs; instructions are named by fingerprint only.
    func changes(to next: RequestSignature) -> [(String, String, String)] {
        var changes: [(String, String, String)] = []
        if profile != next.profile { changes.append(("profile", profile, next.profile)) }
        if model != next.model { changes.append(("model", model, next.model)) }
        if instructions != next.instructions { changes.append(("instructions", instructions, next.instructions)) }
        if tools != next.tools { changes.append(("tools", tools, next.tools)) }
        return changes
    }
}
