import Foundation

extension HTTPEndpoint {
    /// What went wrong talking to a model server, and at which URL.
    ///
    /// Text that came from the server (messages, bodies, event data) is shortened and carries no
    /// control characters: see ``serverText(_:limit:)``.
    public enum Error: Swift.Error, Sendable, Hashable, CustomStringConvertible {
        /// Nothing listens there (or the host refused the connection).
        case connectionRefused(url: URL)
        /// No bytes arrived for `after`.
        case timedOut(url: URL, after: Duration)
        /// The answer had not ended `after` the request began (``HTTPEndpoint/deadline``).
        case deadlineExceeded(url: URL, after: Duration)
        /// The server answered 4xx or 5xx; `message` is the body's error message, or the body.
        case httpStatus(url: URL, status: Int, message: String)
        /// The server answered 429 Too Many Requests; `retryAfter` is its `Retry-After` header,
        /// as a delay from the answer, when it sent one.
        case rateLimited(url: URL, retryAfter: Duration?, message: String)
        /// A 2xx answer that is not `text/event-stream` (an HTML page from a proxy, say);
        /// `body` is its beginning.
        case unexpectedContentType(url: URL, contentType: String, body: String)
        /// A server-sent event line, or one event's data, is longer than `limit` bytes.
        case eventTooLarge(url: URL, limit: Int)
        /// The stream carried an error object after a 200 status.
        case serverError(url: URL, message: String)
        /// An event did not parse; `data` is the offending payload (shortened).
        case malformedStream(url: URL, reason: String, data: String)
        /// The stream ended (or the connection dropped) before its final event.
        case truncatedStream(url: URL, reason: String)
        /// Any other transport failure.
        case transport(url: URL, description: String)

        public var url: URL {
            switch self {
            case .connectionRefused(let url), .timedOut(let url, _), .deadlineExceeded(let url, _),
                .httpStatus(let url, _, _),
                .rateLimited(let url, _, _), .unexpectedContentType(let url, _, _),
                .eventTooLarge(let url, _),
                .serverError(let url, _), .malformedStream(let url, _, _), .truncatedStream(let url, _),
                .transport(let url, _):
                return url
            }
        }

        public var description: String {
            switch self {
            case .connectionRefused(let url): return "connection refused by \(url)"
            case .timedOut(let url, let after): return "no answer from \(url) within \(after)"
            case .deadlineExceeded(let url, let after):
                return "the answer from \(url) had not ended after \(after), the request's deadline"
            case .httpStatus(let url, let status, let message):
                return "HTTP \(status) from \(url): \(message)"
            case .rateLimited(let url, let retryAfter, let message):
                let wait = retryAfter.map { "retry after \($0)" } ?? "no Retry-After"
                return "HTTP 429 (rate limited, \(wait)) from \(url): \(message)"
            case .unexpectedContentType(let url, let contentType, let body):
                let type = contentType.isEmpty ? "no content type" : contentType
                return "expected text/event-stream from \(url), got \(type): \(body)"
            case .eventTooLarge(let url, let limit):
                return "an event from \(url) is larger than the limit of \(limit) bytes"
            case .serverError(let url, let message): return "error in the stream from \(url): \(message)"
            case .malformedStream(let url, let reason, let data):
                return "malformed stream from \(url): \(reason); data: \(data)"
            case .truncatedStream(let url, let reason): return "stream from \(url) ended early: \(reason)"
            case .transport(let url, let description): return "request to \(url) failed: \(description)"
            }
        }

        /// The `message` of a JSON error body (`{"error": {"message": ...}}` or
        /// `{"error": "...", "message": ...}`), else the body text itself; as ``serverText(_:limit:)``.
        package static func message(fromBody body: some Collection<UInt8>) -> String {
            if let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] {
                if let error = object["error"] as? [String: Any], let message = error["message"] as? String {
                    return serverText(message)
                }
                if let message = object["message"] as? String { return serverText(message) }
                if let error = object["error"] as? String { return serverText(error) }
            }
            return serverText(String(decoding: body, as: UTF8.self))
        }

        /// Server text made safe to store and print: at most `limit` characters, control
        /// characters shown as their Unicode pictures (ESC as `␛`), line breaks and tabs as
        /// one space, and bidirectional overrides replaced, so that an escape sequence or a
        /// reordering mark in a server's answer cannot act on a terminal or a report.
        static func serverText(_ text: some StringProtocol, limit: Int = 2000) -> String {
            var result = String.UnicodeScalarView()
            var pendingSpace = false
            var count = 0
            for scalar in text.unicodeScalars {
                if count >= limit {
                    result.append("…")
                    break
                }
                let shown: Unicode.Scalar
                switch scalar.value {
                case 0x09, 0x0A, 0x0D, 0x20:
                    pendingSpace = !result.isEmpty
                    continue
                case 0x00..<0x20: shown = Unicode.Scalar(0x2400 + scalar.value)!
                case 0x7F: shown = "\u{2421}"
                case 0x80..<0xA0, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: shown = "\u{FFFD}"
                default: shown = scalar
                }
                if pendingSpace { result.append(" ") }
                pendingSpace = false
                result.append(shown)
                count += 1
            }
            return String(result)
        }
    }
}
