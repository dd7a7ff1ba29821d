import Foundation
import ModelSession
import Reproducible

/// Stable, non-cryptographic fingerprints for arguments and instructions: 64-bit FNV-1a, hex.
///
/// A fingerprint lets analyses find repeated tool calls and changed instructions without the
/// text itself being recorded. It is not a secret-preserving hash: short, guessable inputs can
/// be recovered by brute force, which is why payload text stays opt-in and redacted.
package enum Fingerprint {
    package static func of(_ text: String) -> String { FNV1a.hex(text) }

    /// One fingerprint over tool definitions as sent: each name, description and schema, in
    /// order, separated so that moving text from one field to the next changes it.
    package static func of(toolDefinitions tools: [ToolDefinition]) -> String {
        of(tools.map { [$0.name, $0.description, $0.parameters].joined(separator: "\u{1F}") }
            .joined(separator: "\u{1E}"))
    }

    /// Tool definitions as sent, a JSON array of `name`, `description` and `parameters`, each schema
    /// as its text was (key order kept), for payload capture.
    package static func json(toolDefinitions tools: [ToolDefinition]) -> String {
        func quoted(_ text: String) -> String {
            let data = try? JSONSerialization.data(withJSONObject: text, options: [.fragmentsAllowed])
            return data.map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
        }
        return "["
            + tools.map { tool in
                let schema = tool.parameters.isEmpty ? "null" : tool.parameters
                return #"{"name":\#(quoted(tool.name)),"description":\#(quoted(tool.description)),"#
                    + #""parameters":\#(schema)}"#
            }.joined(separator: ",") + "]"
    }

    /// The normalized form of tool arguments: JSON with sorted keys, and every string trimmed,
    /// lowercased and with inner runs of white space folded to one space. Two calls with the same
    /// normalized arguments ask the same thing.
    package static func normalizedArguments(_ json: Data) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed]),
              let data = try? JSONSerialization.data(
                  withJSONObject: normalized(object), options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
        else { return String(decoding: json, as: UTF8.self) }
        return String(decoding: data, as: UTF8.self)
    }

    private static func normalized(_ value: Any) -> Any {
        switch value {
        case let string as String:
            return string.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
        case let array as [Any]:
            return array.map(normalized)
        case let object as [String: Any]:
            return object.mapValues(normalized)
        default:
            return value
        }
    }
}
