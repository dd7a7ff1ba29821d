/// A tool as a model sees it: name, description and a JSON schema of its arguments.
public struct ToolDefinition: Sendable, Hashable {
    public var name: String
    public var description: String
    /// The JSON schema of the arguments, as JSON text.
    public var parameters: String

    public init(name: String, description: String, parameters: String) {
        self.name = name
        self.description = description
        self.parameters = parameters
    }
}
