import Foundation

/// Text whose slashes or characters are JSON-escaped (`postgres:\/\/app:pw@db`, `a\u0026b`), as
/// a copy with those escapes decoded and, for each byte of the copy, where it came from.
///
/// The scanners read `/` and the other ASCII they look for literally, so they run over the copy
/// and their findings are mapped back onto the text: every rule sees a URL, a webhook path or a
/// base64 body as it was before it was escaped. `\/` and `\uXXXX` are decoded at any depth of
/// escaping (a run of backslashes, as in `\\\/`, stands for one escape). The scanners read `\"`,
/// `\n`, `\r` and `\t` in place, so those are only brought down to one level when escaped twice
/// or more (`\\\"` becomes `\"`).
///
/// Full-width forms are folded the same way: `０１５１ ２３４５６７８９` and `ｓｋ－…` (U+FF01–U+FF5E,
/// and the ideographic space U+3000) become their ASCII letters, digits and signs, as Unicode's
/// compatibility normalization (NFKC) makes them, so phone numbers, cards and keys typed on a
/// Japanese, Chinese or Korean keyboard are found as their ASCII forms are. Text without escapes
/// or full-width forms is scanned as it is, at the cost of one search for a backslash and one
/// for the lead byte of a full-width form.
struct EscapedText {
    /// The text with its slash and `\u` escapes decoded.
    private(set) var bytes: [UInt8] = []
    /// `origin[k]` is where in the text the byte or escape that became `bytes[k]` starts;
    /// `origin[bytes.count]` is the text's length.
    private(set) var origin: [Int] = []

    /// Nil when the text has no escape to decode.
    init?(_ b: UnsafeBufferPointer<UInt8>) {
        var nextBackslash = Self.next(UInt8(ascii: "\\"), in: b, from: 0)
        var nextWide = Self.next(0xEF, in: b, from: 0)
        var nextSpace = Self.next(0xE3, in: b, from: 0)
        var i = min(nextBackslash, nextWide, nextSpace)
        var copied = 0
        while i < b.count {
            var j = i
            var replacement: ([UInt8], Int)?
            if b[i] == UInt8(ascii: "\\") {
                while j < b.count && b[j] == UInt8(ascii: "\\") { j += 1 }
                replacement = Self.escaped(b, from: i, at: j)
            } else {
                j = i + 1
                replacement = Self.fullWidth(b, at: i)
            }
            if let (decoded, end) = replacement {
                if bytes.isEmpty {
                    bytes.reserveCapacity(b.count)
                    origin.reserveCapacity(b.count + 1)
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: b[copied..<i]))
                origin.append(contentsOf: copied..<i)
                bytes.append(contentsOf: decoded)
                origin.append(contentsOf: repeatElement(i, count: decoded.count))
                copied = end
                j = end
            }
            // Each search runs again only once passed, so the text is searched once for each.
            if nextBackslash < j { nextBackslash = Self.next(UInt8(ascii: "\\"), in: b, from: j) }
            if nextWide < j { nextWide = Self.next(0xEF, in: b, from: j) }
            if nextSpace < j { nextSpace = Self.next(0xE3, in: b, from: j) }
            i = min(nextBackslash, nextWide, nextSpace)
        }
        guard copied > 0 else { return nil }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: b[copied..<b.count]))
        origin.append(contentsOf: copied...b.count)
    }

    /// A finding in the decoded copy, as the range of the text it came from.
    func original(_ f: Finding) -> Finding {
        Finding(start: origin[f.start], end: origin[f.end], kind: f.kind)
    }

    /// What the escape whose backslashes run from `i` to `j` decodes to, and where it ends.
    private static func escaped(_ b: UnsafeBufferPointer<UInt8>, from i: Int, at j: Int) -> ([UInt8], Int)? {
        guard j < b.count else { return nil }
        switch b[j] {
        case UInt8(ascii: "/"): return ([UInt8(ascii: "/")], j + 1)
        case UInt8(ascii: "\""), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            // Escaped twice or more: once, as the scanners read it.
            return j - i > 1 ? ([UInt8(ascii: "\\"), b[j]], j + 1) : nil
        default: break
        }
        guard b[j] == UInt8(ascii: "u"), let value = hexQuad(b, at: j + 1),
              let scalar = Unicode.Scalar(value) else { return nil }
        return (Array(String(Character(scalar)).utf8), j + 5)
    }

    /// The ASCII form of the full-width form (or ideographic space) whose UTF-8 starts at `i`, and
    /// where it ends; nil when none starts there.
    private static func fullWidth(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> ([UInt8], Int)? {
        guard i + 2 < b.count else { return nil }
        switch (b[i], b[i + 1], b[i + 2]) {
        case (0xEF, 0xBC, 0x81...0xBF): return ([b[i + 2] - 0x81 + 0x21], i + 3)  // U+FF01–FF3F: ! to _
        case (0xEF, 0xBD, 0x80...0x9E): return ([b[i + 2] - 0x80 + 0x60], i + 3)  // U+FF40–FF5E: ` to ~
        case (0xE3, 0x80, 0x80): return ([UInt8(ascii: " ")], i + 3)  // U+3000
        default: return nil
        }
    }

    /// The offset of the next `byte` at or after `from`, or the text's length.
    private static func next(_ byte: UInt8, in b: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        guard from < b.count, let base = b.baseAddress, let found = memchr(base + from, Int32(byte), b.count - from)
        else { return b.count }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
}

/// The value of four hex digits at `at`, as in a `\uXXXX` escape; nil when they are not there.
func hexQuad(_ s: UnsafeBufferPointer<UInt8>, at: Int) -> UInt32? {
    guard at + 4 <= s.count else { return nil }
    var value: UInt32 = 0
    for k in 0..<4 {
        let c = s[at + k]
        guard isHex(c) else { return nil }
        value = value << 4 | UInt32(isDigit(c) ? c - 0x30 : (c | 0x20) - 0x61 + 10)
    }
    return value
}
