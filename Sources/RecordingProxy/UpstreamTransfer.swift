import CCurl
import CMicroHTTPD
import Foundation
import SessionTrace

/// One request forwarded to the upstream over libcurl, driven by the connection thread that
/// waits for it: the head first (``awaitHead(clientSocket:)``), then the body piece by piece
/// (``nextBytes(clientSocket:)``), each piece as it arrives.
///
/// Memory is bounded: the transfer holds at most the bytes of one `curl_multi_perform` beyond
/// what the client has taken, and pauses the upstream above ``maximumPending``.
///
/// `@unchecked Sendable`: it is made, driven and released by one connection's thread; libcurl
/// calls its receivers on that thread, inside `curl_multi_perform`.
final class UpstreamTransfer: @unchecked Sendable {
    /// What the upstream answered before its body.
    struct Head {
        var status: Int
        /// Header lines in the order they came, names as the upstream spelled them.
        var headers: [(name: String, value: String)]
        /// The body's length as announced, or nil.
        var contentLength: Int64?
    }

    /// What waiting for the upstream gave.
    enum Progress {
        case bytes([UInt8])
        /// The body is complete.
        case end
        /// The transfer failed (connection refused, reset, timed out): curl's description.
        case failed(String)
        /// The client closed its connection while the proxy waited.
        case clientGone
    }

    /// Bytes held for the client before the upstream is paused.
    static let maximumPending = 1 << 20

    let url: String
    private let handles: UpstreamHandlePool.Handles
    /// The body of ``Body/owned``, where libcurl reads it until the transfer ends.
    private let ownedBody: UnsafeMutableRawBufferPointer?
    private var easy: UnsafeMutableRawPointer { handles.easy }
    private var multi: UnsafeMutableRawPointer { handles.multi }
    private let headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var status = 0
    private var headers: [(name: String, value: String)] = []
    private var headComplete = false
    private var pending: [UInt8] = []
    private var paused = false
    private var result: CURLcode?
    /// Whether the client socket had bytes to read that were not a close: it is not polled again.
    private var clientSocketBusy = false
    /// Sees the head as soon as it is complete, before any byte of the body.
    var onHead: ((Head) -> Void)?
    /// Sees every body byte, in order, with the time on ``clock`` when the piece had arrived whole:
    /// each piece just after the client was handed it (at the next
    /// ``nextBytes(clientSocket:stopping:)``), so that reading it adds nothing to the client's wait;
    /// the rest at ``flushBody()``. The time is the arrival's, not the tap's, which can come one
    /// upstream write later.
    var onBody: ((UnsafeRawBufferPointer, _ arrived: Int64) -> Void)?
    /// The clock the arrival of body pieces is read from: the recording tracer's.
    var clock: any TraceClock = MonotonicClock()
    /// When the last byte of ``pending`` arrived.
    private var pendingArrived: Int64 = 0
    /// The piece last handed to the client, not yet shown to ``onBody``, and when it arrived.
    private var untapped: [UInt8] = []
    private var untappedArrived: Int64 = 0

    /// A request body, which libcurl reads where it lies, without a copy.
    enum Body {
        /// Memory that outlives the transfer: libmicrohttpd's buffer of the client's body, freed
        /// when the request ends, after its transfer.
        case borrowed(UnsafeRawBufferPointer)
        /// Bytes the transfer keeps until it ends: a body the proxy rewrote.
        case owned([UInt8])
    }

