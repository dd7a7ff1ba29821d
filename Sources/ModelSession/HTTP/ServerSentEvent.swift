/// One server-sent event: an optional `event:` name and its joined `data:` lines.
package struct ServerSentEvent: Sendable, Hashable {
    package var event: String?
    package var data: String

    package init(event: String? = nil, data: String) {
        self.event = event
        self.data = data
    }
}

/// How a streamed answer is cut into events.
package enum StreamFraming: Sendable {
    /// `text/event-stream`: server-sent events (OpenAI, Anthropic, llama.cpp, vLLM).
    case serverSentEvents
    /// `application/x-ndjson`: one JSON object a line (Ollama's native API).
    case jsonLines

    /// The media type a server sends such a stream as, and a client accepts.
    package var mediaType: String {
        switch self {
        case .serverSentEvents: "text/event-stream"
        case .jsonLines: "application/x-ndjson"
        }
    }
}
