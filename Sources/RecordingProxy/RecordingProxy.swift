import CMicroHTTPD
import Foundation
import ModelSession
import SessionTrace
import Synchronization

/// A recording proxy between any model client and its server: it forwards every request as it
/// came and every response byte for byte, as the bytes arrive, and records each OpenAI chat
/// completion and Anthropic Messages request through the tracer, as the middleware would.
///
/// The HTTP server side is libmicrohttpd, a thread per connection; the upstream side is libcurl.
///
/// ```swift
/// let proxy = RecordingProxy(configuration: .init(upstream: URL(string: "http://127.0.0.1:8080")!), tracer: tracer)
/// let port = try proxy.start()
/// // ... clients talk to http://127.0.0.1:\(port)/v1 ...
/// proxy.drain(timeout: .seconds(10))
/// ```
public final class RecordingProxy: Sendable {
    /// Where the proxy listens and forwards, and what it records.
    public struct Configuration: Sendable {
        /// The model server; a client's path is appended to it (`/v1` is not doubled).
        public var upstream: URL
        /// An IPv4 or IPv6 address literal (`127.0.0.1`, `::1`); IPv4 loopback by default.
        public var listenAddress: String
        /// 0 for a free port.
        public var listenPort: UInt16
        /// Record prompt, response and tool text, redacted by the tracer's `payloadRedaction`.
        public var capturePayloads: Bool
        /// A PEM file of certificate authorities to trust for an `https` upstream.
        public var caFile: String?
        /// Connections open at once; more wait in the listen queue.
        public var connectionLimit: Int
        /// The largest request body forwarded; a larger one is answered 413.
        public var maximumRequestBody: Int
        /// The most bytes of request bodies held by all connections at once; a body that would
        /// pass it is answered 503 with `Retry-After`, so memory stays bounded in total.
        public var maximumRequestBodies: Int

        public init(
            upstream: URL, listenAddress: String = "127.0.0.1", listenPort: UInt16 = 0,
            capturePayloads: Bool = false, caFile: String? = nil, connectionLimit: Int = 256,
            maximumRequestBody: Int = 32 << 20, maximumRequestBodies: Int = 256 << 20
        ) {
            self.upstream = upstream
            self.listenAddress = listenAddress
            self.listenPort = listenPort
            self.capturePayloads = capturePayloads
            self.caFile = caFile
            self.connectionLimit = connectionLimit
            self.maximumRequestBody = maximumRequestBody
            self.maximumRequestBodies = maximumRequestBodies
        }
    }

    /// Why the proxy could not start.
    public enum StartError: Error, CustomStringConvertible {
        case cannotListen(address: String, port: UInt16)

        public var description: String {
            switch self {
            case .cannotListen(let address, let port):
                "cannot listen on \(address.contains(":") ? "[\(address)]" : address):\(port) (not a free IP address and port?)"
            }
        }
    }

