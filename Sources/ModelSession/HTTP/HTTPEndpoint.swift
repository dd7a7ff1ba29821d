import Foundation

/// Where an HTTP backend sends its requests, and how long it waits.
public struct HTTPEndpoint: Sendable, Hashable {
    /// The server, e.g. `http://127.0.0.1:8080` or `https://api.openai.com/v1`.
    public var baseURL: URL
    public var headers: [String: String]
    /// How long the backend waits for the next bytes (to connect, for the first token, between
    /// chunks) before ``Error/timedOut(url:after:)``; whole seconds, rounded up, at least one.
    public var timeout: Duration

    public init(baseURL: URL, headers: [String: String] = [:], timeout: Duration = .seconds(60)) {
        self.baseURL = baseURL
        self.headers = headers
        self.timeout = timeout
    }

    /// `path` under the API root: `v1/` is added unless the base URL already ends in `/v1`.
    public func url(for path: String) -> URL {
        let root =
            baseURL.path.hasSuffix("/v1") || baseURL.path.hasSuffix("/v1/")
            ? baseURL : baseURL.appendingPathComponent("v1")
        return root.appendingPathComponent(path)
    }
}