    /// Prepares the request; nil when libcurl cannot make a handle or take an option.
    init?(url: String, method: String, headers requestHeaders: [String], body: Body, caFile: String?) {
        guard let handles = UpstreamHandlePool.shared.take() else { return nil }
        self.url = url
        self.handles = handles
        let sent: UnsafeRawBufferPointer
        switch body {
        case .borrowed(let bytes):
            ownedBody = nil
            sent = bytes
        case .owned(let bytes):
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
            bytes.withUnsafeBytes { copy.copyMemory(from: $0) }
            ownedBody = copy
            sent = UnsafeRawBufferPointer(copy)
        }
        // "Expect:" stops libcurl waiting for 100-continue on a large body.
        headerList = (requestHeaders + ["Expect:"]).reduce(nil) { list, field in curl_slist_append(list, field) }
        errorBuffer = .allocate(capacity: ccurl_error_buffer_size())
        errorBuffer.initialize(to: 0)

        let onHeader: curl_write_callback = { bytes, size, count, context in
            let transfer = Unmanaged<UpstreamTransfer>.fromOpaque(context!).takeUnretainedValue()
            transfer.receiveHeader(UnsafeRawBufferPointer(start: bytes, count: size * count))
            return size * count
        }
        let onBody: curl_write_callback = { bytes, size, count, context in
            let transfer = Unmanaged<UpstreamTransfer>.fromOpaque(context!).takeUnretainedValue()
            return transfer.receiveBody(UnsafeRawBufferPointer(start: bytes, count: size * count))
                ? size * count : ccurl_write_pause()
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        var code = ccurl_easy_set_request(
            easy, url, method, sent.baseAddress?.assumingMemoryBound(to: CChar.self), sent.count, headerList,
            errorBuffer)
        if code == CURLE_OK { code = ccurl_easy_set_receivers(easy, onHeader, onBody, context) }
        if code == CURLE_OK { code = ccurl_easy_set_connect_timeout(easy, 10_000) }
        if code == CURLE_OK, let caFile { code = ccurl_easy_set_ca_file(easy, caFile) }
        guard code == CURLE_OK, curl_multi_add_handle(multi, easy) == CURLM_OK else { return nil }
    }

    deinit {
        UpstreamHandlePool.shared.giveBack(handles)
        ownedBody?.deallocate()
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    /// Drives the transfer until the upstream's head has arrived: the head, or why none came.
    func awaitHead(clientSocket: Int32, stopping: () -> Bool) -> Result<Head, HeadFailure> {
        while !headComplete {
            if let result {
                return .failure(.upstream(result == CURLE_OK ? "the upstream sent no answer" : describe(result)))
            }
            if stopping() { return .failure(.stopping) }
            if step(clientSocket: clientSocket) { return .failure(.clientGone) }
        }
        return .success(head)
    }

    private var head: Head {
        let length = ccurl_easy_content_length(easy)
        return Head(status: status, headers: headers, contentLength: length >= 0 ? length : nil)
    }

    /// The head is complete: told once, before the body.
    private func completeHead() {
        guard !headComplete else { return }
        headComplete = true
        onHead?(head)
    }

    /// Why no head came.
    enum HeadFailure: Error {
        case upstream(String)
        case clientGone
        case stopping
    }

    /// Waits for the next bytes of the body, its end, or a failure.
    func nextBytes(clientSocket: Int32, stopping: () -> Bool) -> Progress {
        flushBody()
        while true {
            if !pending.isEmpty {
                defer {
                    swap(&pending, &untapped)
                    untappedArrived = pendingArrived
                    pending.removeAll(keepingCapacity: true)
                    if paused {
                        paused = false
                        ccurl_easy_resume(easy)
                    }
                }
                return .bytes(pending)
            }
            if let result { return result == CURLE_OK ? .end : .failed(describe(result)) }
            if stopping() { return .failed("the proxy is stopping") }
            if step(clientSocket: clientSocket) { return .clientGone }
        }
    }

    /// Shows ``onBody`` what the client was handed and it has not seen yet.
    func flushBody() {
        guard !untapped.isEmpty else { return }
        untapped.withUnsafeBytes { onBody?($0, untappedArrived) }
        untapped.removeAll(keepingCapacity: true)
    }

    /// One round of libcurl's work, then a wait when it produced nothing: true when the client
    /// closed its connection meanwhile.
    private func step(clientSocket: Int32) -> Bool {
        let headBefore = headComplete
        var running: Int32 = 0
        curl_multi_perform(multi, &running)
        var done: UnsafeMutableRawPointer?
        var code = CURLE_OK
        while ccurl_multi_next_done(multi, &done, &code) == 1 { result = code }
        if !pending.isEmpty || result != nil || headComplete != headBefore { return false }
        let socket = clientSocketBusy ? -1 : clientSocket
        // 100 ms bounds how late a stop is noticed; upstream data or a client hang-up ends the wait at once.
        if ccurl_multi_poll_with(multi, socket, 100) == 1 {
            if cmhd_client_closed(socket) != 0 { return true }
            clientSocketBusy = true
        }
        return false
    }

    private func receiveHeader(_ bytes: UnsafeRawBufferPointer) {
        let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            // A new head (after a 100 Continue, say) replaces the last.
            let parts = line.split(separator: " ", maxSplits: 2)
            status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            headers = []
        } else if line.isEmpty {
            if status >= 200 { completeHead() }
        } else if let colon = line.firstIndex(of: ":") {
            headers.append((
                String(line[..<colon]),
                String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            ))
        }
    }

    /// Takes one piece of the body; false pauses the upstream (the piece comes again on resume).
    private func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if pending.count + bytes.count > Self.maximumPending, !pending.isEmpty {
            paused = true
            return false
        }
        completeHead()
        pending.append(contentsOf: bytes)
        pendingArrived = clock.now()
        return true
    }

    private func describe(_ code: CURLcode) -> String {
        errorBuffer.pointee != 0 ? String(cString: errorBuffer) : String(cString: curl_easy_strerror(code))
    }
}
