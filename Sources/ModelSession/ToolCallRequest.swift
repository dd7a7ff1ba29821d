/// A model's request to run one tool.
public struct ToolCallRequest: Sendable, Hashable, Codable {
    /// The id the tool's output refers back to.
    public var id: String
    public var name: String
    /// The arguments as JSON text.
    public var arguments: String

    /// The call a tool is running for: a session sets it around each `Tool.call`, so that a
    /// wrapping tool (a tracer, say) can tell which call it serves; nil outside one.
    @TaskLocal public static var current: ToolCallRequest?

    public init(id: String, name: String, arguments: String) {
        self.id = id
        self.name = name
        self.arguments = arguments
    }
}
