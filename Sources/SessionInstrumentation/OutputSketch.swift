import Reproducible

/// A MinHash sketch of a text's words: 32 values that estimate how much two texts overlap
/// without keeping a word of either.
///
/// The words are the maximal runs of ASCII letters and digits and of non-ASCII bytes, ASCII
/// letters lowercased; each is hashed with the 64-bit FNV-1a of ``Fingerprint`` (`FNV1a`). Value `i` of
/// the sketch is the least of `(a[i] * h + b[i]) >> 32` over the words' hashes `h`, for 32 fixed
/// odd multipliers `a[i]` and offsets `b[i]` (multiply-add-shift hashing). The share of
/// positions at which two sketches agree estimates the Jaccard similarity of the two word sets
/// (standard error about `sqrt(J(1-J)/32)`, under 0.09). A text without words has every value
/// `UInt32.max`.
package enum OutputSketch {
    /// Values in a sketch.
    static let size = 32

    /// The sketch of `text`.
    package static func of(_ text: String) -> [UInt32] {
        var text = text
        var minima = [UInt64](repeating: .max, count: size)
        text.withUTF8 { bytes in
            minima.withUnsafeMutableBufferPointer { minima in
                multipliers.withUnsafeBufferPointer { multipliers in
                    offsets.withUnsafeBufferPointer { offsets in
                        var hash = FNV1a()
                        var inWord = false
                        // One step past the end, as a space, ends the last word.
                        for index in 0...bytes.count {
                            var byte = index < bytes.count ? bytes[index] : 0x20
                            if byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") { byte |= 0x20 }
                            let inWordByte =
                                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte >= 0x80
                            if inWordByte {
                                hash.add(byte)
                                inWord = true
                            } else if inWord {
                                for slot in 0..<size {
                                    let value = (multipliers[slot] &* hash.value &+ offsets[slot]) >> 32
                                    if value < minima[slot] { minima[slot] = value }
                                }
                                hash = FNV1a()
                                inWord = false
                            }
                        }
                    }
                }
            }
        }
        return minima.map { UInt32(truncatingIfNeeded: $0) }
    }

    /// The multipliers and offsets: a fixed SplitMix64 sequence, so every recorder makes the same
    /// sketch of the same text. Changing them makes old and new sketches incomparable.
    private static let (multipliers, offsets): ([UInt64], [UInt64]) = {
        var generator = SplitMix64(seed: 0x5345_5353_494f_4e54)  // "SESSIONT"
        let pairs = (0..<size).map { _ in (generator.next() | 1, generator.next()) }
        return (pairs.map(\.0), pairs.map(\.1))
    }()
}
