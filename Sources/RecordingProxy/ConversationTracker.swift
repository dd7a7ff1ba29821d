import Foundation
import ModelSession
import SessionInstrumentation
import SessionTrace
import Similarity
import Synchronization

/// Tells which conversation each request belongs to, from the traffic alone, and records the
/// tool calls that one response asked for when a later request brings their results.
///
/// A request belongs to the conversation the client named; else to the one that ended the stored
/// response it continues (`previous_response_id`: the request sends only what is new, and is read
/// as that conversation's history followed by it); else to the conversation whose latest
/// request's entries are a strict prefix of its own (the client sent the history again, plus the
/// answer and what came next). Each conversation has one ``SessionRecorder``, the middleware's,
/// so prefix reuse, turns and handoffs are judged the same way for proxy and middleware stores.
/// At most ``maximumConversations`` are remembered; the least recently used goes first.
final class ConversationTracker: Sendable {
    let tracer: Tracer
    let capturePayloads: Bool
    static let maximumConversations = 512
    private let state = Mutex(State())

    private struct State {
        var conversations: [Conversation] = []
        var useCounter: Int64 = 0
    }

    private struct Conversation {
        let recorder: SessionRecorder
        let name: String?
        var entries: [Transcript.Entry]
        var lastUsed: Int64
        /// Calls the latest response asked for, by call id, until a request brings their results.
        var pendingCalls: [String: PendingCall] = [:]
        /// The ids of its latest responses (at most ``maximumResponseIDs``), which a request
        /// continuing a stored response names.
        var responseIDs: [String] = []
        /// Results the latest request brought for calls no ended response had asked for yet, by
        /// call id: a client that read a stream's last event may send the next request before the
        /// proxy sees that response end. Recorded when it ends (``responseEnded``).
        var earlyResults: [String: EarlyResult] = [:]
    }

    /// A tool's result that came before the end of the response that asked for the call.
    struct EarlyResult {
        var output: ToolOutput
        var failed: Bool
        var arrived: Int64
    }

    /// Response ids remembered for each conversation.
    static let maximumResponseIDs = 32

    /// A tool call a response asked for: what it was, and when its response ended.
    struct PendingCall {
        var call: ToolCallRequest
        var requestID: Int64
        var responseEnd: Int64
    }

    init(tracer: Tracer, capturePayloads: Bool) {
        self.tracer = tracer
        self.capturePayloads = capturePayloads
    }

    /// Finds or starts the conversation of `observed` and records each tool call whose result
    /// the request carries (its duration ends now); the request is then placed with the
    /// recorder's ``SessionRecorder/beginRequest(_:model:requestID:at:)``. A request that
    /// continues a stored response gets that conversation's history before its own entries.
    func conversation(for observed: inout ObservedRequest) -> SessionRecorder {
        let now = tracer.now()
        let (recorder, answered, entries) = state.withLock {
            state -> (SessionRecorder, [(PendingCall, ToolOutput)], [Transcript.Entry]) in
            state.useCounter += 1
            var entries = observed.request.entries
            let chosen: Int
            if let index = Self.match(observed, in: state.conversations) {
                chosen = index
                if let id = observed.continuedResponseID, state.conversations[index].responseIDs.contains(id) {
                    entries = state.conversations[index].entries + entries
                }
            } else {
                if state.conversations.count >= Self.maximumConversations,
                   let oldest = state.conversations.indices.min(by: {
                       state.conversations[$0].lastUsed < state.conversations[$1].lastUsed
                   })
                {
                    state.conversations.remove(at: oldest)
                }
                state.conversations.append(
                    Conversation(
                        recorder: SessionRecorder(tracer: tracer, label: observed.sessionName ?? "proxy"),
                        name: observed.sessionName, entries: [], lastUsed: 0))
                chosen = state.conversations.count - 1
            }
            var answered: [(PendingCall, ToolOutput)] = []
            let earlier = Set(state.conversations[chosen].entries.compactMap { entry -> String? in
                if case .toolOutput(let output) = entry { output.callID } else { nil }
            })
            var early: [String: EarlyResult] = [:]
            for case .toolOutput(let output) in entries {
                if let pending = state.conversations[chosen].pendingCalls.removeValue(forKey: output.callID) {
                    answered.append((pending, output))
                } else if !earlier.contains(output.callID) {
                    early[output.callID] = EarlyResult(
                        output: output, failed: observed.failedToolCallIDs.contains(output.callID), arrived: now)
                }
            }
            state.conversations[chosen].earlyResults = early
            state.conversations[chosen].entries = entries
            state.conversations[chosen].lastUsed = state.useCounter
            return (state.conversations[chosen].recorder, answered, entries)
        }
        observed.request.entries = entries
        for (pending, output) in answered {
            recordToolCall(
                pending, output: output, failed: observed.failedToolCallIDs.contains(output.callID),
                sessionID: recorder.sessionID, end: now)
        }
        return recorder
    }

