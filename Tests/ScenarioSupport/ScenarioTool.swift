import Foundation
import ModelSession
import SessionTraceTesting

/// Any JSON value, so one tool type can take whatever arguments a scenario gives it.
public enum ScenarioValue: Codable, Sendable, Hashable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case array([ScenarioValue])
    case object([String: ScenarioValue])
    case null

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([ScenarioValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: ScenarioValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }
}

/// A tool of a scenario: its output is made from its arguments (or it throws), and it spends
/// `duration` on the scenario's clock.
public struct ScenarioTool: Tool {
    public typealias Arguments = [String: ScenarioValue]

    public let name: String
    public let description: String
    public let parameters: JSONSchema
    let clock: TestClock
    let duration: Int64
    let output: @Sendable (Arguments) throws -> String

    /// A tool whose parameters are the string properties `properties`.
    public init(
        _ name: String, description: String, properties: [String], clock: TestClock,
        duration: Int64 = 40_000_000, output: @escaping @Sendable (Arguments) throws -> String
    ) {
        self.name = name
        self.description = description
        parameters = .object(properties.map { .init($0, .string(), isOptional: true) })
        self.clock = clock
        self.duration = duration
        self.output = output
    }

    public func call(arguments: Arguments) async throws -> String {
        clock.advance(by: duration)
        return try output(arguments)
    }
}

extension [String: ScenarioValue] {
    /// The value of `key` as text, for outputs that echo an argument.
    public func text(_ key: String) -> String {
        switch self[key] {
        case .string(let value)?: value
        case .int(let value)?: String(value)
        default: ""
        }
    }
}

