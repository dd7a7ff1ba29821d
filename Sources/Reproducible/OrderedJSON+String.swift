extension OrderedJSON {
    /// `value` as a JSON string literal: the one escaping rule of every JSON text written.
    ///
    /// RFC 8259 requires `"`, `\` and U+0000...U+001F to be escaped. Beyond that, DEL, the C1
    /// controls, the bidirectional controls and U+2028/U+2029 are written as `\uXXXX`, which
    /// RFC 8259 allows for any character: JSON printed to a terminal then carries no escape
    /// sequence, reordered text or line break, and the text is also a valid JavaScript string.
    public static func quoted(_ value: String) -> String {
        var out = ""
        writeString(value, to: &out, escapingHTML: false)
        return out
    }

    /// Whether `scalar` is written as `\uXXXX` in a JSON string (besides `"` and `\`).
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: true
        default: false
        }
    }

    static func writeString(_ value: String, to out: inout String, escapingHTML: Bool) {
        out.reserveCapacity(out.utf8.count + value.utf8.count + 2)
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "<" where escapingHTML, ">" where escapingHTML, "&" where escapingHTML:
                writeUnicodeEscape(scalar, to: &out)
            case _ where needsEscape(scalar): writeUnicodeEscape(scalar, to: &out)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    private static func writeUnicodeEscape(_ scalar: Unicode.Scalar, to out: inout String) {
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}
