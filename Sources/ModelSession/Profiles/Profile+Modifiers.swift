extension Profile {
    /// The model to ask; a modifier closer to the profile wins.
    public func model(_ model: any LanguageModel) -> Profile {
        var profile = self
        if profile.model == nil { profile.model = model }
        return profile
    }

    public func temperature(_ temperature: Double) -> Profile {
        options(GenerationOptions(temperature: temperature))
    }

    public func maximumResponseTokens(_ tokens: Int) -> Profile {
        options(GenerationOptions(maximumResponseTokens: tokens))
    }

    public func toolChoice(_ choice: ToolChoice) -> Profile {
        options(GenerationOptions(toolChoice: choice))
    }

    /// Sets the options not yet set by a modifier closer to the profile.
    public func options(_ options: GenerationOptions) -> Profile {
        var profile = self
        profile.options = profile.options.overriding(options)
        return profile
    }

    /// The tools the model may call; a modifier closer to the profile wins.
    public func tools(_ tools: [any Tool]) -> Profile {
        var profile = self
        if profile.tools == nil { profile.tools = tools }
        return profile
    }

    /// Changes what the model sees for each request; the session's transcript stays whole.
    public func historyTransform(_ transform: @escaping HistoryTransform) -> Profile {
        var profile = self
        profile.historyTransforms.append(transform)
        return profile
    }

    /// Runs after each successful response; every callback in the chain runs.
    public func onResponse(_ handler: @escaping ResponseHandler) -> Profile {
        var profile = self
        profile.responseHandlers.append(handler)
        return profile
    }

    /// Applies a custom modifier.
    public func modifier(_ modifier: some ProfileModifier) -> Profile {
        modifier.body(content: self)
    }
}
