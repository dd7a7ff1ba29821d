/// A JSON value whose objects keep their members in the order written: request bodies stay byte
/// for byte the same (a model server's prompt cache depends on it), reports diff cleanly, and a
/// schema's properties reach a grammar-constrained model in the order it should write them.
///
/// The one JSON writer of the package: every JSON text the package produces is written here.
public indirect enum OrderedJSON: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    /// A number; written as Swift's shortest round-trip text (`1.0`, `0.25`, `1e+20`), so a
    /// double reads back as a double, and `null` when not finite (JSON has no infinity or NaN).
    case double(Double)
    case string(String)
    case array([OrderedJSON])
    case object([(String, OrderedJSON)])
    /// JSON text inserted as is (a tool's schema, a model's arguments); must be valid JSON,
    /// which ``rawIfValid(_:fallback:)`` checks.
    case raw(String)

    public static func == (lhs: OrderedJSON, rhs: OrderedJSON) -> Bool {
        lhs.compact() == rhs.compact()
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(compact())
    }

    /// An integer, or `null` when unknown.
    public static func int(_ value: Int64?) -> OrderedJSON { value.map(OrderedJSON.int) ?? .null }
    /// An integer, or `null` when unknown.
    public static func int(_ value: Int?) -> OrderedJSON { value.map { .int(Int64($0)) } ?? .null }
    /// A number, or `null` when unknown or not finite.
    public static func double(_ value: Double?) -> OrderedJSON { value.map(OrderedJSON.double) ?? .null }
    /// A 64-bit id as a decimal string, which JavaScript and jq read exactly (a JSON number
    /// above 2^53 they round), or `null` when absent.
    public static func id(_ value: Int64?) -> OrderedJSON { value.map { .string(String($0)) } ?? .null }
    /// A string, or `null` when absent.
    public static func string(_ value: String?) -> OrderedJSON { value.map(OrderedJSON.string) ?? .null }
    /// An object without the members whose value is `null`: exports leave unknown fields out
    /// instead of spelling them.
    public static func objectDroppingNulls(_ members: [(String, OrderedJSON)]) -> OrderedJSON {
        .object(members.filter { if case .null = $0.1 { false } else { true } })
    }

    /// The value as JSON text, indented by two spaces per level, ending without a newline.
    public func serialized(indent: Int = 0) -> String {
        var out = ""
        write(to: &out, indent: indent)
        return out
    }

    /// The value as JSON text on one line, without spaces: a request body, one JSON Lines
    /// record, or one event of a large export where indentation would double the size.
    ///
    /// With `escapingHTML`, `<`, `>` and `&` in strings are written as `\u003c`, `\u003e` and
    /// `\u0026` (JSON syntax has them only inside strings), so the text can sit in an HTML
    /// `<script>` element and no `</script>` in the data can close it.
    public func compact(escapingHTML: Bool = false) -> String {
        var out = ""
        writeCompact(to: &out, escapingHTML: escapingHTML)
        return out
    }

    private func write(to out: inout String, indent: Int) {
        switch self {
        case .array(let values):
            if values.isEmpty { out += "[]"; return }
            out += "[\n"
            for (index, value) in values.enumerated() {
                out += String(repeating: "  ", count: indent + 1)
                value.write(to: &out, indent: indent + 1)
                out += index == values.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: "  ", count: indent) + "]"
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            out += "{\n"
            for (index, (key, value)) in members.enumerated() {
                out += String(repeating: "  ", count: indent + 1)
                Self.writeString(key, to: &out, escapingHTML: false)
                out += ": "
                value.write(to: &out, indent: indent + 1)
                out += index == members.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: "  ", count: indent) + "}"
        default:
            writeCompact(to: &out, escapingHTML: false)
        }
    }

    /// Appends ``compact(escapingHTML:)``'s text to `out`, for a caller building one large text.
    public func writeCompact(to out: inout String, escapingHTML: Bool = false) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .double(let value): out += value.isFinite ? String(value) : "null"
        case .string(let value): Self.writeString(value, to: &out, escapingHTML: escapingHTML)
        case .raw(let text): out += text
        case .array(let values):
            out += "["
            for (index, value) in values.enumerated() {
                if index > 0 { out += "," }
                value.writeCompact(to: &out, escapingHTML: escapingHTML)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out += "," }
                Self.writeString(key, to: &out, escapingHTML: escapingHTML)
                out += ":"
                value.writeCompact(to: &out, escapingHTML: escapingHTML)
            }
            out += "}"
        }
    }
}
