import Reproducible

/// A small JSON schema for tool arguments; renders to JSON text with properties in order.
///
/// ```swift
/// JSONSchema.object([.init("city", .string(description: "City name")),
///                    .init("days", .integer(), isOptional: true)])
/// ```
public indirect enum JSONSchema: Sendable, Hashable {
    /// A string; `maxLength` also bounds what schema-constrained output may generate.
    case string(description: String? = nil, choices: [String]? = nil, maxLength: Int? = nil)
    case integer(description: String? = nil)
    case number(description: String? = nil)
    case boolean(description: String? = nil)
    case array(of: JSONSchema, description: String? = nil)
    case object([Property], description: String? = nil)

    /// One named property of an object; required unless optional.
    public struct Property: Sendable, Hashable {
        public var name: String
        public var schema: JSONSchema
        public var isOptional: Bool

        public init(_ name: String, _ schema: JSONSchema, isOptional: Bool = false) {
            self.name = name
            self.schema = schema
            self.isOptional = isOptional
        }
    }

    /// The schema as compact JSON text.
    public var jsonText: String { jsonValue.compact() }

    var jsonValue: OrderedJSON {
        func typed(_ type: String, _ description: String?, _ extra: [(String, OrderedJSON)] = []) -> OrderedJSON {
            var members: [(String, OrderedJSON)] = [("type", .string(type))]
            if let description { members.append(("description", .string(description))) }
            return .object(members + extra)
        }
        switch self {
        case .string(let description, let choices, let maxLength):
            var extra: [(String, OrderedJSON)] = []
            if let choices { extra.append(("enum", .array(choices.map(OrderedJSON.string)))) }
            if let maxLength { extra.append(("maxLength", .int(maxLength))) }
            return typed("string", description, extra)
        case .integer(let description): return typed("integer", description)
        case .number(let description): return typed("number", description)
        case .boolean(let description): return typed("boolean", description)
        case .array(let items, let description):
            return typed("array", description, [("items", items.jsonValue)])
        case .object(let properties, let description):
            return typed(
                "object", description,
                [
                    ("properties", .object(properties.map { ($0.name, $0.schema.jsonValue) })),
                    ("required", .array(properties.filter { !$0.isOptional }.map { .string($0.name) })),
                    ("additionalProperties", .bool(false)),
                ])
        }
    }
}
