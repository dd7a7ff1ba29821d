import Foundation
import ModelSession

/// What the proxy reads from a model request's JSON body: the model, whether it streams, the
/// session the client named, and the conversation as a ``ModelRequest`` (instructions, entries,
/// tools), so that prefix reuse, turns and handoffs are judged as the middleware judges them.
struct ObservedRequest {
    var model: String
    var streams: Bool
    /// The session the client named: `X-Session-Id`, else the API's `user` or `metadata` field.
    var sessionName: String?
    /// The conversation; its options hold the request's output cap and temperature.
    var request: ModelRequest
    /// Calls whose result the client marked as a failure (Anthropic's `tool_result` `is_error`).
    var failedToolCallIDs: Set<String> = []
    /// The stored response this request continues (the Responses API's `previous_response_id`):
    /// its entries are only what is new, the rest of its history being on the server.
    var continuedResponseID: String?

    /// Reads an OpenAI chat completions body; nil when it is not a JSON object with messages.
    static func openAIChat(_ body: Data, sessionHeader: String?) -> ObservedRequest? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              let messages = object["messages"] as? [[String: Any]]
        else { return nil }
        var instructions: [String] = []
        var entries: [Transcript.Entry] = []
        var toolNames: [String: String] = [:]
        for message in messages {
            let role = message["role"] as? String ?? ""
            let text = Self.text(of: message["content"])
            switch role {
            case "system", "developer":
                instructions.append(text)
            case "assistant":
                if !text.isEmpty { entries.append(.response(text)) }
                let calls = (message["tool_calls"] as? [[String: Any]] ?? []).map { call in
                    let function = call["function"] as? [String: Any] ?? [:]
                    return ToolCallRequest(
                        id: call["id"] as? String ?? "", name: function["name"] as? String ?? "",
                        arguments: function["arguments"] as? String ?? "")
                }
                for call in calls { toolNames[call.id] = call.name }
                if !calls.isEmpty { entries.append(.toolCalls(calls)) }
            case "tool":
                let id = message["tool_call_id"] as? String ?? ""
                entries.append(.toolOutput(ToolOutput(callID: id, toolName: toolNames[id] ?? "", content: text)))
            default:
                entries.append(.prompt(text))
            }
        }
        return openAI(
            object, sessionHeader: sessionHeader, instructions: instructions, entries: entries,
            tools: functionTools(object["tools"]),
            maximumResponseTokens: object["max_completion_tokens"] ?? object["max_tokens"])
    }

    /// Tools as chat completions (and Ollama) define them: `{"type": "function", "function": {…}}`.
    static func functionTools(_ tools: Any?) -> [ToolDefinition] {
        (tools as? [[String: Any]] ?? []).map { tool in
            let function = tool["function"] as? [String: Any] ?? [:]
            return ToolDefinition(
                name: function["name"] as? String ?? "", description: function["description"] as? String ?? "",
                parameters: JSONValue.text(function["parameters"]))
        }
    }

    /// An OpenAI request (chat completions, completions or Responses) of what its body held: the
    /// model, the stream flag, the session named by its header, `user` or `metadata.session_id`, the
    /// temperature.
    static func openAI(
        _ object: [String: Any], sessionHeader: String?, instructions: [String], entries: [Transcript.Entry],
        tools: [ToolDefinition], maximumResponseTokens: Any?
    ) -> ObservedRequest {
        ObservedRequest(
            model: object["model"] as? String ?? "", streams: object["stream"] as? Bool ?? false,
            sessionName: sessionHeader ?? object["user"] as? String
                ?? (object["metadata"] as? [String: Any])?["session_id"] as? String,
            request: ModelRequest(
                instructions: instructions.isEmpty ? nil : instructions.joined(separator: "\n"), entries: entries,
                tools: tools,
                options: GenerationOptions(
                    temperature: (object["temperature"] as? NSNumber)?.doubleValue,
                    maximumResponseTokens: JSONValue.integer(maximumResponseTokens)),
                profileName: ""))
    }

    /// Reads an Anthropic Messages body; nil when it is not a JSON object with messages.
    static func anthropicMessages(_ body: Data, sessionHeader: String?) -> ObservedRequest? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              let messages = object["messages"] as? [[String: Any]]
        else { return nil }
        var entries: [Transcript.Entry] = []
        var toolNames: [String: String] = [:]
        var failed: Set<String> = []
        for message in messages {
            let assistant = message["role"] as? String == "assistant"
            guard let blocks = message["content"] as? [[String: Any]] else {
                let text = message["content"] as? String ?? ""
                entries.append(assistant ? .response(text) : .prompt(text))
                continue
            }
            var calls: [ToolCallRequest] = []
            for block in blocks {
                switch block["type"] as? String {
                case "text":
                    let text = block["text"] as? String ?? ""
                    entries.append(assistant ? .response(text) : .prompt(text))
                case "tool_use":
                    let call = ToolCallRequest(
                        id: block["id"] as? String ?? "", name: block["name"] as? String ?? "",
                        arguments: JSONValue.text(block["input"]))
                    toolNames[call.id] = call.name
                    calls.append(call)
                case "tool_result":
                    let id = block["tool_use_id"] as? String ?? ""
                    if block["is_error"] as? Bool == true { failed.insert(id) }
                    entries.append(.toolOutput(ToolOutput(
                        callID: id, toolName: toolNames[id] ?? "", content: Self.text(of: block["content"]))))
                default:
                    entries.append(assistant ? .response(JSONValue.text(block)) : .prompt(JSONValue.text(block)))
                }
            }
            if !calls.isEmpty { entries.append(.toolCalls(calls)) }
        }
        let tools = (object["tools"] as? [[String: Any]] ?? []).map { tool in
            ToolDefinition(
                name: tool["name"] as? String ?? "", description: tool["description"] as? String ?? "",
                parameters: JSONValue.text(tool["input_schema"]))
        }
        let system = Self.text(of: object["system"])
        return ObservedRequest(
            model: object["model"] as? String ?? "", streams: object["stream"] as? Bool ?? false,
            sessionName: sessionHeader ?? (object["metadata"] as? [String: Any])?["user_id"] as? String,
            request: ModelRequest(
                instructions: system.isEmpty ? nil : system, entries: entries, tools: tools,
                options: GenerationOptions(
                    temperature: (object["temperature"] as? NSNumber)?.doubleValue,
                    maximumResponseTokens: JSONValue.integer(object["max_tokens"])),
                profileName: ""),
            failedToolCallIDs: failed)
    }

    /// A message's text: a string as it is, an array of parts as their `text`s joined (other parts,
    /// such as images, as their JSON, so that a changed image still changes the prefix).
    static func text(of content: Any?) -> String {
        if let text = content as? String { return text }
        guard let parts = content as? [[String: Any]] else { return content.map { JSONValue.text($0) } ?? "" }
        return parts.map { part in (part["text"] as? String) ?? JSONValue.text(part) }.joined(separator: "\n")
    }
}
