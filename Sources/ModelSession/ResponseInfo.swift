/// Facts about the response that answered a request, under their OpenTelemetry `gen_ai` names;
/// nil where the backend could not tell.
public struct ResponseInfo: Sendable, Hashable, Codable {
    /// `gen_ai.response.id`: the server's id of this response.
    public var id: String?
    /// `gen_ai.response.model`: the model that answered, which may differ from the one asked for.
    public var model: String?
    /// `server.address`: the address the request went to (an IP address once connected).
    public var serverAddress: String?
    /// `server.port`.
    public var serverPort: Int?
    /// `gen_ai.request.stream`: whether the response came as a stream of events.
    public var streamed: Bool

    public init(
        id: String? = nil, model: String? = nil, serverAddress: String? = nil, serverPort: Int? = nil,
        streamed: Bool
    ) {
        self.id = id
        self.model = model
        self.serverAddress = serverAddress
        self.serverPort = serverPort
        self.streamed = streamed
    }
}
