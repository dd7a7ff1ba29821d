import Reproducible

/// A MinHash sketch (``MinHash``) of a text's words: 32 values that estimate how much two texts
/// overlap without keeping a word of either.
///
/// The words are the maximal runs of ASCII letters and digits and of non-ASCII bytes, ASCII
/// letters lowercased, each hashed with 64-bit FNV-1a. The words of a **volatile token** are set
/// aside: a token (a run of bytes between white space, quotes and `,;=()[]{}<>|`, without a
/// trailing `.:!?`) of at most 64 bytes that has a ``VolatileShape`` (a UUID, a timestamp, a
/// generated id). So two answers that differ only in an echoed request id or a check time have
/// the same sketch, while a changed word or number still changes it.
package enum OutputSketch {
    /// The longest token that can be volatile; the words of a longer one always count.
    static let longestVolatileToken = 64

    /// The sketch of `text`.
    package static func of(_ text: String) -> [UInt32] {
        var text = text
        var minima = [UInt64](repeating: .max, count: MinHash.size)
        // The hashes of the current token's words, held until the token is known not to be volatile.
        var pending: [UInt64] = []
        pending.reserveCapacity(longestVolatileToken / 2)
        text.withUTF8 { bytes in
            minima.withUnsafeMutableBufferPointer { minima in
                MinHash.multipliers.withUnsafeBufferPointer { multipliers in
                    MinHash.offsets.withUnsafeBufferPointer { offsets in
                        byteClasses.withUnsafeBufferPointer { classes in
                            @inline(__always) func fold(_ hash: UInt64) {
                                for slot in 0..<MinHash.size {
                                    let value = (multipliers[slot] &* hash &+ offsets[slot]) >> 32
                                    if value < minima[slot] { minima[slot] = value }
                                }
                            }
                            func endToken(at end: Int, start: Int) {
                                guard !pending.isEmpty else { return }
                                var last = end
                                while last > start, trailing(bytes[last - 1]) { last -= 1 }
                                let token = UnsafeBufferPointer(rebasing: bytes[start..<last])
                                if end - start > longestVolatileToken || VolatileShape.of(token) == nil {
                                    pending.forEach(fold)
                                }
                                pending.removeAll(keepingCapacity: true)
                            }
                            var hash = FNV1a()
                            var inWord = false
                            var tokenStart = 0
                            // One step past the end, as a space, ends the last word and token.
                            for index in 0...bytes.count {
                                var byte = index < bytes.count ? bytes[index] : 0x20
                                let kind = classes[Int(byte)]
                                if kind == word {
                                    if byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") { byte |= 0x20 }
                                    hash.add(byte)
                                    inWord = true
                                    continue
                                }
                                if inWord {
                                    if index - tokenStart > longestVolatileToken {
                                        pending.forEach(fold)
                                        pending.removeAll(keepingCapacity: true)
                                        fold(hash.value)
                                    } else {
                                        pending.append(hash.value)
                                    }
                                    hash = FNV1a()
                                    inWord = false
                                }
                                if kind == separator {
                                    endToken(at: index, start: tokenStart)
                                    tokenStart = index + 1
                                }
                            }
                        }
                    }
                }
            }
        }
        return minima.map { UInt32(truncatingIfNeeded: $0) }
    }

    private static let word: UInt8 = 1
    private static let separator: UInt8 = 2

    /// Each byte's class: a word byte, a token separator, or other punctuation (0).
    private static let byteClasses: [UInt8] = (0...255).map { value in
        let byte = UInt8(value)
        if byte >= 0x80 || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || (byte >= 0x30 && byte <= 0x39) {
            return word
        }
        return byte <= 0x20 || Array(#""',;=()[]{}<>|`"#.utf8).contains(byte) ? separator : 0
    }

    private static func trailing(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "!") || byte == UInt8(ascii: "?")
    }
}
