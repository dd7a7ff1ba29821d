import CMicroHTTPD
import Foundation

/// One request's way through the proxy: it waits for the upstream's head, answers the client
/// with the same status and headers, then hands the body on as libmicrohttpd asks for it.
///
/// `@unchecked Sendable`: libmicrohttpd calls the body reader and the completion handler on
/// the connection's own thread, one at a time; `leftover` and `transfer` are touched there alone.
final class ProxyConnection: @unchecked Sendable {
    let proxy: RecordingProxy
    let route: ProxyRoute
    let exchange: ProxyExchange?
    let clientSocket: Int32
    /// Whether the proxy added `include_usage` to the request, so the usage chunk must not reach the client.
    let stripsUsageChunk: Bool
    private var transfer: UpstreamTransfer?
    private var usageFilter: UsageChunkFilter?
    private var upstreamEnded = false
    /// Bytes the upstream sent that the client's buffer had no room for yet.
    private var leftover: [UInt8] = []
    private var leftoverStart = 0

    init(
        proxy: RecordingProxy, route: ProxyRoute, exchange: ProxyExchange?, clientSocket: Int32,
        stripsUsageChunk: Bool = false
    ) {
        self.proxy = proxy
        self.stripsUsageChunk = stripsUsageChunk
        self.route = route
        self.exchange = exchange
        self.clientSocket = clientSocket
    }

    /// Waits for `transfer`'s head and queues the client's response: true when one was queued.
    func forward(_ transfer: UpstreamTransfer, to connection: OpaquePointer) -> Bool {
        self.transfer = transfer
        if let exchange {
            let upstream = URLComponents(string: transfer.url)
            transfer.onHead = { head in
                exchange.headArrived(head, serverAddress: upstream?.host, serverPort: upstream?.port.map(Int64.init))
            }
            transfer.clock = exchange.tracer.clock
            transfer.onBody = { exchange.bodyArrived($0, at: $1) }
        }
        let head: UpstreamTransfer.Head
        switch transfer.awaitHead(clientSocket: clientSocket, stopping: { proxy.isStopping }) {
        case .success(let arrived):
            head = arrived
        case .failure(.upstream(let reason)):
            exchange?.end(.failed(.upstreamUnreachable(reason)))
            self.transfer = nil
            return proxy.respondBadGateway(connection, route: route, reason: reason)
        case .failure(.clientGone):
            exchange?.end(.failed(clientGone))
            self.transfer = nil
            return false
        case .failure(.stopping):
            exchange?.end(.failed(.proxyStopped))
            self.transfer = nil
            return proxy.respondBadGateway(connection, route: route, reason: "the proxy is stopping")
        }

        let contentType = head.headers.last { $0.name.lowercased() == "content-type" }?.value ?? ""
        if stripsUsageChunk, (200..<300).contains(head.status), contentType.lowercased().hasPrefix("text/event-stream") {
            usageFilter = UsageChunkFilter()
        }
        let read: cmhd_body_reader = { context, buffer, capacity in
            Unmanaged<ProxyConnection>.fromOpaque(context!).takeUnretainedValue().read(into: buffer!, capacity: capacity)
        }
        let release: cmhd_body_release = { context in
            Unmanaged<ProxyConnection>.fromOpaque(context!).release()
        }
        let context = Unmanaged.passRetained(self).toOpaque()
        guard let response = cmhd_response_from_reader(usageFilter == nil ? head.contentLength ?? -1 : -1, read, release, context) else {
            Unmanaged<ProxyConnection>.fromOpaque(context).release()
            exchange?.end(.failed(.upstreamCut("the proxy could not make a response")))
            return false
        }
        for header in head.headers where HeaderPolicy.forwardsResponseHeader(header.name) {
            _ = cmhd_add_header(response, header.name, header.value)
        }
        return cmhd_queue(connection, UInt32(head.status), response) == 1
    }

    /// The next bytes of the body for the client, at most `capacity`, waiting for the upstream.
    private func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        // A filtered piece may come out empty: wait for the next one.
        while leftoverStart == leftover.count {
            // The recording ends in `completed(how:)`, once the client has the whole body: reading
            // the last events and finishing the record add nothing to the client's wait.
            if upstreamEnded { return Int(CMHD_BODY_END) }
            guard let transfer else { return Int(CMHD_BODY_ABORT) }
            switch transfer.nextBytes(clientSocket: clientSocket, stopping: { proxy.isStopping }) {
            case .bytes(let bytes):
                leftover = usageFilter?.pass(bytes) ?? bytes
                leftoverStart = 0
            case .end:
                leftover = usageFilter?.finish() ?? []
                leftoverStart = 0
                upstreamEnded = true
            case .failed(let reason):
                exchange?.end(.failed(proxy.isStopping ? .proxyStopped : .upstreamCut(reason)))
                return Int(CMHD_BODY_ABORT)
            case .clientGone:
                exchange?.end(.failed(clientGone))
                return Int(CMHD_BODY_ABORT)
            }
        }
        let count = min(capacity, leftover.count - leftoverStart)
        leftover.withUnsafeBytes { bytes in
            UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + leftoverStart, byteCount: count)
        }
        leftoverStart += count
        return count
    }

    /// A closed client connection: the client's doing, unless the proxy is stopping and closed it.
    private var clientGone: ProxyFailure { proxy.isStopping ? .proxyStopped : .clientDisconnected }

    /// The request ended, as libmicrohttpd tells: the recording ends too if it had not.
    func completed(how: Int32) {
        transfer?.flushBody()
        switch how {
        case Int32(CMHD_ENDED_OK): exchange?.end(.completed)
        case Int32(CMHD_ENDED_CLIENT_GONE): exchange?.end(.failed(clientGone))
        default: exchange?.end(.failed(.proxyStopped))
        }
        transfer = nil
    }
}
