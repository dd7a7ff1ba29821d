import CCurl
import TraceModel

#if canImport(Glibc)
    import Glibc
#endif

/// Sends spans to an OTLP/HTTP endpoint as protobuf (`application/x-protobuf`), the encoding
/// every OTLP back end takes (Phoenix answers OTLP/JSON with 415).
///
/// Spans go in batches of at most ``spansPerBatch``, each a whole `ExportTraceServiceRequest`
/// with the resource of its spans. A batch answered 429, 502, 503 or 504 (OTLP's retryable
/// answers) or not answered at all is sent again after `Retry-After` or an exponential back-off
/// (Phoenix answers 503 while its ingestion queue is full), up to ``attempts`` times; any other
/// answer but 2xx stops the push with one sentence.
///
/// The whole push has a ``deadline``: each attempt's time-out, and each wait before a retry, is cut
/// to the time left, so a back end that stalls or answers 429 forever ends the push in time. A push
/// that stops says how many spans and batches were delivered before it did.
public struct OTLPPush {
    /// What a push sent.
    public struct Summary: Sendable, Equatable {
        public var spans = 0
        public var batches = 0
        public var retries = 0
    }

    /// The URL that receives the batches: `endpoint` as given, with `/v1/traces` appended when it
    /// names no path (OTLP's `OTEL_EXPORTER_OTLP_ENDPOINT` rule).
    public let url: String
    /// `name: value` lines sent with every batch, after the content type.
    let headers: [String]
    var spansPerBatch = 512
    var attempts = 10
    /// The first back-off; each retry doubles it, up to ``longestBackoff``.
    var backoff: Duration = .milliseconds(250)
    var longestBackoff: Duration = .seconds(5)
    /// How long the whole push may take, every attempt and wait included.
    public var deadline: Duration = Self.defaultDeadline
    /// Two minutes: long enough for Phoenix to drain a busy ingestion queue, short enough for a CI step.
    public static let defaultDeadline: Duration = .seconds(120)
    /// The longest one attempt may take, when the deadline leaves more.
    static let attemptTimeout: Duration = .seconds(60)
    static let connectTimeout: Duration = .seconds(5)

    public init(endpoint: String, headers: [(String, String)]) {
        url = Self.tracesURL(endpoint)
        self.headers = headers.map { "\($0.0): \($0.1)" }
    }

