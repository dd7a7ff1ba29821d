import ModelSession

extension WholeResponse {
    /// A llama.cpp native completion answer (`POST /completion`), whole or as its stream's last
    /// event holds it: `content`, the prompt's tokens (`tokens_evaluated`, of which `timings.cache_n`
    /// came from the cache), the answer's (`tokens_predicted`), the server's timings, and why it
    /// stopped, in the words llama.cpp's OpenAI-compatible API uses: `length` when `n_predict` cut
    /// it (`stop_type` `limit`), else `stop`.
    static func llamaCompletion(_ object: [String: Any]) -> WholeResponse {
        var response = WholeResponse(id: nil, model: object["model"] as? String)
        response.text = object["content"] as? String ?? ""
        response.timings = llamaTimings(object["timings"])
        response.usage.inputTokens = JSONValue.integer(object["tokens_evaluated"])
        response.usage.outputTokens = JSONValue.integer(object["tokens_predicted"])
        response.usage.cachedInputTokens = response.timings?.cachedTokens
        response.finishReason = (object["stop_type"] as? String).map { $0 == "limit" ? "length" : "stop" }
        return response
    }
}
