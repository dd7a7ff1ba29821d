import SessionTrace

extension JSONValue {
    /// The value as JSON text on one line, without spaces: one JSON Lines record, or one event of
    /// a large export where indentation would double the size.
    public func compact() -> String {
        var out = ""
        writeCompact(to: &out)
        return out
    }

    func writeCompact(to out: inout String) {
        switch self {
        case .array(let values):
            out += "["
            for (index, value) in values.enumerated() {
                if index > 0 { out += "," }
                value.writeCompact(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out += "," }
                out += Self.quoted(key) + ":"
                value.writeCompact(to: &out)
            }
            out += "}"
        default:
            out += serialized()
        }
    }

    /// An object without the members whose value is `null`: exports leave unknown fields out
    /// instead of spelling them.
    static func objectDroppingNulls(_ members: [(String, JSONValue)]) -> JSONValue {
        .object(members.filter { if case .null = $0.1 { false } else { true } })
    }
}

extension TraceMetadata {
    /// The metadata as a JSON object with sorted keys.
    var jsonValue: JSONValue {
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
}
