/// What a tool returned for one call.
public struct ToolOutput: Sendable, Hashable, Codable {
    public var callID: String
    public var toolName: String
    public var content: String

    public init(callID: String, toolName: String, content: String) {
        self.callID = callID
        self.toolName = toolName
        self.content = content
    }
}