    /// Remembers the calls a response asked for, to record when their results come, and its id,
    /// which a request continuing it names. A call whose result came already (``EarlyResult``) is
    /// recorded now, with no duration: its result arrived before the proxy saw the response end.
    func responseEnded(
        recorder: SessionRecorder, responseID: String?, calls: [ToolCallRequest], requestID: Int64, at end: Int64
    ) {
        guard !calls.isEmpty || responseID != nil else { return }
        let answered = state.withLock { state -> [(PendingCall, EarlyResult)] in
            guard let index = state.conversations.firstIndex(where: { $0.recorder === recorder }) else { return [] }
            if let responseID {
                state.conversations[index].responseIDs.append(responseID)
                state.conversations[index].responseIDs.removeFirst(
                    max(0, state.conversations[index].responseIDs.count - Self.maximumResponseIDs))
            }
            var answered: [(PendingCall, EarlyResult)] = []
            for call in calls {
                let pending = PendingCall(call: call, requestID: requestID, responseEnd: end)
                if let result = state.conversations[index].earlyResults.removeValue(forKey: call.id) {
                    answered.append((pending, result))
                } else {
                    state.conversations[index].pendingCalls[call.id] = pending
                }
            }
            return answered
        }
        for (pending, result) in answered {
            recordToolCall(
                pending, output: result.output, failed: result.failed, sessionID: recorder.sessionID,
                end: result.arrived)
        }
    }

    /// The conversation a request continues: the one it names, else the one with the longest
    /// history that is a strict prefix of its entries (the most recently used on a tie).
    private static func match(_ observed: ObservedRequest, in conversations: [Conversation]) -> Int? {
        if let name = observed.sessionName {
            return conversations.firstIndex { $0.name == name }
        }
        if let id = observed.continuedResponseID,
           let index = conversations.firstIndex(where: { $0.responseIDs.contains(id) })
        {
            return index
        }
        let entries = observed.request.entries
        var best: (index: Int, length: Int, lastUsed: Int64)?
        for (index, conversation) in conversations.enumerated() where conversation.name == nil {
            let previous = conversation.entries
            guard !previous.isEmpty, previous.count < entries.count, entries.starts(with: previous) else { continue }
            if let current = best, (current.length, current.lastUsed) >= (previous.count, conversation.lastUsed) {
                continue
            }
            best = (index, previous.count, conversation.lastUsed)
        }
        return best?.index
    }

    /// Records a call whose result came: `ok`, or `error` when the client marked the result a failure.
    private func recordToolCall(
        _ pending: PendingCall, output: ToolOutput, failed: Bool, sessionID: Int64, end: Int64
    ) {
        guard tracer.isEnabled(.toolCall) else { return }
        let arguments = Data(pending.call.arguments.utf8)
        let id = tracer.makeID()
        let record = ToolCallRecord(
            toolCallID: id, requestID: pending.requestID, sessionID: sessionID, ts: pending.responseEnd,
            dur: max(0, end - pending.responseEnd), name: pending.call.name, callID: pending.call.id,
            argumentsFingerprint: Fingerprint.of(Fingerprint.normalizedArguments(arguments)),
            argumentsBytes: Int64(arguments.count), argumentsSketch: ArgumentSketch.of(pending.call.arguments),
            outputBytes: Int64(output.content.utf8.count),
            outcome: failed ? .error : .ok, error: failed ? "the client sent the result as an error" : nil,
            outputFingerprint: Fingerprint.of(output.content), outputSketch: OutputSketch.of(output.content))
        tracer.record(.toolCall(record), kind: .toolCall)
        if capturePayloads {
            tracer.capturePayload(.toolArguments, pending.call.arguments, parentID: id)
            tracer.capturePayload(.toolOutput, output.content, parentID: id)
        }
    }
}
