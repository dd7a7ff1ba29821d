import ModelSession
import SessionTrace
import Synchronization

/// What the middleware remembers of one session between its requests: enough to tell prefix
/// reuse (the client-side predictor of a KV-cache hit), the user turn, and handoffs.
package final class SessionRecorder: Sendable {
    package let tracer: Tracer
    package let sessionID: Int64
    let label: String
    let start: Int64
    private let state = Mutex(State())

    private struct State {
        var previousInstructions: String?
        var previousEntries: [Transcript.Entry] = []
        var previousSignature: RequestSignature?
        var lastRequestID: Int64?
        var turnID: Int64?
        var hasRequests = false
    }

    /// What the recorder tells a request about its place in the session.
    package struct Placement {
        /// Leading transcript entries identical to the previous request's.
        package var reusedPrefixEntries: Int64
        /// The user turn: new when the request carries no tool output since its last prompt.
        package var turnID: Int64
        package var instructionsFingerprint: String?
        package var toolsFingerprint: String?
        /// The instructions differ from the previous request's (or this is the first request).
        package var instructionsChanged: Bool
        /// The tool definitions differ from the previous request's (or this is the first request).
        package var toolsChanged: Bool
    }

    package init(tracer: Tracer, label: String) {
        self.tracer = tracer
        self.sessionID = tracer.makeID()
        self.label = label
        self.start = tracer.now()
    }

    /// The request that most recently asked for tools; tool calls nest under it.
    var lastRequestID: Int64? { state.withLock { $0.lastRequestID } }

    /// Compares `request` with the previous request of the session: records a handoff for every
    /// change of profile, model, instructions or tool definitions, at the request's start, and
    /// returns the reused prefix length, the turn and the prefix fingerprints.
    func beginRequest(
        _ request: ModelRequest, model: any LanguageModel, requestID: Int64, at start: Int64
    ) -> Placement {
        beginRequest(request, model: "\(model.provider)/\(model.modelName)", requestID: requestID, at: start)
    }

    /// ``beginRequest(_:model:requestID:at:)`` for a recorder that knows the model by name alone
    /// (`provider/model`), as the recording proxy does.
    package func beginRequest(
        _ request: ModelRequest, model: String, requestID: Int64, at start: Int64
    ) -> Placement {
        let signature = RequestSignature(request: request, model: model)
        let newTurn = !request.hasToolOutputSinceLastPrompt
        let freshTurnID = newTurn ? tracer.makeID() : nil
        let (placement, changes) = state.withLock { state -> (Placement, [(HandoffRecord.Kind, String, String)]) in
            let reused: Int64
            if state.hasRequests, state.previousInstructions == request.instructions {
                reused = Int64(zip(state.previousEntries, request.entries).prefix(while: { $0 == $1 }).count)
            } else {
                reused = 0
            }
            let changes = state.previousSignature.map { $0.changes(to: signature) } ?? []
            let previous = state.previousSignature
            state.previousInstructions = request.instructions
            state.previousEntries = request.entries
            state.previousSignature = signature
            state.lastRequestID = requestID
            state.hasRequests = true
            let turnID = freshTurnID ?? state.turnID ?? tracer.makeID()
            state.turnID = turnID
            let placement = Placement(
                reusedPrefixEntries: reused, turnID: turnID,
                instructionsFingerprint: signature.instructionsFingerprint,
                toolsFingerprint: signature.toolsFingerprint,
                instructionsChanged: previous?.instructionsFingerprint != signature.instructionsFingerprint,
                toolsChanged: previous?.toolsFingerprint != signature.toolsFingerprint)
            return (placement, changes)
        }
        if !changes.isEmpty, tracer.isEnabled(.handoff) {
            for (kind, from, to) in changes {
                tracer.record(
                    .handoff(HandoffRecord(handoffID: tracer.makeID(), sessionID: sessionID, ts: start, kind: kind,
                                           from: from, to: to)), kind: .handoff)
            }
        }
        return placement
    }

    /// Places `request` in the session (``beginRequest(_:model:requestID:at:)``) and writes what
    /// that tells into `handle`'s record: prompt size, entries, prefix reuse, turn, fingerprints,
    /// output cap and temperature. With `capturePayloads`, it also captures the prompt and, when
    /// they changed, the instructions and tool definitions: what a cache break's shape is read from.
    package func place(_ request: ModelRequest, model: String, in handle: RequestHandle, capturePayloads: Bool) {
        let placement = beginRequest(request, model: model, requestID: handle.id, at: handle.start)
        handle.setPrompt(
            bytes: request.promptBytes, transcriptEntries: Int64(request.entries.count),
            reusedPrefixEntries: placement.reusedPrefixEntries)
        handle.setTurn(
            placement.turnID, instructionsFingerprint: placement.instructionsFingerprint,
            toolsFingerprint: placement.toolsFingerprint)
        handle.setOptions(
            maxTokens: request.options.maximumResponseTokens.map(Int64.init), temperature: request.options.temperature)
        guard capturePayloads else { return }
        if case .prompt(let text)? = request.entries.last {
            tracer.capturePayload(.prompt, text, parentID: handle.id)
        }
        if placement.instructionsChanged, let instructions = request.instructions {
            tracer.capturePayload(.instructions, instructions, parentID: handle.id)
        }
        if placement.toolsChanged, !request.tools.isEmpty {
            tracer.capturePayload(.toolDefinitions, Fingerprint.json(toolDefinitions: request.tools), parentID: handle.id)
        }
    }

    /// Re-records the session with its duration so far; the store keeps the latest record.
    package func recordSession() {
        guard tracer.isEnabled(.session) else { return }
        tracer.record(
            .session(SessionRecord(sessionID: sessionID, ts: start, dur: tracer.now() - start, label: label)),
            kind: .session)
    }
}

/// The parts of a request whose change between two requests is a handoff: each also forms the
/// prompt prefix, so a change breaks the server's prompt cache.
struct RequestSignature: Equatable {
    var profile: String
    var model: String
    var instructionsFingerprint: String?
    /// Over every definition sent, in order: a changed description or schema counts, not only
    /// an added or removed tool.
    var toolsFingerprint: String?
    var toolNames: String

    init(request: ModelRequest, model: String) {
        profile = request.profileName
        self.model = model
        instructionsFingerprint = request.instructions.map(Fingerprint.of)
        toolsFingerprint = request.tools.isEmpty ? nil : Fingerprint.of(toolDefinitions: request.tools)
        toolNames = request.tools.map(\.name).joined(separator: ",")
    }

    /// `(kind, from, to)` for each part that differs; instructions and tool definitions are
    /// named by short fingerprint, never by their text.
    func changes(to next: RequestSignature) -> [(HandoffRecord.Kind, String, String)] {
        var changes: [(HandoffRecord.Kind, String, String)] = []
        if profile != next.profile { changes.append((.profile, profile, next.profile)) }
        if model != next.model { changes.append((.model, model, next.model)) }
        if instructionsFingerprint != next.instructionsFingerprint {
            changes.append((.instructions, instructionsLabel, next.instructionsLabel))
        }
        if toolsFingerprint != next.toolsFingerprint { changes.append((.tools, toolsLabel, next.toolsLabel)) }
        return changes
    }

    private var instructionsLabel: String {
        instructionsFingerprint.map { "instructions#" + $0.prefix(8) } ?? "none"
    }

    private var toolsLabel: String {
        toolsFingerprint.map { toolNames + "#" + $0.prefix(8) } ?? "none"
    }
}
