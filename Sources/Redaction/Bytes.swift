// Byte classes for the hand-written scanners. The scanners walk UTF-8 bytes: every pattern
// they look for is ASCII, and a byte comparison is an order of magnitude cheaper than a
// `Character` or a regular expression step.

@inline(__always) func isDigit(_ c: UInt8) -> Bool { c &- 0x30 < 10 }
@inline(__always) func isAlpha(_ c: UInt8) -> Bool { (c | 0x20) &- 0x61 < 26 }
@inline(__always) func isUpper(_ c: UInt8) -> Bool { c &- 0x41 < 26 }
@inline(__always) func isLower(_ c: UInt8) -> Bool { c &- 0x61 < 26 }
@inline(__always) func isAlnum(_ c: UInt8) -> Bool { isDigit(c) || isAlpha(c) }
@inline(__always) func isWordByte(_ c: UInt8) -> Bool { isAlnum(c) || c == UInt8(ascii: "_") }
@inline(__always) func isHex(_ c: UInt8) -> Bool { isDigit(c) || (c | 0x20) &- 0x61 < 6 }
@inline(__always) func lower(_ c: UInt8) -> UInt8 { isUpper(c) ? c | 0x20 : c }
@inline(__always) func isBlank(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }
@inline(__always) func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }

/// Which classes of ASCII characters a run of bytes holds.
struct CharacterMix {
    var digit = false, upper = false, lower = false

    init(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) {
        for c in bytes {
            if isDigit(c) {
                digit = true
            } else if isUpper(c) {
                upper = true
            } else if isLower(c) {
                lower = true
            }
        }
    }
}

/// The characters a token body may contain, per provider format.
enum TokenCharacters: Sendable {
    /// `[A-Za-z0-9]`
    case alnum
    /// `[A-Za-z0-9_]`
    case alnumUnderscore
    /// `[A-Za-z0-9-]`
    case alnumDash
    /// `[A-Za-z0-9_-]`, base64url without padding.
    case base64url
    /// `[A-Za-z0-9_.-]`
    case base64urlDot
    /// `[A-Za-z0-9_=-]`
    case base64urlEquals
    /// `[A-Za-z0-9+/=_-]`, either base64 alphabet with padding.
    case base64
    /// `[a-z0-9]`
    case lowerDigit
    /// `[0-9a-fA-F]`
    case hex
    /// `[A-Z0-9]`
    case upperDigit

    @inline(__always) func contains(_ c: UInt8) -> Bool {
        switch self {
        case .alnum: isAlnum(c)
        case .alnumUnderscore: isWordByte(c)
        case .alnumDash: isAlnum(c) || c == UInt8(ascii: "-")
        case .base64url: isWordByte(c) || c == UInt8(ascii: "-")
        case .base64urlDot: isWordByte(c) || c == UInt8(ascii: "-") || c == UInt8(ascii: ".")
        case .base64urlEquals: isWordByte(c) || c == UInt8(ascii: "-") || c == UInt8(ascii: "=")
        case .base64:
            isWordByte(c) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: "/")
                || c == UInt8(ascii: "=")
        case .lowerDigit: isLower(c) || isDigit(c)
        case .hex: isHex(c)
        case .upperDigit: isUpper(c) || isDigit(c)
        }
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether `literal` occurs at `index` (case-sensitive).
    @inline(__always) func has(_ literal: StaticString, at index: Int) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index >= 0, index + count <= self.count else { return false }
        let bytes = literal.utf8Start
        for k in 0..<count where self[index + k] != bytes[k] { return false }
        return true
    }

    /// Whether `literal` (lowercase ASCII) occurs at `index`, ignoring ASCII case.
    @inline(__always) func hasIgnoringCase(_ literal: StaticString, at index: Int) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index >= 0, index + count <= self.count else { return false }
        let bytes = literal.utf8Start
        for k in 0..<count where lower(self[index + k]) != bytes[k] { return false }
        return true
    }

    /// The first index at or after `from` where `literal` occurs, or nil.
    func firstIndex(of literal: StaticString, from: Int) -> Int? {
        let count = literal.utf8CodeUnitCount
        guard count > 0 else { return from }
        let first = literal.utf8Start[0]
        var i = from
        while i + count <= self.count {
            if self[i] == first && has(literal, at: i) { return i }
            i += 1
        }
        return nil
    }

    /// Whether `literal` (lowercase ASCII) occurs anywhere in `range`, ignoring ASCII case.
    func containsIgnoringCase(_ literal: StaticString, in range: Range<Int>) -> Bool {
        let count = literal.utf8CodeUnitCount
        var i = range.lowerBound
        while i + count <= range.upperBound {
            if hasIgnoringCase(literal, at: i) { return true }
            i += 1
        }
        return false
    }
}
