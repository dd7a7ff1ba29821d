import SessionTrace

extension Dictionary where Key == String, Value == TraceMetadataValue {
    /// Parses the flat JSON object `TraceMetadata.jsonObject` writes back into metadata.
    ///
    /// Numbers written without `.`, `e` or `E` read as `.int`, others as `.double`, which is how
    /// `jsonObject` writes them; `null` (a non-finite double) reads as `.double(.nan)`.
    /// Returns nil for text that is not such an object.
    public init?(jsonObject text: String) {
        var parser = FlatJSONParser(Array(text.utf8))
        guard let metadata = parser.parseObject() else { return nil }
        self = metadata
    }
}

/// Just enough JSON for one flat object of strings, numbers, booleans and null.
private struct FlatJSONParser {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func parseObject() -> TraceMetadata? {
        skipSpace()
        guard consume(UInt8(ascii: "{")) else { return nil }
        var result: TraceMetadata = [:]
        skipSpace()
        if consume(UInt8(ascii: "}")) { return atEnd() ? result : nil }
        while true {
            skipSpace()
            guard let key = parseString() else { return nil }
            skipSpace()
            guard consume(UInt8(ascii: ":")) else { return nil }
            skipSpace()
            guard let value = parseValue() else { return nil }
            result[key] = value
            skipSpace()
            if consume(UInt8(ascii: ",")) { continue }
            guard consume(UInt8(ascii: "}")) else { return nil }
            return atEnd() ? result : nil
        }
    }

    private mutating func atEnd() -> Bool {
        skipSpace()
        return index == bytes.count
    }

    private mutating func parseValue() -> TraceMetadataValue? {
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "\""): return parseString().map { .string($0) }
        case UInt8(ascii: "t"): return consumeWord("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return consumeWord("false") ? .bool(false) : nil
        case UInt8(ascii: "n"): return consumeWord("null") ? .double(.nan) : nil
        default: return parseNumber()
        }
    }

    private mutating func parseNumber() -> TraceMetadataValue? {
        let start = index
        var isInteger = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                isInteger = false
            } else if !(byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte))
            {
                break
            }
            index += 1
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let value = Int64(text) { return .int(value) }
        return Double(text).map { .double($0) }
    }

    private mutating func parseString() -> String? {
        guard consume(UInt8(ascii: "\"")) else { return nil }
        var scalars = String.UnicodeScalarView()
        var run = index
        func flush(_ end: Int) {
            scalars.append(contentsOf: String(decoding: bytes[run..<end], as: UTF8.self).unicodeScalars)
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                flush(index)
                index += 1
                return String(scalars)
            }
            guard byte == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            flush(index)
            index += 1
            guard index < bytes.count else { return nil }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "b"): scalars.append("\u{8}")
            case UInt8(ascii: "f"): scalars.append("\u{C}")
            case UInt8(ascii: "u"):
                guard let unit = parseHex4() else { return nil }
                if (0xD800..<0xDC00).contains(unit), consume(UInt8(ascii: "\\")), consume(UInt8(ascii: "u")),
                    let low = parseHex4(), (0xDC00..<0xE000).contains(low)
                {
                    let value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
                } else {
                    scalars.append(Unicode.Scalar(unit) ?? "\u{FFFD}")
                }
            default: return nil
            }
            run = index
        }
        return nil
    }

    private mutating func parseHex4() -> UInt32? {
        guard index + 4 <= bytes.count,
            let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
        else { return nil }
        index += 4
        return value
    }

    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func consumeWord(_ word: String) -> Bool {
        let utf8 = Array(word.utf8)
        guard index + utf8.count <= bytes.count, Array(bytes[index..<index + utf8.count]) == utf8 else {
            return false
        }
        index += utf8.count
        return true
    }
}
