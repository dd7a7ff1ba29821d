/// Text from a trace made safe for a terminal, and the few formats every report shares.
///
/// Labels, model names, tool names and errors come from the traced program, which may have taken
/// them from a model or a user. Printed raw, an `ESC [` sequence in a session label could recolour,
/// move the cursor or retitle the terminal, so every string from a store goes through
/// ``sanitized(_:)`` before it is printed.
public enum TerminalText {
    /// True for scalars a terminal may act on: C0 controls, DEL, C1 controls, and the Unicode
    /// bidirectional overrides and isolates that can reorder what the reader sees.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `text` with every unsafe scalar shown instead of acted on: C0 controls in caret notation
    /// (`ESC` as `^[`, newline as `^J`), DEL as `^?`, C1 controls and bidi controls as `<U+XXXX>`.
    public static func sanitized(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if !isUnsafe(scalar) {
                out.unicodeScalars.append(scalar)
            } else if scalar.value < 0x20 {
                out += "^" + String(Unicode.Scalar(UInt8(scalar.value + 0x40)))
            } else if scalar.value == 0x7F {
                out += "^?"
            } else {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "<U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + ">"
            }
        }
        return out
    }

    /// `text` sanitized and cut to at most `width` characters, ending in `…` when cut.
    public static func fitted(_ text: String, width: Int) -> String {
        let safe = sanitized(text)
        guard width > 0 else { return "" }
        guard safe.count > width else { return safe }
        return String(safe.prefix(width - 1)) + "…"
    }

    /// `text` (already safe) padded with spaces on the right to `width` characters.
    public static func padded(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    /// `text` (already safe) padded with spaces on the left to `width` characters.
    package static func rightAligned(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}

/// How reports write numbers and durations for people.
public enum Format {
    /// A duration in nanoseconds as `840 µs`, `12.3 ms`, `1.52 s`; `-` when unknown.
    public static func duration(_ nanoseconds: Int64?) -> String {
        guard let nanoseconds else { return "-" }
        if nanoseconds == 0 { return "0 ms" }
        let value = Double(nanoseconds)
        let magnitude = abs(value)
        if magnitude < 1e6 { return fixed(value / 1e3, magnitude < 1e4 ? 1 : 0) + " µs" }
        if magnitude < 1e9 { return fixed(value / 1e6, magnitude < 1e8 ? 1 : 0) + " ms" }
        return fixed(value / 1e9, magnitude < 1e11 ? 2 : 0) + " s"
    }

    /// A duration with an explicit sign, for changes: `+310 ms`, `-5.0 ms`.
    public static func signedDuration(_ nanoseconds: Int64?) -> String {
        guard let nanoseconds else { return "-" }
        return (nanoseconds >= 0 ? "+" : "") + duration(nanoseconds)
    }

    /// A whole number with thousands separators: `1,000,000`.
    public static func count(_ value: Int64?) -> String {
        guard let value else { return "-" }
        let digits = String(value.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return (value < 0 ? "-" : "") + out
    }

    /// A ratio as a percentage: `87%`; `-` when unknown.
    public static func percent(_ ratio: Double?) -> String {
        guard let ratio, ratio.isFinite else { return "-" }
        return fixed(ratio * 100, 0) + "%"
    }

    /// A rate with one decimal: `41.7`; `-` when unknown.
    public static func rate(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "-" }
        return fixed(value, 1)
    }

    /// `value` with `digits` decimals, rounded half away from zero, without Foundation's locale.
    package static func fixed(_ value: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        guard scaled < 0x1p53 else {
            // Past 2^53 a Double holds no fraction to print, and past 2^63 no Int64 holds it.
            let magnitude = abs(value).rounded()
            return (value < 0 ? "-" : "") + (magnitude < 0x1p63 ? String(Int64(magnitude)) : "\(magnitude)")
        }
        let units = Int64(scaled)
        let whole = units / Int64(scale)
        let fraction = units % Int64(scale)
        var text = String(whole)
        if digits > 0 {
            let fractionText = String(fraction)
            text += "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
        }
        return (value < 0 && scaled > 0 ? "-" : "") + text
    }
}

/// A plain text table: a header row, aligned columns, numbers on the right.
package struct TextTable {
    package enum Alignment { case left, right }
    package var columns: [(title: String, alignment: Alignment)]
    package var rows: [[String]] = []

    package init(_ columns: [(String, Alignment)]) {
        self.columns = columns.map { (title: $0.0, alignment: $0.1) }
    }

    /// Adds a row; cells must already be safe for the terminal.
    package mutating func add(_ cells: [String]) { rows.append(cells) }

    package func rendered(indent: String = "  ") -> String {
        var widths = columns.map(\.title.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.count)
            }
        }
        func line(_ cells: [String]) -> String {
            var parts: [String] = []
            for (index, column) in columns.enumerated() {
                let cell = index < cells.count ? cells[index] : ""
                parts.append(
                    column.alignment == .left
                        ? TerminalText.padded(cell, widths[index])
                        : TerminalText.rightAligned(cell, widths[index]))
            }
            var text = indent + parts.joined(separator: "  ")
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }
        var out = line(columns.map(\.title)) + "\n"
        for row in rows { out += line(row) + "\n" }
        return out
    }
}