    static func tracesURL(_ endpoint: String) -> String {
        guard let scheme = endpoint.range(of: "://") else { return endpoint }
        let rest = endpoint[scheme.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { return endpoint + "/v1/traces" }
        return rest[slash...] == "/" ? endpoint + "v1/traces" : endpoint
    }

    /// The requests a push sends: spans in order, at most ``spansPerBatch`` a request.
    func batches(_ resources: [OTLPResourceSpans]) -> [[OTLPResourceSpans]] {
        var batches: [[OTLPResourceSpans]] = []
        var current: [OTLPResourceSpans] = []
        var count = 0
        for resource in resources {
            var spans = resource.spans[...]
            while !spans.isEmpty {
                let taken = spans.prefix(spansPerBatch - count)
                current.append(OTLPResourceSpans(attributes: resource.attributes, spans: Array(taken)))
                count += taken.count
                spans = spans.dropFirst(taken.count)
                if count == spansPerBatch {
                    batches.append(current)
                    current = []
                    count = 0
                }
            }
        }
        if !current.isEmpty { batches.append(current) }
        return batches
    }

    /// Sends every span of `resources`.
    ///
    /// - Throws: ``ExportError`` naming the endpoint and what it answered.
    public func send(_ resources: [OTLPResourceSpans]) throws(ExportError) -> Summary {
        guard ccurl_global_init() == CURLE_OK else { throw ExportError("libcurl failed to initialise") }
        let clock = ContinuousClock()
        let end = clock.now + deadline
        let batches = batches(resources)
        let total = batches.reduce(0) { $0 + $1.reduce(0) { $0 + $1.spans.count } }
        var summary = Summary()
        /// What stopped the push, and what it had delivered by then.
        func stopped(_ reason: String) -> ExportError {
            ExportError("\(reason); delivered \(summary.spans) of \(total) spans (\(summary.batches) of "
                + "\(batches.count) batches) before it stopped")
        }
        for batch in batches {
            let body = OTLPProtobuf.request(batch)
            var attempt = 1
            while true {
                let left = end - clock.now
                guard left > .zero else {
                    throw stopped("the push to \(url) ran out of its \(Self.deadlineText(deadline)) (--timeout)")
                }
                let answer = post(body, within: left)
                if let status = answer.status, (200..<300).contains(status) { break }
                let retryable = answer.status.map { [429, 502, 503, 504].contains($0) } ?? true
                guard retryable, attempt < attempts else {
                    throw stopped(describe(answer, attempts: attempt))
                }
                let wait = answer.retryAfter.map { Duration.seconds(min($0, 30)) }
                    ?? min(backoff * (1 << min(attempt - 1, 16)), longestBackoff)
                guard clock.now + wait < end else {
                    throw stopped(describe(answer, attempts: attempt) + ", and the \(Self.deadlineText(deadline)) "
                        + "(--timeout) left no time to try again")
                }
                sleep(wait)
                attempt += 1
                summary.retries += 1
            }
            summary.batches += 1
            summary.spans += batch.reduce(0) { $0 + $1.spans.count }
        }
        return summary
    }

    /// `120 s`, `1.5 s`.
    private static func deadlineText(_ duration: Duration) -> String {
        Format.duration(Int64(duration / .nanoseconds(1))) + " deadline"
    }

    /// One POST's outcome: the status (nil when no answer came), `Retry-After` in seconds, the
    /// start of the body, and libcurl's reason when it failed.
    private struct Answer {
        var status: Int?
        var retryAfter: Int?
        var body: [UInt8] = []
        var failure: String?
    }

    /// Collects the first kilobyte of a response's body.
    private final class Receiver {
        var body: [UInt8] = []
    }

    /// One POST, given at most `left` (and at most ``attemptTimeout``) to finish.
    private func post(_ body: [UInt8], within left: Duration) -> Answer {
        guard let easy = curl_easy_init() else { return Answer(failure: "libcurl could not create a handle") }
        defer { curl_easy_cleanup(easy) }
        var list: UnsafeMutablePointer<curl_slist>? = curl_slist_append(nil, "Content-Type: application/x-protobuf")
        for header in headers { list = curl_slist_append(list, header) }
        defer { curl_slist_free_all(list) }
        var errorBuffer = [CChar](repeating: 0, count: ccurl_error_buffer_size())
        let receiver = Receiver()
        let context = Unmanaged.passUnretained(receiver).toOpaque()
        let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { buffer in
            let setUp = body.withUnsafeBufferPointer { bytes in
                bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    ccurl_easy_set_post(easy, url, $0, bytes.count, list, buffer.baseAddress)
                }
            }
            guard setUp == CURLE_OK else { return setUp }
            ccurl_easy_set_receivers(easy, Self.ignoreHeader, Self.onBody, context)
            let milliseconds = { (duration: Duration) in max(1, Int(duration / .milliseconds(1))) }
            ccurl_easy_set_connect_timeout(easy, milliseconds(min(left, Self.connectTimeout)))
            ccurl_easy_set_timeout(easy, milliseconds(min(left, Self.attemptTimeout)))
            return withExtendedLifetime(receiver) { curl_easy_perform(easy) }
        }
        guard code == CURLE_OK else {
            let reason = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return Answer(failure: reason.isEmpty ? String(cString: curl_easy_strerror(code)) : reason)
        }
        return Answer(
            status: ccurl_easy_response_code(easy), retryAfter: Self.retryAfter(easy), body: receiver.body)
    }

    /// The answer's `Retry-After` in seconds (as delay-seconds or an HTTP date), nil without one.
    private static func retryAfter(_ easy: UnsafeMutableRawPointer) -> Int? {
        let seconds = ccurl_easy_retry_after(easy)
        return seconds > 0 ? Int(seconds) : nil
    }

    /// Headers are read after the transfer, through libcurl (`Retry-After`).
    private static let ignoreHeader: curl_write_callback = { _, size, count, _ in size * count }

    private static let onBody: curl_write_callback = { data, size, count, context in
        let length = size * count
        guard let data, let context else { return length }
        let receiver = Unmanaged<Receiver>.fromOpaque(context).takeUnretainedValue()
        let room = max(0, 1024 - receiver.body.count)
        receiver.body += UnsafeRawBufferPointer(start: data, count: min(room, length))
        return length
    }

    private func describe(_ answer: Answer, attempts: Int) -> String {
        let tries = attempts == 1 ? "" : " after \(attempts) attempts"
        guard let status = answer.status else {
            return "cannot push to \(url)\(tries): \(answer.failure ?? "no answer")"
        }
        let text = String(decoding: answer.body, as: UTF8.self)
        let reason = TerminalText.sanitized(String(text.prefix(200)))
        return "\(url) answered HTTP \(status)\(tries)" + (reason.isEmpty ? "" : ": \(reason)")
    }

    private func sleep(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var time = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var left = timespec()
        while nanosleep(&time, &left) != 0 && errno == EINTR { time = left }
    }
}
