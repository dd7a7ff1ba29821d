import Foundation
import ModelSession

extension ObservedRequest {
    /// Reads a llama.cpp native completion body (`POST /completion`); nil when it is not a JSON
    /// object with a `prompt`.
    ///
    /// The `prompt` is read by ``promptText(_:)``. The output cap is `n_predict` (or `max_tokens`),
    /// none when it is negative (llama.cpp's "until the end"). The body seldom names a model: the
    /// server has one, which its answer names (`response_model`). No history: requests join a
    /// conversation only when the client names it (`X-Session-Id`).
    static func llamaCompletion(_ body: Data, sessionHeader: String?) -> ObservedRequest? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              let prompt = object["prompt"]
        else { return nil }
        let cap = JSONValue.integer(object["n_predict"] ?? object["max_tokens"]).flatMap { $0 < 0 ? nil : $0 }
        return ObservedRequest(
            model: object["model"] as? String ?? "", streams: object["stream"] as? Bool ?? false,
            sessionName: sessionHeader,
            request: ModelRequest(
                instructions: nil, entries: [.prompt(promptText(prompt))], tools: [],
                options: GenerationOptions(
                    temperature: (object["temperature"] as? NSNumber)?.doubleValue,
                    maximumResponseTokens: cap),
                profileName: ""))
    }
}
