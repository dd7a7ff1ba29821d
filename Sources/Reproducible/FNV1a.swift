/// 64-bit FNV-1a: a fast, non-cryptographic hash that, unlike `Hasher`, gives the same value in
/// every process and run. The one implementation behind argument and instruction fingerprints,
/// output sketches, generated tool-call ids and the latency gate's bootstrap seeds.
public struct FNV1a: Sendable, Hashable {
    /// The hash of the bytes added so far.
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// A hash of nothing yet.
    public init() {}

    /// Mixes one byte in.
    @inline(__always)
    public mutating func add(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }

    /// Mixes `text`'s UTF-8 bytes in.
    public mutating func add(_ text: String) {
        for byte in text.utf8 { add(byte) }
    }

    /// The hash of `text`'s UTF-8 bytes.
    public static func hash(_ text: String) -> UInt64 {
        var hash = FNV1a()
        hash.add(text)
        return hash.value
    }

    /// The hash of `text` as 16 lowercase hex digits, zero-padded.
    public static func hex(_ text: String) -> String {
        let digits = String(hash(text), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
