import ModelSession

extension WholeResponse {
    /// A Responses API response object, whole or as the streamed `response.completed` event holds it.
    ///
    /// The finish reason is the response's `status` (`completed`, `failed`, …), or for an
    /// `incomplete` one the reason it gives (`max_output_tokens`, `content_filter`).
    static func responses(_ object: [String: Any]) -> WholeResponse {
        var response = WholeResponse(id: object["id"] as? String, model: object["model"] as? String)
        for item in object["output"] as? [[String: Any]] ?? [] {
            switch item["type"] as? String {
            case "message":
                for part in item["content"] as? [[String: Any]] ?? [] where part["type"] as? String == "output_text" {
                    response.text += part["text"] as? String ?? ""
                }
            case "reasoning":
                // Its summary, and its text where the server gives it (open-weight models do).
                for part in (item["summary"] as? [[String: Any]] ?? []) + (item["content"] as? [[String: Any]] ?? []) {
                    response.reasoning += part["text"] as? String ?? ""
                }
            case "function_call":
                response.toolCalls.append(ToolCallRequest(
                    id: item["call_id"] as? String ?? "", name: item["name"] as? String ?? "",
                    arguments: item["arguments"] as? String ?? ""))
            default:
                break
            }
        }
        let status = object["status"] as? String
        response.finishReason = status == "incomplete"
            ? (object["incomplete_details"] as? [String: Any])?["reason"] as? String ?? status : status
        let usage = object["usage"] as? [String: Any] ?? [:]
        response.usage.inputTokens = JSONValue.integer(usage["input_tokens"])
        response.usage.outputTokens = JSONValue.integer(usage["output_tokens"])
        let details = usage["input_tokens_details"] as? [String: Any]
        response.usage.cachedInputTokens = JSONValue.integer(details?["cached_tokens"])
        return response
    }
}
