/// Whether a request lets, makes or forbids the model call a tool.
public enum ToolChoice: Sendable, Hashable {
    /// The model decides.
    case automatic
    /// The model must call a tool.
    case required
    /// The model must answer in text.
    case none
    /// A tool call is required until a tool has answered since the last prompt; then the
    /// model must answer. For small models that would otherwise call tools until the session's
    /// round limit, and for tests that need a tool call to happen.
    case requiredOnce
}
