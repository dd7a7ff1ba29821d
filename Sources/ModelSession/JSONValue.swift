import Foundation

/// JSON built in code and rendered in a fixed order, for request bodies.
///
/// Order matters twice: a stable body keeps the server's prompt cache warm, and a schema's
/// property order is the order a grammar-constrained model writes them in.
enum JSONValue {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])
    /// JSON text inserted as is (a tool's schema, a model's arguments); must be valid JSON.
    case raw(String)

    var rendered: String {
        var output = ""
        render(into: &output)
        return output
    }

    /// Raw JSON text if it parses, else `fallback`: a malformed argument string must not
    /// corrupt the whole request body.
    static func rawIfValid(_ text: String, fallback: JSONValue) -> JSONValue {
        let data = Data(text.utf8)
        guard (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) != nil else {
            return fallback
        }
        return .raw(text)
    }

    private func render(into output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        case .double(let value): output += value.isFinite ? "\(value)" : "null"
        case .string(let value): Self.renderString(value, into: &output)
        case .raw(let text): output += text
        case .array(let values):
            output += "["
            for (index, value) in values.enumerated() {
                if index > 0 { output += "," }
                value.render(into: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { output += "," }
                Self.renderString(key, into: &output)
                output += ":"
                value.render(into: &output)
            }
            output += "}"
        }
    }

    private static func renderString(_ value: String, into output: inout String) {
        output += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                output +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
