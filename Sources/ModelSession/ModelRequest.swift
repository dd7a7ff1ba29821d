/// Everything one model call sees, after the session resolved its profile.
public struct ModelRequest: Sendable, Hashable {
    public var instructions: String?
    /// What the model sees for this request: the transcript after the profile's history transforms.
    public var entries: [Transcript.Entry]
    public var tools: [ToolDefinition]
    public var options: GenerationOptions
    /// The profile this request resolved from, for handoff records.
    public var profileName: String

    public init(
        instructions: String? = nil, entries: [Transcript.Entry], tools: [ToolDefinition] = [],
        options: GenerationOptions = GenerationOptions(), profileName: String = "default"
    ) {
        self.instructions = instructions
        self.entries = entries
        self.tools = tools
        self.options = options
        self.profileName = profileName
    }

    /// Whether a tool already answered since the last prompt: the model has what it asked for.
    public var hasToolOutputSinceLastPrompt: Bool {
        for entry in entries.reversed() {
            switch entry {
            case .prompt: return false
            case .toolOutput: return true
            case .response, .toolCalls: continue
            }
        }
        return false
    }

    /// The tool choice this round resolves to (see ``ToolChoice/requiredOnce``).
    public var effectiveToolChoice: ToolChoice {
        if tools.isEmpty { return .none }
        switch options.toolChoice ?? .automatic {
        case .requiredOnce: return hasToolOutputSinceLastPrompt ? .none : .required
        case let choice: return choice
        }
    }
}
