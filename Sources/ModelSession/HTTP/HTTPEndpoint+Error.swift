import Foundation

extension HTTPEndpoint {
    /// What went wrong talking to a model server, and at which URL.
    public enum Error: Swift.Error, Sendable, Hashable, CustomStringConvertible {
        /// Nothing listens there (or the host refused the connection).
        case connectionRefused(url: URL)
        /// No bytes arrived for `after`.
        case timedOut(url: URL, after: Duration)
        /// The server answered 4xx or 5xx; `message` is the body's error message, or the body.
        case httpStatus(url: URL, status: Int, message: String)
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
            case .connectionRefused(let url), .timedOut(let url, _), .httpStatus(let url, _, _),
                .serverError(let url, _), .malformedStream(let url, _, _), .truncatedStream(let url, _),
                .transport(let url, _):
                return url
            }
        }

        public var description: String {
            switch self {
            case .connectionRefused(let url): return "connection refused by \(url)"
            case .timedOut(let url, let after): return "no answer from \(url) within \(after)"
            case .httpStatus(let url, let status, let message):
                return "HTTP \(status) from \(url): \(message)"
            case .serverError(let url, let message): return "error in the stream from \(url): \(message)"
            case .malformedStream(let url, let reason, let data):
                return "malformed stream from \(url): \(reason); data: \(data)"
            case .truncatedStream(let url, let reason): return "stream from \(url) ended early: \(reason)"
            case .transport(let url, let description): return "request to \(url) failed: \(description)"
            }
        }

        /// The `message` of a JSON error body (`{"error": {"message": ...}}` or
        /// `{"error": "...", "message": ...}`), else the body text itself.
        static func message(fromBody body: Data) -> String {
            if let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] {
                if let error = object["error"] as? [String: Any], let message = error["message"] as? String {
                    return message
                }
                if let message = object["message"] as? String { return message }
                if let error = object["error"] as? String { return error }
            }
            let text = String(decoding: body.prefix(2000), as: UTF8.self)
            return text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }
}
