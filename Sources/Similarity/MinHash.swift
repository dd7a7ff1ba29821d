import Reproducible

/// The one MinHash family every output sketch is made with: 32 multiply-add-shift hashes.
///
/// Value `i` of a sketch is the least of `(a[i] * h + b[i]) >> 32` over the 64-bit FNV-1a hashes
/// `h` of the text's terms, for 32 fixed odd multipliers `a[i]` and offsets `b[i]`. The share of
/// positions at which two sketches agree estimates the Jaccard similarity of the two term sets
/// (standard error about `sqrt(J(1-J)/32)`, under 0.09). A text without terms has every value
/// `UInt32.max`.
package enum MinHash {
    /// Values in a sketch.
    package static let size = 32

    /// The multipliers and offsets: a fixed SplitMix64 sequence, so every recorder makes the same
    /// sketch of the same text. Changing them makes old and new sketches incomparable.
    package static let (multipliers, offsets): ([UInt64], [UInt64]) = {
        var generator = SplitMix64(seed: 0x5345_5353_494f_4e54)  // "SESSIONT"
        let pairs = (0..<size).map { _ in (generator.next() | 1, generator.next()) }
        return (pairs.map(\.0), pairs.map(\.1))
    }()
}
