import CCurl
import Foundation
import Synchronization

/// One POST whose answer streams, event by event, through an assembler into a stream of
/// ``ModelEvent``s; or, when the answer is not an event stream, becomes one clear error.
///
/// Memory stays bounded whatever the server sends: one event line or event at most
/// ``HTTPEndpoint/maximumEventSize`` bytes, an error body at most
/// ``HTTPEndpoint/maximumErrorBodySize`` (the transfer stops reading there).
///
/// `@unchecked Sendable`: after ``CurlTransport/submit(_:)`` its mutable state is touched by
/// the transport's thread alone (libcurl calls the receivers there); other threads only set
/// and read the atomic `cancelled` flag.
final class EventStreamTransfer: @unchecked Sendable {
    let url: URL
    let timeout: Duration
    /// The whole request's deadline, counted from ``started``.
    let deadline: Duration
    let started = ContinuousClock.now
    /// The libcurl easy handle, owned by the transfer.
    let easy: UnsafeMutableRawPointer
    /// When the last bytes arrived (or the transfer began): the idle timeout counts from here.
    private(set) var lastActivity = ContinuousClock.now

    /// What the answer turned out to be, decided at its first body byte or at its end.
    private enum Answer {
        case events
        case status(Int)
        case otherContent(type: String)
    }

    private let continuation: AsyncThrowingStream<ModelEvent, any Error>.Continuation
    private let headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private let cancelled = Atomic(false)
    private var parser: ServerSentEventParser
    private var assembler: any ModelEventAssembler
    private var answer: Answer?
    /// The beginning of an answer that is not an event stream, for its error message.
    private var captured: [UInt8] = []
    private var capturedAll = true
    /// Why a receiver stopped the transfer.
    private var failure: (any Error)?
    private var sentResponseInfo = false
    private var sentPhases = false

