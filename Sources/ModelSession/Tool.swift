import Foundation

/// A function the model may call. The session decodes ``Arguments`` from the model's JSON.
///
/// ```swift
/// struct WeatherTool: Tool {
///     struct Arguments: Codable, Sendable { var city: String }
///     let name = "get_weather"
///     let description = "Current weather for a city"
///     var parameters: JSONSchema { .object([.init("city", .string())]) }
///     func call(arguments: Arguments) async throws -> String { "Sunny in \(arguments.city)" }
/// }
/// ```
public protocol Tool: Sendable {
    associatedtype Arguments: Codable & Sendable
    var name: String { get }
    var description: String { get }
    var parameters: JSONSchema { get }
    func call(arguments: Arguments) async throws -> String
}

extension Tool {
    /// What a model is told about this tool.
    public var definition: ToolDefinition {
        ToolDefinition(name: name, description: description, parameters: parameters.jsonText)
    }

    /// Decodes the model's JSON arguments and calls the tool.
    ///
    /// Throws ``LanguageModelSession/GenerationError/toolArgumentsInvalid(tool:arguments:reason:)``
    /// when the JSON does not fit ``Arguments``.
    public func call(argumentsJSON: String) async throws -> String {
        let text = argumentsJSON.trimmingCharacters(in: .whitespacesAndNewlines)
        let arguments: Arguments
        do {
            arguments = try JSONDecoder().decode(
                Arguments.self, from: Data((text.isEmpty ? "{}" : text).utf8))
        } catch {
            throw LanguageModelSession.GenerationError.toolArgumentsInvalid(
                tool: name, arguments: argumentsJSON, reason: "\(error)")
        }
        return try await call(arguments: arguments)
    }
}
