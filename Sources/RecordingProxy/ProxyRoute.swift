/// What the proxy does with a request, chosen by its method and path.
enum ProxyRoute: Equatable {
    /// `POST …/chat/completions`: recorded as an OpenAI chat completion.
    case chatCompletions
    /// `POST …/completions` (not `…/chat/completions`): recorded as an OpenAI (legacy) completion of
    /// one prompt, the API that code-completion clients and older SDKs call.
    case completions
    /// `POST …/completion`: recorded as a llama.cpp native completion of one prompt.
    case llamaCompletion
    /// `POST …/messages`: recorded as an Anthropic Messages request.
    case anthropicMessages
    /// `POST …/responses`: recorded as an OpenAI Responses API request.
    case responses
    /// `POST …/api/chat`: recorded as an Ollama native chat request.
    case ollamaChat
    /// `POST …/api/generate`: recorded as an Ollama native completion of one prompt.
    case ollamaGenerate
    /// Everything else (models, embeddings, a stored response's `GET`, …): forwarded, not recorded.
    case passthrough

    init(method: String, path: String) {
        let path = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        guard method == "POST" else {
            self = .passthrough
            return
        }
        if trimmed.hasSuffix("/chat/completions") {
            self = .chatCompletions
        } else if trimmed.hasSuffix("/completions") {
            self = .completions
        } else if trimmed.hasSuffix("/completion") {
            self = .llamaCompletion
        } else if trimmed.hasSuffix("/messages") {
            self = .anthropicMessages
        } else if trimmed.hasSuffix("/responses") {
            self = .responses
        } else if trimmed.hasSuffix("/api/chat") {
            self = .ollamaChat
        } else if trimmed.hasSuffix("/api/generate") {
            self = .ollamaGenerate
        } else {
            self = .passthrough
        }
    }

    /// Whether the proxy records the request as a model request.
    var isRecorded: Bool { self != .passthrough }

    /// `gen_ai.provider.name` of the API the route speaks.
    var provider: String {
        switch self {
        case .chatCompletions, .completions, .responses: "openai"
        case .anthropicMessages: "anthropic"
        case .ollamaChat, .ollamaGenerate: "ollama"
        case .llamaCompletion: "llama.cpp"
        case .passthrough: ""
        }
    }
}

/// Which headers cross the proxy, and which of the upstream's the proxy records.
enum HeaderPolicy {
    /// Hop-by-hop headers (RFC 9110 §7.6.1) and those the two HTTP stacks set themselves.
    private static let neverForwarded: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "proxy-authorization", "proxy-authenticate", "te",
        "trailer", "transfer-encoding", "upgrade", "host", "content-length", "expect",
    ]

    /// Whether a client's request header goes on to the upstream. `Accept-Encoding` is dropped on
    /// recorded routes, so the answer comes uncompressed and the proxy can read what it forwards.
    static func forwardsRequestHeader(_ name: String, route: ProxyRoute) -> Bool {
        let name = name.lowercased()
        if neverForwarded.contains(name) { return false }
        return !(route.isRecorded && name == "accept-encoding")
    }

    /// Whether an upstream response header goes back to the client; libmicrohttpd sets the
    /// framing headers and `Date` itself.
    static func forwardsResponseHeader(_ name: String) -> Bool {
        let name = name.lowercased()
        return !neverForwarded.contains(name) && name != "date"
    }

    /// Whether an upstream response header is recorded with the request: its request id, its
    /// rate limits and its processing time. Credentials are request headers and never recorded.
    static func recordsResponseHeader(_ name: String) -> Bool {
        let name = name.lowercased()
        return name == "x-request-id" || name == "request-id" || name == "openai-processing-ms"
            || name == "retry-after" || name.hasPrefix("x-ratelimit-") || name.hasPrefix("anthropic-ratelimit-")
            || name == "server-timing"
    }
}
