import Foundation
import Similarity

/// The shape of a change between two captured texts of a prompt-prefix segment (instructions, tool
/// definitions): what kind of value changed, never the value. Read from `instructions` and
/// `tool_definitions` payloads, so it needs payload capture.
///
/// The changed region is found by the texts' common prefix and suffix, widened to whole
/// white-space-separated words, and named by the first rule that holds:
///
/// 1. `whitespace`: the texts are equal without their white space;
/// 2. `reordered_json`: both are the same JSON once object keys are sorted (and, for an array, its
///    elements taken in any order): a dictionary or a tool list serialized in another order;
/// 3. `uuid`: the new region holds a UUID (8-4-4-4-12 hex digits);
/// 4. `timestamp`: the new region holds a date (`2026-06-02`), a time of day (`09:41`) or is a Unix
///    time of 10 to 13 digits;
/// 5. `counter`: both regions are whole numbers;
/// 6. `text`: anything else.
///
/// Rules 3 and 4 are `VolatileShape`'s: the one table, by which output sketches also set tokens aside.
public enum PrefixChange: String, Sendable, Hashable, CaseIterable {
    case whitespace
    case reorderedJSON = "reordered_json"
    case uuid
    case timestamp
    case counter
    case text

    /// The shape of the change from `old` to `new`; nil when they are equal.
    static func shape(from old: String, to new: String) -> PrefixChange? {
        guard old != new else { return nil }
        if old.filter({ !$0.isWhitespace }) == new.filter({ !$0.isWhitespace }) { return .whitespace }
        if let before = canonicalJSON(old), before == canonicalJSON(new) { return .reorderedJSON }
        let (was, now) = changedRegions(Array(old), Array(new))
        switch VolatileShape.of(now.utf8) {
        case .uuid: return .uuid
        case .timestamp: return .timestamp
        case .identifier, nil: break
        }
        if Int(was) != nil, Int(now) != nil { return .counter }
        return .text
    }

    /// For people: `a timestamp`, `reordered JSON`.
    public var phrase: String {
        switch self {
        case .whitespace: "white space"
        case .reorderedJSON: "reordered JSON"
        case .uuid: "a UUID"
        case .timestamp: "a timestamp"
        case .counter: "a counter"
        case .text: "other text"
        }
    }

    /// The differing middle of two texts, widened to whole words, without surrounding punctuation.
    private static func changedRegions(_ old: [Character], _ new: [Character]) -> (String, String) {
        let shorter = min(old.count, new.count)
        var prefix = 0
        while prefix < shorter, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < shorter - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        var start = prefix
        while start > 0, !old[start - 1].isWhitespace { start -= 1 }
        func region(_ text: [Character]) -> String {
            var end = text.count - suffix
            while end < text.count, !text[end].isWhitespace { end += 1 }
            return String(text[start..<end]).trimmingCharacters(in: CharacterSet(charactersIn: ".,;!?()[]{}\"'"))
        }
        return (region(old), region(new))
    }

    /// `text` as JSON with sorted keys, an array's elements sorted; nil when it is not JSON.
    private static func canonicalJSON(_ text: String) -> String? {
        guard let value = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        else { return nil }
        func canonical(_ value: Any) -> String {
            switch value {
            case let array as [Any]: return "[" + array.map(canonical).sorted().joined(separator: ",") + "]"
            case let object as [String: Any]:
                return "{" + object.keys.sorted().map { "\($0):" + canonical(object[$0]!) }.joined(separator: ",")
                    + "}"
            default:
                let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])
                return data.map { String(decoding: $0, as: UTF8.self) } ?? ""
            }
        }
        return canonical(value)
    }
}
