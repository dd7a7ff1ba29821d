import Reproducible

/// Low-cardinality metadata on intervals and instants: `["requestLength": 42]`.
public typealias TraceMetadata = [String: TraceMetadataValue]

/// One metadata value. Literals work directly: `["mode": "economy", "turn": 3, "hit": true]`.
public enum TraceMetadataValue: Sendable, Hashable {
    /// Text, stored as a JSON string.
    case string(String)
    /// A whole number, stored as a JSON number.
    case int(Int64)
    /// A floating-point number, stored as a JSON number; `null` when it is not finite.
    case double(Double)
    /// A flag, stored as JSON `true` or `false`.
    case bool(Bool)
}

extension TraceMetadataValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral
{
    /// A string value from a literal: `"economy"`.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An integer value from a literal: `42`.
    public init(integerLiteral value: Int64) { self = .int(value) }
    /// A floating-point value from a literal: `0.5`.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A Boolean value from a literal: `true`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension TraceMetadataValue: CustomStringConvertible {
    /// The value as text, without quotes or a type tag.
    public var description: String {
        switch self {
        case .string(let value): value
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .bool(let value): String(value)
        }
    }
}

extension Dictionary where Key == String, Value == TraceMetadataValue {
    /// The metadata as one JSON object with sorted keys.
    public var orderedJSON: OrderedJSON {
        .object(
            keys.sorted().map { key in
                switch self[key]! {
                case .string(let value): (key, .string(value))
                case .int(let value): (key, .int(value))
                case .double(let value): (key, .double(value))
                case .bool(let value): (key, .bool(value))
                }
            })
    }

    /// The metadata as one compact JSON object with sorted keys, as the store and LTTng hold it.
    public var jsonObject: String { orderedJSON.compact() }
}
