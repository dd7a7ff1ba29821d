import Foundation
import Reproducible

/// A model behind Ollama's native chat API (`/api/chat`), streamed as JSON Lines.
///
/// ```swift
/// let model = OllamaModel(baseURL: URL(string: "http://127.0.0.1:11434")!, modelName: "llama3.2")
/// ```
///
/// Unlike Ollama's OpenAI-compatible endpoint, the native one reports the server's own durations:
/// the prompt's evaluation and the generation (``ServerTimingsReport``), and the model's load as
/// the wait before the prompt (``ServerTimingsReport/queueMilliseconds``). Ollama reports no
/// cached prompt tokens and has no `tool_choice`: a request that allows no tool sends none.
public struct OllamaModel: LanguageModel {
    /// `gen_ai.provider.name`: `"ollama"` unless given.
    public let provider: String
    /// The model as Ollama names it, `llama3.2` say.
    public let modelName: String
    /// The server: its base URL (`http://127.0.0.1:11434`), headers and timeouts.
    public let endpoint: HTTPEndpoint

    /// The server at `baseURL`, without `/api`.
    public init(baseURL: URL, modelName: String, provider: String = "ollama", timeout: Duration = .seconds(60)) {
        self.init(endpoint: HTTPEndpoint(baseURL: baseURL, timeout: timeout), modelName: modelName, provider: provider)
    }

    /// The server at `endpoint`, whose base URL is without `/api`.
    public init(endpoint: HTTPEndpoint, modelName: String, provider: String = "ollama") {
        self.endpoint = endpoint
        self.modelName = modelName
        self.provider = provider
    }

    /// Posts the request to `/api/chat` and streams its lines' events.
    public func stream(_ request: ModelRequest) -> AsyncThrowingStream<ModelEvent, any Error> {
        let body = Data(requestBody(for: request).compact().utf8)
        return EventStreamClient(endpoint: endpoint).modelEvents(
            path: "api/chat", body: body, assembler: OllamaStreamAssembler(url: endpoint.url(for: "api/chat")))
    }

    /// The `/api/chat` body, in a stable member order as the other backends write theirs.
    func requestBody(for request: ModelRequest) -> OrderedJSON {
        var messages: [OrderedJSON] = []
        if let system = request.instructions, !system.isEmpty {
            messages.append(.object([("role", .string("system")), ("content", .string(system))]))
        }
        messages += request.entries.map(Self.message)
        var body: [(String, OrderedJSON)] = [
            ("model", .string(modelName)), ("messages", .array(messages)), ("stream", .bool(true)),
        ]
        if !request.tools.isEmpty, request.effectiveToolChoice != ToolChoice.none {
            body.append(("tools", .array(request.tools.map(OpenAICompatibleModel.nativeTool))))
        }
        var options: [(String, OrderedJSON)] = []
        if let temperature = request.options.temperature { options.append(("temperature", .double(temperature))) }
        if let tokens = request.options.maximumResponseTokens { options.append(("num_predict", .int(tokens))) }
        if !options.isEmpty { body.append(("options", .object(options))) }
        return .object(body)
    }

    /// A transcript entry as Ollama reads it: prompts and answers as OpenAI writes them, tool calls
    /// with their arguments as an object and no id, tool outputs with their tool's name.
    static func message(for entry: Transcript.Entry) -> OrderedJSON {
        switch entry {
        case .prompt, .response:
            return OpenAICompatibleModel.nativeMessage(for: entry)
        case .toolCalls(let calls):
            let toolCalls = calls.map { call in
                OrderedJSON.object([
                    (
                        "function",
                        .object([
                            ("name", .string(call.name)),
                            ("arguments", .rawIfValid(call.arguments, fallback: .object([]))),
                        ])
                    )
                ])
            }
            return .object([("role", .string("assistant")), ("content", .string("")), ("tool_calls", .array(toolCalls))])
        case .toolOutput(let output):
            return .object([
                ("role", .string("tool")), ("content", .string(output.content)), ("tool_name", .string(output.toolName)),
            ])
        }
    }
}
