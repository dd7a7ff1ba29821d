import Foundation
import ModelSession

extension ObservedRequest {
    /// Reads an OpenAI (legacy) completions body; nil when it is not a JSON object with a `prompt`.
    ///
    /// `prompt` is read by ``promptText(_:)`` (the proxy records only the first choice's answer). A
    /// fill-in-the-middle request's `suffix` is a prompt entry before it, so that both count in the
    /// prompt's size and the prompt is the newest entry, the one payload capture records. As with
    /// Ollama's `/api/generate`, a completion carries no history: requests join a conversation only
    /// when the client names it (`X-Session-Id` or `user`).
    static func openAICompletions(_ body: Data, sessionHeader: String?) -> ObservedRequest? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              let prompt = object["prompt"]
        else { return nil }
        let suffix = object["suffix"] as? String ?? ""
        let entries: [Transcript.Entry] =
            (suffix.isEmpty ? [] : [.prompt(suffix)]) + [.prompt(promptText(prompt))]
        return openAI(
            object, sessionHeader: sessionHeader, instructions: [], entries: entries, tools: [],
            maximumResponseTokens: object["max_tokens"])
    }

    /// A completion's `prompt`, which is one text or a list of texts or of token ids: a text as it
    /// is, any other form as its JSON.
    static func promptText(_ prompt: Any) -> String {
        prompt as? String ?? JSONValue.text(prompt)
    }
}
