import Foundation

/// Text whose slashes or characters are JSON-escaped (`postgres:\/\/app:pw@db`, `a\u0026b`), as
/// a copy with those escapes decoded and, for each byte of the copy, where it came from.
///
/// The scanners read `/` and the other ASCII they look for literally, so they run over the copy
/// and their findings are mapped back onto the text: every rule sees a URL, a webhook path or a
/// base64 body as it was before it was escaped. `\/` and `\uXXXX` are decoded at any depth of
/// escaping (a run of backslashes, as in `\\\/`, stands for one escape). The scanners read `\"`,
/// `\n`, `\r` and `\t` in place, so those are only brought down to one level when escaped twice
/// or more (`\\\"` becomes `\"`). Text without such escapes is scanned as it is, at the cost of
/// one search for a backslash.
struct EscapedText {
    /// The text with its slash and `\u` escapes decoded.
    private(set) var bytes: [UInt8] = []
    /// `origin[k]` is where in the text the byte or escape that became `bytes[k]` starts;
    /// `origin[bytes.count]` is the text's length.
    private(set) var origin: [Int] = []

    /// Nil when the text has no escape to decode.
    init?(_ b: UnsafeBufferPointer<UInt8>) {
        var i = Self.backslash(in: b, from: 0)
        var copied = 0
        while i < b.count {
            var j = i
            while j < b.count && b[j] == UInt8(ascii: "\\") { j += 1 }
            if let (decoded, end) = Self.escaped(b, from: i, at: j) {
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
            i = Self.backslash(in: b, from: j)
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

    /// The offset of the next backslash at or after `from`, or the text's length.
    private static func backslash(in b: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        guard from < b.count, let base = b.baseAddress,
              let found = memchr(base + from, Int32(UInt8(ascii: "\\")), b.count - from)
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
