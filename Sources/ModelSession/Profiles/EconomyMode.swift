/// Cheaper requests: another model, a capped response and a rolling window of history.
///
/// Place it close to the `Profile` so its settings take precedence over the regular ones:
/// ```swift
/// Profile("planner") { Instructions("...") }
///     .economyMode(isEnabled: state.economy, model: small)
///     .model(large)
/// ```
public struct EconomyMode: ProfileModifier {
    public var isEnabled: Bool
    public var model: (any LanguageModel)?
    public var maximumResponseTokens: Int
    /// How many of the latest prompts (with their responses and tool exchanges) the model sees.
    public var promptWindow: Int

    public init(
        isEnabled: Bool, model: (any LanguageModel)? = nil, maximumResponseTokens: Int = 128,
        promptWindow: Int = 2
    ) {
        self.isEnabled = isEnabled
        self.model = model
        self.maximumResponseTokens = maximumResponseTokens
        self.promptWindow = promptWindow
    }

    public func body(content: Profile) -> Profile {
        guard isEnabled else { return content }
        var profile = content
        if let model { profile = profile.model(model) }
        let window = promptWindow
        return profile.maximumResponseTokens(maximumResponseTokens)
            .historyTransform { Transcript.lastPrompts(window, of: $0) }
    }
}

extension Profile {
    /// See ``EconomyMode``.
    public func economyMode(
        isEnabled: Bool, model: (any LanguageModel)? = nil, maximumResponseTokens: Int = 128,
        promptWindow: Int = 2
    ) -> Profile {
        modifier(
            EconomyMode(
                isEnabled: isEnabled, model: model, maximumResponseTokens: maximumResponseTokens,
                promptWindow: promptWindow))
    }
}

extension Transcript {
    /// The entries from the `count`-th last prompt on, so no tool output loses its call.
    public static func lastPrompts(_ count: Int, of entries: [Entry]) -> [Entry] {
        guard count > 0 else { return [] }
        var seen = 0
        for index in entries.indices.reversed() {
            if case .prompt = entries[index] {
                seen += 1
                if seen == count { return Array(entries[index...]) }
            }
        }
        return entries
    }
}
