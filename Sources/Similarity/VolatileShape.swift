/// The shapes of values that change from one call to the next without the content changing: the
/// one table behind two judgments. The chronic-break analysis names a changed prompt prefix by
/// them (`PrefixChange`), and an output sketch sets tokens of them aside, so a tool that answers
/// the same thing with a fresh request id or check time gives the same sketch (``OutputSketch``).
///
/// Matched on bytes, with no regular expressions, because the sketch runs on the traced
/// program's thread:
///
/// - `uuid`: the text holds 8-4-4-4-12 hex digits;
/// - `timestamp`: the text holds a date (`2026-06-02`) or a time of day (`09:41`), or is a Unix time
///   of 10 to 13 digits (a fraction after a dot allowed);
/// - `identifier`: the text is one generated id: at least 8 letters, digits, `_` and `-`, with
///   letters and digits alternating at least three times (`req_8f3a2b91`, `01HX3KQ7`), or at least
///   16 hex digits. A word with a number after it (`other399`, `utf8`) is not one.
///
/// Whole numbers are not in the table: a changed count or percentage is a changed result, and a
/// counter in a prompt prefix is named by comparing the two regions (`PrefixChange.counter`).
package enum VolatileShape: Sendable, Hashable {
    case uuid
    case timestamp
    case identifier

    /// The shape of `text`, checked in the order above; nil when it has none.
    package static func of(_ text: some Collection<UInt8>) -> VolatileShape? {
        let bytes = Array(text)
        return bytes.withUnsafeBufferPointer { of($0) }
    }

    /// The shape of `bytes`, as ``of(_:)-(Collection<UInt8>)`` reads it.
    package static func of(_ bytes: UnsafeBufferPointer<UInt8>) -> VolatileShape? {
        if holdsUUID(bytes) { return .uuid }
        if holdsDate(bytes) || holdsTimeOfDay(bytes) || isUnixTime(bytes) { return .timestamp }
        if isIdentifier(bytes) { return .identifier }
        return nil
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    private static func isHex(_ byte: UInt8) -> Bool {
        isDigit(byte) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66)
    }

    /// Whether `pattern` (`h` a hex digit, `d` a digit, anything else itself) occurs in `bytes`.
    private static func holds(_ pattern: StaticString, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = pattern.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        let shape = UnsafeBufferPointer(start: pattern.utf8Start, count: count)
        for start in 0...(bytes.count - count) {
            var matches = true
            for offset in 0..<count {
                let byte = bytes[start + offset]
                switch shape[offset] {
                case UInt8(ascii: "h"): matches = isHex(byte)
                case UInt8(ascii: "d"): matches = isDigit(byte)
                case let literal: matches = byte == literal
                }
                if !matches { break }
            }
            if matches { return true }
        }
        return false
    }

    private static func holdsUUID(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        holds("hhhhhhhh-hhhh-hhhh-hhhh-hhhhhhhhhhhh", in: bytes)
    }

    private static func holdsDate(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        holds("dddd-dd-dd", in: bytes)
    }

    /// One or two digits, a colon and two digits, not preceded by a digit.
    private static func holdsTimeOfDay(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 4 else { return false }
        for colon in 1..<(bytes.count - 2) where bytes[colon] == UInt8(ascii: ":") {
            guard isDigit(bytes[colon - 1]), isDigit(bytes[colon + 1]), isDigit(bytes[colon + 2]) else { continue }
            var start = colon - 1
            if start > 0, isDigit(bytes[start - 1]) { start -= 1 }
            if start == 0 || !isDigit(bytes[start - 1]) { return true }
        }
        return false
    }

    /// 10 to 13 digits, optionally a dot and more digits.
    private static func isUnixTime(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var digits = 0
        while digits < bytes.count, isDigit(bytes[digits]) { digits += 1 }
        guard (10...13).contains(digits) else { return false }
        guard digits < bytes.count else { return true }
        guard bytes[digits] == UInt8(ascii: "."), digits + 1 < bytes.count else { return false }
        return bytes[(digits + 1)...].allSatisfy(isDigit)
    }

    private static func isIdentifier(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 8 else { return false }
        var alternations = 0
        var previous: Bool?  // true after a digit, false after a letter
        var allHex = true
        for byte in bytes {
            let digit = isDigit(byte)
            guard digit || isLetter(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") else {
                return false
            }
            allHex = allHex && isHex(byte)
            guard digit || isLetter(byte) else { continue }
            if let previous, previous != digit { alternations += 1 }
            previous = digit
        }
        return alternations >= 3 || (allHex && bytes.count >= 16)
    }
}