    public let configuration: Configuration
    public let tracer: Tracer
    let tracker: ConversationTracker
    private let daemon = Mutex<Daemon?>(nil)
    private let inFlight = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)

    public init(configuration: Configuration, tracer: Tracer) {
        self.configuration = configuration
        self.tracer = tracer
        tracker = ConversationTracker(tracer: tracer, capturePayloads: configuration.capturePayloads)
    }

    /// Starts listening; returns the port.
    public func start() throws(StartError) -> UInt16 {
        let onRequest: cmhd_request_handler = { context, connection, method, target, body, length, state in
            let proxy = Unmanaged<RecordingProxy>.fromOpaque(context!).takeUnretainedValue()
            return proxy.serve(
                connection!, method: String(cString: method!), target: String(cString: target!),
                body: UnsafeRawBufferPointer(start: body, count: length), state: state!)
                ? 1 : 0
        }
        let onCompleted: cmhd_completion_handler = { context, state, how in
            let proxy = Unmanaged<RecordingProxy>.fromOpaque(context!).takeUnretainedValue()
            let connection = Unmanaged<ProxyConnection>.fromOpaque(state!).takeRetainedValue()
            connection.completed(how: how)
            proxy.inFlight.wrappingSubtract(1, ordering: .relaxed)
        }
        // Retained for the daemon's life: its threads call back into this object.
        let context = Unmanaged.passRetained(self).toOpaque()
        guard let started = cmhd_start(
            configuration.listenAddress, configuration.listenPort, UInt32(configuration.connectionLimit),
            configuration.maximumRequestBody, configuration.maximumRequestBodies, onRequest, onCompleted, context)
        else {
            Unmanaged<RecordingProxy>.fromOpaque(context).release()
            throw .cannotListen(address: configuration.listenAddress, port: configuration.listenPort)
        }
        daemon.withLock { $0 = Daemon(pointer: started) }
        return cmhd_port(started)
    }

    /// Model requests being answered now.
    public var requestsInFlight: Int { inFlight.load(ordering: .relaxed) }

    /// Stops accepting, lets the requests in flight finish for up to `timeout`, cuts the rest
    /// (recorded as cut), stops the server and flushes the tracer.
    public func drain(timeout: Duration) {
        guard let running = daemon.withLock({ daemon -> OpaquePointer? in
            defer { daemon = nil }
            return daemon?.pointer
        }) else { return }
        cmhd_stop_accepting(running)
        let deadline = ContinuousClock.now + timeout
        while inFlight.load(ordering: .relaxed) > 0, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        stopping.store(true, ordering: .relaxed)
        cmhd_stop(running)
        tracer.flush()
    }

    var isStopping: Bool { stopping.load(ordering: .relaxed) }

    /// The upstream URL of a request target: the target appended to the upstream, without doubling
    /// a path the upstream already ends in (`--upstream https://api.openai.com/v1` and `/v1/models`).
    func upstreamURL(for target: String) -> String {
        var base = configuration.upstream.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        let basePath = configuration.upstream.path.hasSuffix("/")
            ? String(configuration.upstream.path.dropLast()) : configuration.upstream.path
        if !basePath.isEmpty, target.hasPrefix(basePath + "/") || target == basePath {
            return String(base.dropLast(basePath.count)) + target
        }
        return base + target
    }

    private func serve(
        _ connection: OpaquePointer, method: String, target: String, body: UnsafeRawBufferPointer,
        state: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> Bool {
        let route = ProxyRoute(method: method, path: target)
        var headers: [(String, String)] = []
        withUnsafeMutablePointer(to: &headers) { headers in
            cmhd_visit_request_headers(connection, { context, name, value in
                context!.assumingMemoryBound(to: [(String, String)].self).pointee
                    .append((String(cString: name!), String(cString: value!)))
            }, headers)
        }
        let url = upstreamURL(for: target)
        var exchange: ProxyExchange?
        if route.isRecorded && tracer.isEnabled(.request) {
            exchange = observe(route: route, body: body, headers: headers, url: url)
            // Forwarded all the same. A JSON object without the API's input is no generation
            // (Ollama loads or unloads a model so); any other body is a request the trace misses.
            if exchange == nil, !Self.isJSONObject(body) { countUnreadableRequest() }
        }
        let forwarded = headers.filter { HeaderPolicy.forwardsRequestHeader($0.0, route: route) }
            .map { "\($0.0): \($0.1)" }
        // A recorded stream without usage gets it asked for, and the usage chunk taken out again.
        let withUsage = exchange != nil && (route == .chatCompletions || route == .completions)
            ? StreamUsageRequest.addingIncludeUsage(to: body) : nil
        inFlight.wrappingAdd(1, ordering: .relaxed)
        let proxyConnection = ProxyConnection(
            proxy: self, route: route, exchange: exchange, clientSocket: cmhd_client_socket(connection),
            stripsUsageChunk: withUsage != nil)
        state.pointee = Unmanaged.passRetained(proxyConnection).toOpaque()
        // libcurl reads the client's body in libmicrohttpd's buffer, which outlives the transfer.
        let prepared = UpstreamTransfer(
            url: url, method: method, headers: forwarded, body: withUsage.map { .owned($0) } ?? .borrowed(body),
            caFile: configuration.caFile)
        guard let transfer = prepared else {
            exchange?.end(.failed(.upstreamUnreachable("libcurl could not prepare the request")))
            return respondBadGateway(connection, route: route, reason: "libcurl could not prepare the request")
        }
        return proxyConnection.forward(transfer, to: connection)
    }

    private func observe(
        route: ProxyRoute, body: UnsafeRawBufferPointer, headers: [(String, String)], url: String
    ) -> ProxyExchange? {
        let data = Data(body)
        let session = headers.first { $0.0.lowercased() == "x-session-id" }?.1
        let observed: ObservedRequest? =
            switch route {
            case .anthropicMessages: ObservedRequest.anthropicMessages(data, sessionHeader: session)
            case .responses: ObservedRequest.openAIResponses(data, sessionHeader: session)
            case .ollamaChat: ObservedRequest.ollamaChat(data, sessionHeader: session)
            case .ollamaGenerate: ObservedRequest.ollamaGenerate(data, sessionHeader: session)
            case .completions: ObservedRequest.openAICompletions(data, sessionHeader: session)
            case .llamaCompletion: ObservedRequest.llamaCompletion(data, sessionHeader: session)
            case .chatCompletions, .passthrough: ObservedRequest.openAIChat(data, sessionHeader: session)
            }
        return observed.map {
            ProxyExchange(
                observed: $0, route: route, upstreamURL: url, tracker: tracker,
                capturePayloads: configuration.capturePayloads)
        }
    }

    /// Whether `body` is a JSON object, whatever its members.
    private static func isJSONObject(_ body: UnsafeRawBufferPointer) -> Bool {
        (try? JSONSerialization.jsonObject(with: Data(body))) is [String: Any]
    }

    /// Counts a model request the proxy forwards but cannot record, so the trace says it is
    /// incomplete instead of leaving the request out unsaid.
    private func countUnreadableRequest() {
        tracer.record(
            .dropped(DroppedRecord(ts: tracer.now(), sinkName: "proxy", reason: .unreadableRequest, count: 1)),
            kind: .dropped)
    }

    /// Answers 502 with a JSON error in the route's own shape, so the client's SDK reads it.
    func respondBadGateway(_ connection: OpaquePointer, route: ProxyRoute, reason: String) -> Bool {
        let message = "the recording proxy could not reach the upstream: \(reason)"
        let error: [String: Any] =
            switch route {
            case .anthropicMessages: ["type": "error", "error": ["type": "api_error", "message": message]]
            case .ollamaChat, .ollamaGenerate: ["error": message]
            case .chatCompletions, .completions, .llamaCompletion, .responses, .passthrough:
                ["error": ["message": message, "type": "proxy_error", "code": "upstream_unreachable"]]
            }
        let body = JSONValue.text(error)
        let response = body.withCString { cmhd_response_from_copy($0, strlen($0)) }
        _ = cmhd_add_header(response, "Content-Type", "application/json")
        return cmhd_queue(connection, 502, response) == 1
    }
}

/// The libmicrohttpd daemon. `@unchecked Sendable`: libmicrohttpd's daemon calls are safe from
/// any thread, and the proxy hands the pointer out once, to stop it.
private struct Daemon: @unchecked Sendable {
    let pointer: OpaquePointer
}
