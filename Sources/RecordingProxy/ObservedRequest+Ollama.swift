import Foundation
import ModelSession

extension ObservedRequest {
    /// Reads an Ollama native chat body (`/api/chat`); nil when it is not a JSON object with messages.
    ///
    /// Ollama streams unless the body says `"stream": false`; its output cap and temperature are in
    /// `options` (`num_predict`, `temperature`). Its history's tool calls have no id, and a tool
    /// message names its tool (`tool_name`), not its call: a call gets the id the proxy gave it in
    /// the response, made of its ordinal among the conversation's calls, its name and its arguments
    /// (``OllamaStreamAssembler/toolCall(_:index:createdAt:)``), and a tool message answers the
    /// call its `tool_call_id` names, else the first call not yet answered of the assistant message
    /// before it (of its tool, when it names one).
    static func ollamaChat(_ body: Data, sessionHeader: String?) -> ObservedRequest? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              let messages = object["messages"] as? [[String: Any]]
        else { return nil }
        var instructions: [String] = []
        var entries: [Transcript.Entry] = []
        var unanswered: [ToolCallRequest] = []
        var callCount = 0
        for message in messages {
            var text = message["content"] as? String ?? ""
            // Images count by their data, so that a changed image changes the prefix.
            if let images = message["images"] as? [Any], !images.isEmpty { text += "\n" + JSONValue.text(images) }
            switch message["role"] as? String ?? "" {
            case "system":
                instructions.append(text)
            case "assistant":
                if !text.isEmpty { entries.append(.response(text)) }
                let calls = (message["tool_calls"] as? [[String: Any]] ?? []).enumerated().map { index, call in
                    OllamaStreamAssembler.toolCall(call, index: callCount + index, createdAt: nil)
                }
                callCount += calls.count
                unanswered = calls
                if !calls.isEmpty { entries.append(.toolCalls(calls)) }
            case "tool":
                let name = (message["tool_name"] as? String).flatMap { $0.isEmpty ? nil : $0 }
                let named = message["tool_call_id"] as? String
                let index = named.flatMap { id in unanswered.firstIndex { $0.id == id } }
                    ?? unanswered.firstIndex { name == nil || $0.name == name }
                let call = index.map { unanswered.remove(at: $0) }
                entries.append(.toolOutput(ToolOutput(
                    callID: call?.id ?? named ?? "", toolName: name ?? call?.name ?? "", content: text)))
            default:
                entries.append(.prompt(text))
            }
        }
        return ollama(object, sessionHeader: sessionHeader, instructions: instructions, entries: entries)
    }

    /// Reads an Ollama completion body (`/api/generate`): its `system` text as the instructions, its
    /// `prompt` (and `images`) as the one prompt; nil when it is not a JSON object with a prompt.
    /// A `context` (the token ids a previous answer returned, to continue from) is not text the proxy
    /// can read: such requests join a conversation only when the client names it (`X-Session-Id`).
    static func ollamaGenerate(_ body: Data, sessionHeader: String?) -> ObservedRequest? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              var prompt = object["prompt"] as? String
        else { return nil }
        if let images = object["images"] as? [Any], !images.isEmpty { prompt += "\n" + JSONValue.text(images) }
        let system = object["system"] as? String ?? ""
        return ollama(
            object, sessionHeader: sessionHeader, instructions: system.isEmpty ? [] : [system], entries: [.prompt(prompt)])
    }

    /// An Ollama request of what its body held: the model, the stream flag (on unless `false`), the
    /// tools, and the output cap and temperature of its `options`.
    private static func ollama(
        _ object: [String: Any], sessionHeader: String?, instructions: [String], entries: [Transcript.Entry]
    ) -> ObservedRequest {
        let options = object["options"] as? [String: Any] ?? [:]
        return ObservedRequest(
            model: object["model"] as? String ?? "", streams: object["stream"] as? Bool ?? true,
            sessionName: sessionHeader,
            request: ModelRequest(
                instructions: instructions.isEmpty ? nil : instructions.joined(separator: "\n"), entries: entries,
                tools: functionTools(object["tools"]),
                options: GenerationOptions(
                    temperature: (options["temperature"] as? NSNumber)?.doubleValue,
                    maximumResponseTokens: JSONValue.integer(options["num_predict"])),
                profileName: ""))
    }
}
