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
    /// The metadata as one compact JSON object with sorted keys, as the store and LTTng hold it.
    public var jsonObject: String {
        var out = "{"
        for (index, key) in keys.sorted().enumerated() {
            if index > 0 { out += "," }
            out += jsonString(key) + ":"
            switch self[key]! {
            case .string(let value): out += jsonString(value)
            case .int(let value): out += String(value)
            case .double(let value): out += value.isFinite ? String(value) : "null"
            case .bool(let value): out += value ? "true" : "false"
            }
        }
        return out + "}"
    }
}

/// A JSON string literal for `value`, with the escapes RFC 8259 requires.
public func jsonString(_ value: String) -> String {
    var out = "\""
    out.reserveCapacity(value.utf8.count + 2)
    for scalar in value.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20 || scalar.value == 0x7F:
            let hex = String(scalar.value, radix: 16)
            out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}