    init(
        endpoint: HTTPEndpoint, path: String, body: Data, assembler: some ModelEventAssembler,
        continuation: AsyncThrowingStream<ModelEvent, any Error>.Continuation
    ) throws(HTTPEndpoint.Error) {
        url = endpoint.url(for: path)
        guard let easy = curl_easy_init() else {
            throw HTTPEndpoint.Error.transport(url: url, description: "libcurl could not create a handle")
        }
        self.easy = easy
        timeout = endpoint.timeout
        deadline = endpoint.deadline
        let framing = type(of: assembler).framing
        parser = ServerSentEventParser(maximumEventSize: endpoint.maximumEventSize, framing: framing)
        self.assembler = assembler
        self.continuation = continuation
        let fields =
            ["Content-Type: application/json", "Accept: \(framing.mediaType)", "Expect:"]
            + endpoint.headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        headerList = fields.reduce(nil) { list, field in curl_slist_append(list, field) }
        errorBuffer = .allocate(capacity: ccurl_error_buffer_size())
        errorBuffer.initialize(to: 0)

        let onHeader: curl_write_callback = { bytes, size, count, context in
            let transfer = Unmanaged<EventStreamTransfer>.fromOpaque(context!).takeUnretainedValue()
            transfer.receiveHeader(UnsafeRawBufferPointer(start: bytes, count: size * count))
            return size * count
        }
        let onBody: curl_write_callback = { bytes, size, count, context in
            let transfer = Unmanaged<EventStreamTransfer>.fromOpaque(context!).takeUnretainedValue()
            return transfer.receiveBody(UnsafeRawBufferPointer(start: bytes, count: size * count))
                ? size * count : 0
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        let timeoutMilliseconds = Int((timeout / .milliseconds(1)).rounded(.up))
        var code = body.withUnsafeBytes { body in
            ccurl_easy_set_post(
                easy, url.absoluteString, body.baseAddress?.assumingMemoryBound(to: CChar.self),
                body.count, headerList, errorBuffer)
        }
        if code == CURLE_OK { code = ccurl_easy_set_receivers(easy, onHeader, onBody, context) }
        if code == CURLE_OK { code = ccurl_easy_set_connect_timeout(easy, timeoutMilliseconds) }
        if code == CURLE_OK, let path = endpoint.caBundlePath { code = ccurl_easy_set_ca_file(easy, path) }
        guard code == CURLE_OK else { throw error(for: code) }
    }

    deinit {
        curl_easy_cleanup(easy)
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    func markCancelled() { cancelled.store(true, ordering: .relaxed) }

    /// Ends the stream with `error`; the transfer is no longer in the transport.
    func finish(throwing error: any Error) {
        yieldResponseInfo()
        continuation.finish(throwing: error)
    }

    /// The transfer ended with `code`: the last events and the end of the stream, or its error.
    func complete(_ code: CURLcode) {
        yieldResponseInfo()
        do {
            for event in try lastEvents(code) { continuation.yield(event) }
            continuation.finish()
        } catch {
            continuation.finish(throwing: error)
        }
    }

    private func lastEvents(_ code: CURLcode) throws -> [ModelEvent] {
        if let failure { throw failure }
        guard let answer = answer ?? decideAnswer() else { throw error(for: code) }
        switch answer {
        case .status(let status):
            // The status is the news even if the connection broke while its body came.
            throw statusError(status)
        case .otherContent(let type):
            throw HTTPEndpoint.Error.unexpectedContentType(
                url: url, contentType: HTTPEndpoint.Error.serverText(type, limit: 200),
                body: HTTPEndpoint.Error.serverText(String(decoding: captured, as: UTF8.self), limit: 300))
        case .events where code == CURLE_OK:
            if parser.hasPendingInput {
                throw HTTPEndpoint.Error.truncatedStream(url: url, reason: "the body ended inside an event")
            }
            return try assembler.finish()
        case .events:
            throw error(for: code)
        }
    }

    /// Sends ``ModelEvent/responseInfo(_:)`` once, if a server answered.
    private func yieldResponseInfo() {
        guard !sentResponseInfo, ccurl_easy_response_code(easy) != 0 else { return }
        sentResponseInfo = true
        let address = ccurl_easy_primary_ip(easy).map { String(cString: $0) } ?? ""
        let port = ccurl_easy_primary_port(easy)
        let info = ResponseInfo(
            id: assembler.responseID.map { HTTPEndpoint.Error.serverText($0, limit: 200) },
            model: assembler.responseModel.map { HTTPEndpoint.Error.serverText($0, limit: 200) },
            serverAddress: address.isEmpty ? nil : address, serverPort: port > 0 ? port : nil, streamed: true)
        continuation.yield(.responseInfo(info))
    }

    /// The error for a transfer that libcurl ended with `code`.
    func error(for code: CURLcode) -> HTTPEndpoint.Error {
        let detail =
            errorBuffer.pointee != 0
            ? String(cString: errorBuffer) : String(cString: curl_easy_strerror(code))
        switch code {
        case CURLE_COULDNT_CONNECT: return .connectionRefused(url: url)
        case CURLE_OPERATION_TIMEDOUT: return .timedOut(url: url, after: timeout)
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_SEND_ERROR:
            return .truncatedStream(url: url, reason: "the connection was lost (\(detail))")
        default: return .transport(url: url, description: detail)
        }
    }

    private func receiveHeader(_ bytes: UnsafeRawBufferPointer) {
        lastActivity = .now
        if !sentPhases {
            sentPhases = true
            continuation.yield(.connectionPhases(phases()))
        }
    }

    /// The exchange's phases so far, read at its first response byte.
    private func phases() -> ConnectionPhases {
        var microseconds = [Int64](repeating: 0, count: 5)
        microseconds.withUnsafeMutableBufferPointer { ccurl_easy_phases(easy, $0.baseAddress) }
        // libcurl leaves a phase it skipped at 0: a reused connection has no lookup or connect.
        var last: Int64 = 0
        let phase = microseconds.map { value -> Duration in
            last = max(last, value)
            return .microseconds(last)
        }
        return ConnectionPhases(
            nameResolved: phase[0], connected: phase[1], tlsDone: microseconds[2] > 0 ? phase[2] : nil,
            requestSent: phase[3], firstByte: phase[4])
    }

    /// Takes one chunk of the body; false stops the transfer (`failure` or `captured` says why).
    private func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        lastActivity = .now
        guard case .events? = answer ?? decideAnswer() else {
            let room = HTTPEndpoint.maximumErrorBodySize - captured.count
            captured.append(contentsOf: bytes.prefix(room))
            capturedAll = bytes.count <= room
            return capturedAll
        }
        do {
            for event in try parser.consume(bytes) {
                for modelEvent in try assembler.consume(event) { continuation.yield(modelEvent) }
            }
            return true
        } catch is ServerSentEventParser.TooLarge {
            failure = HTTPEndpoint.Error.eventTooLarge(url: url, limit: parser.maximumEventSize)
        } catch {
            failure = error
        }
        return false
    }

    /// What the answer is, once its head has arrived; nil before.
    private func decideAnswer() -> Answer? {
        let status = ccurl_easy_response_code(easy)
        let decided: Answer
        if status == 0 {
            return nil
        } else if !(200..<300).contains(status) {
            decided = .status(status)
        } else {
            let type = ccurl_easy_content_type(easy).map { String(cString: $0) } ?? ""
            decided =
                type.lowercased().hasPrefix(parser.framing.mediaType) ? .events : .otherContent(type: type)
        }
        answer = decided
        return decided
    }

    private func statusError(_ status: Int) -> HTTPEndpoint.Error {
        var message = HTTPEndpoint.Error.message(fromBody: captured)
        if !capturedAll { message += " [body cut at \(HTTPEndpoint.maximumErrorBodySize) bytes]" }
        if status == 429 {
            let seconds = ccurl_easy_retry_after(easy)
            return .rateLimited(url: url, retryAfter: seconds > 0 ? .seconds(seconds) : nil, message: message)
        }
        return .httpStatus(url: url, status: status, message: message)
    }
}
