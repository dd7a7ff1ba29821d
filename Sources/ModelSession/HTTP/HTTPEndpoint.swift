import Foundation

/// Where an HTTP backend sends its requests, how long it waits, and how much it accepts.
public struct HTTPEndpoint: Sendable, Hashable {
    /// The server, e.g. `http://127.0.0.1:8080` or `https://api.openai.com/v1`.
    public var baseURL: URL
    public var headers: [String: String]
    /// How long the backend waits for the next bytes (to connect, for the first token, between
    /// chunks) before ``Error/timedOut(url:after:)``. It is an idle timeout: a long generation
    /// that keeps sending does not time out.
    public var timeout: Duration
    /// The longest one whole request may take, however steadily bytes arrive: a server that sends a
    /// keep-alive comment every second never trips ``timeout``, and is ended here with
    /// ``Error/deadlineExceeded(url:after:)``. Ten minutes by default: far beyond a model's longest
    /// answer at any sane rate, short enough that a stuck server cannot hold an agent for good.
    public var deadline: Duration
    /// A PEM file of the certificate authorities to trust for `https` instead of the system's,
    /// e.g. the CA of a server with a self-signed certificate.
    public var caBundlePath: String?
    /// The longest server-sent event line, and the most data one event may carry, in bytes;
    /// a longer one ends the request with ``Error/eventTooLarge(url:limit:)``.
    public var maximumEventSize: Int

    /// How much of an error answer's body is kept for its message; the rest is not read.
    static let maximumErrorBodySize = 64 * 1024

    public init(
        baseURL: URL, headers: [String: String] = [:], timeout: Duration = .seconds(60),
        deadline: Duration = .seconds(600), caBundlePath: String? = nil, maximumEventSize: Int = 1024 * 1024
    ) {
        self.baseURL = baseURL
        self.headers = headers
        self.timeout = timeout
        self.deadline = deadline
        self.caBundlePath = caBundlePath
        self.maximumEventSize = maximumEventSize
    }

    /// `path` under the API root: `v1/` is added unless the base URL already ends in `/v1`.
    public func url(for path: String) -> URL {
        let root =
            baseURL.path.hasSuffix("/v1") || baseURL.path.hasSuffix("/v1/")
            ? baseURL : baseURL.appendingPathComponent("v1")
        return root.appendingPathComponent(path)
    }
}
