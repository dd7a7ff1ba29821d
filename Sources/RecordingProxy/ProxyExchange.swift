import ModelSession
import SessionInstrumentation
import SessionTrace
import Synchronization

/// The recording of one model request that crosses the proxy: it begins when the request's body
/// has arrived, watches the upstream's head and body go by, and ends once, however the exchange
/// ends (completed, upstream failure, client gone, proxy stopped).
///
/// It records through the same calls as the middleware: ``Tracer/beginRequest(provider:model:profile:)``
/// and its ``RequestHandle``, the middleware's ``SessionRecorder`` for prefix reuse, turns and
/// handoffs, and ``ResponseObservation`` for a streamed response's events.
final class ProxyExchange: Sendable {
    let tracer: Tracer
    let handle: RequestHandle
    private let tracker: ConversationTracker
    private let recorder: SessionRecorder
    private let capturePayloads: Bool
    private let state: Mutex<State>

    private struct State {
        var tap: ResponseTap
        var observation: ResponseObservation
        var status = 0
        var toolCalls: [ToolCallRequest] = []
        var ended = false
    }

    /// How the exchange ended.
    enum Ending {
        /// The upstream's body arrived whole and reached the client.
        case completed
        case failed(ProxyFailure)
    }

    init(
        observed: ObservedRequest, route: ProxyRoute, upstreamURL: String, tracker: ConversationTracker,
        capturePayloads: Bool
    ) {
        let tracer = tracker.tracer
        self.tracer = tracer
        self.tracker = tracker
        self.capturePayloads = capturePayloads
        var observed = observed
        let recorder = tracker.conversation(for: &observed)
        self.recorder = recorder
        let context = tracer.currentContext.inSession(recorder.sessionID)
        let handle = TraceContext.$current.withValue(context) {
            tracer.beginRequest(provider: route.provider, model: observed.model)
        }
        self.handle = handle
        recorder.place(
            observed.request, model: "\(route.provider)/\(observed.model)", in: handle,
            capturePayloads: capturePayloads)
        handle.setStreamed(observed.streams)
        state = Mutex(
            State(
                tap: ResponseTap(
                    route: route, upstreamURL: upstreamURL,
                    callsBefore: observed.request.entries.reduce(0) {
                        if case .toolCalls(let calls) = $1 { $0 + calls.count } else { $0 }
                    }),
                observation: ResponseObservation(request: handle, recordChunks: false)))
    }

    /// The upstream's head arrived: its status decides how the body is read; its request id,
    /// rate-limit and processing-time headers are recorded as an instant inside the request.
    func headArrived(_ head: UpstreamTransfer.Head, serverAddress: String?, serverPort: Int64?) {
        let contentType = head.headers.last { $0.name.lowercased() == "content-type" }?.value
        state.withLock { state in
            state.status = head.status
            state.tap.begin(status: head.status, contentType: contentType)
        }
        handle.setServer(address: serverAddress, port: serverPort)
        var metadata: TraceMetadata = ["http.response.status_code": .int(Int64(head.status))]
        for header in head.headers where HeaderPolicy.recordsResponseHeader(header.name) {
            metadata[header.name.lowercased()] = .string(header.value)
        }
        TraceContext.$current.withValue(handle.context) { tracer.instant("proxy.upstream_response", metadata: metadata) }
    }

    /// Bytes of the upstream's body that arrived at `arrived` (on the tracer's clock), seen just
    /// after the client got them: their first output times the request's first token.
    func bodyArrived(_ bytes: UnsafeRawBufferPointer, at arrived: Int64) {
        state.withLock { state in
            for event in state.tap.consume(bytes) {
                if case .toolCall(let call) = event { state.toolCalls.append(call) }
                state.observation.observe(event, arrived: arrived)
            }
        }
    }

    /// Ends the recording; only the first call records.
    func end(_ ending: Ending) {
        let now = tracer.now()
        typealias Outcome = (calls: [ToolCallRequest], id: String?, failure: ProxyFailure?)
        let outcome = state.withLock { state -> Outcome? in
            guard !state.ended else { return nil }
            state.ended = true
            if case .failed(let failure) = ending {
                // Clients close the connection once the stream's last event came (the openai SDK
                // at [DONE]), or its error, before the upstream ends it: such a stream is complete
                // (or failed upstream), not cancelled.
                guard case .clientDisconnected = failure, state.tap.readsEvents,
                      state.tap.hasCompleteStream || state.tap.upstreamError != nil
                else {
                    return (state.toolCalls, nil, failure)
                }
            }
            guard (200..<300).contains(state.status) else {
                return ([], nil, .upstreamStatus(state.status, message: state.tap.errorMessage()))
            }
            if state.tap.readsEvents {
                for event in state.tap.finishEvents() {
                    if case .toolCall(let call) = event { state.toolCalls.append(call) }
                    state.observation.observe(event)
                }
                let (id, model) = (state.tap.responseID, state.tap.responseModel)
                handle.setResponse(id: id, model: model)
                if let message = state.tap.upstreamError {
                    return (state.toolCalls, id, .upstreamError(message))
                }
                if let malformation = state.tap.malformation {
                    return (state.toolCalls, id, .malformedStream(malformation))
                }
                return (state.toolCalls, id, nil)
            }
            guard let whole = state.tap.wholeResponse() else {
                return ([], nil, .malformedStream("the body is not a JSON response"))
            }
            // Not as content deltas: a whole response has no first token to time.
            for event in whole.events { state.observation.observe(event) }
            state.observation.response = whole.text
            state.observation.reasoning = whole.reasoning
            handle.setResponse(id: whole.id, model: whole.model)
            return (whole.toolCalls, whole.id, nil)
        }
        guard let outcome else { return }
        if let failure = outcome.failure {
            handle.finish(throwing: failure)
        } else {
            handle.finish()
            tracker.responseEnded(
                recorder: recorder, responseID: outcome.id, calls: outcome.calls, requestID: handle.id, at: now)
        }
        if capturePayloads { state.withLock { $0.observation }.captureText() }
        recorder.recordSession()
    }
}

/// Why a recorded exchange failed, as its request's error says it.
enum ProxyFailure: Error, CustomStringConvertible {
    case upstreamUnreachable(String)
    case upstreamStatus(Int, message: String)
    /// The upstream reported an error inside a stream it had begun with a 2xx status.
    case upstreamError(String)
    case upstreamCut(String)
    case malformedStream(String)
    case clientDisconnected
    case proxyStopped

    var description: String {
        switch self {
        case .upstreamUnreachable(let reason): "upstream unreachable: \(reason)"
        case .upstreamStatus(let status, let message): "upstream answered HTTP \(status): \(message)"
        case .upstreamError(let message): "upstream reported an error in the stream: \(message)"
        case .upstreamCut(let reason): "upstream stream cut: \(reason)"
        case .malformedStream(let reason): "malformed upstream stream: \(reason)"
        case .clientDisconnected: "cancelled: the client disconnected"
        case .proxyStopped: "cut: the proxy stopped before the response ended"
        }
    }
}
