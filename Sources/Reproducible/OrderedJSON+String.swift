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

    /// Appends `value` whole when it is ASCII with nothing to escape (nearly every string a trace
    /// holds); otherwise copies the runs between escapes as whole slices of `value`.
    static func writeString(_ value: String, to out: inout String, escapingHTML: Bool) {
        out += "\""
        let plainBytes = escapingHTML ? plainInHTML : plain
        let isPlain = value.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.allSatisfy { $0 < 0x80 && plainBytes[Int($0)] }
        } ?? false
        if isPlain {
            out += value
        } else {
            let scalars = value.unicodeScalars
            var copied = scalars.startIndex
            var index = copied
            while index != scalars.endIndex {
                let next = scalars.index(after: index)
                if let escape = escape(scalars[index], escapingHTML: escapingHTML) {
                    out += Substring(scalars[copied..<index])
                    out += escape
                    copied = next
                }
                index = next
            }
            out += Substring(scalars[copied...])
        }
        out += "\""
    }

    /// Whether each ASCII byte is written as itself, from ``escape(_:escapingHTML:)``.
    private static let plain = (0..<128).map { byte in
        escape(Unicode.Scalar(UInt8(byte)), escapingHTML: false) == nil
    }
    private static let plainInHTML = (0..<128).map { byte in
        escape(Unicode.Scalar(UInt8(byte)), escapingHTML: true) == nil
    }

    /// How `scalar` is written inside a JSON string; nil when as itself.
    private static func escape(_ scalar: Unicode.Scalar, escapingHTML: Bool) -> String? {
        switch scalar {
        case "\"": "\\\""
        case "\\": "\\\\"
        case "\n": "\\n"
        case "\r": "\\r"
        case "\t": "\\t"
        case "<" where escapingHTML, ">" where escapingHTML, "&" where escapingHTML: unicodeEscape(scalar)
        case _ where needsEscape(scalar): unicodeEscape(scalar)
        default: nil
        }
    }

    private static func unicodeEscape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}
