import Foundation
import ModelSession

extension ObservedRequest {
    /// Reads an OpenAI Responses API body; nil when it is not a JSON object with `input`.
    ///
    /// `input` is a string (one prompt) or a list of items: messages, `function_call` and
    /// `function_call_output`. A request that continues a stored response (`previous_response_id`)
    /// sends only what is new, its history being on the server: ``ConversationTracker`` puts it in
    /// the conversation that response ended, after that conversation's history.
    static func openAIResponses(_ body: Data, sessionHeader: String?) -> ObservedRequest? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              let input = object["input"]
        else { return nil }
        var instructions: [String] = (object["instructions"] as? String).map { [$0] } ?? []
        var entries: [Transcript.Entry] = []
        var toolNames: [String: String] = [:]
        let items: [[String: Any]] = (input as? String).map { [["role": "user", "content": $0]] }
            ?? input as? [[String: Any]] ?? []
        for item in items {
            switch item["type"] as? String ?? "message" {
            case "function_call":
                let call = ToolCallRequest(
                    id: item["call_id"] as? String ?? "", name: item["name"] as? String ?? "",
                    arguments: item["arguments"] as? String ?? "")
                toolNames[call.id] = call.name
                entries.append(.toolCalls([call]))
            case "function_call_output":
                let id = item["call_id"] as? String ?? ""
                entries.append(.toolOutput(ToolOutput(
                    callID: id, toolName: toolNames[id] ?? "", content: Self.text(of: item["output"]))))
            case "message":
                let text = Self.text(of: item["content"])
                switch item["role"] as? String {
                case "system", "developer": instructions.append(text)
                case "assistant": entries.append(.response(text))
                default: entries.append(.prompt(text))
                }
            default:
                // Reasoning, web search and other items: their JSON, so that a change still changes the prefix.
                entries.append(.prompt(JSONValue.text(item)))
            }
        }
        let tools = (object["tools"] as? [[String: Any]] ?? []).map { tool in
            ToolDefinition(
                name: tool["name"] as? String ?? tool["type"] as? String ?? "",
                description: tool["description"] as? String ?? "", parameters: JSONValue.text(tool["parameters"]))
        }
        var observed = openAI(
            object, sessionHeader: sessionHeader, instructions: instructions, entries: entries, tools: tools,
            maximumResponseTokens: object["max_output_tokens"])
        observed.continuedResponseID = object["previous_response_id"] as? String
        return observed
    }
}
