/// A model's request to run one tool.
public struct ToolCallRequest: Sendable, Hashable, Codable {
    /// The id the tool's output refers back to.
    public var id: String
    public var name: String
    /// The arguments as JSON text.
    public var arguments: String

    public init(id: String, name: String, arguments: String) {
        self.id = id
        self.name = name
        self.arguments = arguments
    }
}
