/// Protocol Buffers' binary wire format, the little of it OTLP needs: varints, fixed 32- and
/// 64-bit numbers, doubles, and length-delimited strings, bytes and messages.
///
/// ```swift
/// var writer = ProtobufWriter()
/// writer.message(1) { span in span.string(5, "chat") }
/// ```
struct ProtobufWriter {
    private(set) var bytes: [UInt8] = []

    /// Wire types: the low three bits of a field's tag.
    private enum WireType: UInt64 {
        case varint = 0, fixed64 = 1, lengthDelimited = 2, fixed32 = 5
    }

    private mutating func tag(_ field: UInt64, _ type: WireType) { varint(field << 3 | type.rawValue) }

    private mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// An `int64`, `uint32`, `bool` or enum field: negative numbers take ten bytes, as the format says.
    mutating func varint(_ field: UInt64, _ value: Int64) {
        tag(field, .varint)
        varint(UInt64(bitPattern: value))
    }

    mutating func bool(_ field: UInt64, _ value: Bool) { varint(field, value ? 1 : 0) }

    mutating func fixed64(_ field: UInt64, _ value: UInt64) {
        tag(field, .fixed64)
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    mutating func fixed32(_ field: UInt64, _ value: UInt32) {
        tag(field, .fixed32)
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    mutating func double(_ field: UInt64, _ value: Double) { fixed64(field, value.bitPattern) }

    mutating func bytes(_ field: UInt64, _ value: [UInt8]) {
        tag(field, .lengthDelimited)
        varint(UInt64(value.count))
        bytes += value
    }

    mutating func string(_ field: UInt64, _ value: String) { bytes(field, Array(value.utf8)) }

    /// A nested message, written by `body` into a writer of its own.
    mutating func message(_ field: UInt64, _ body: (inout ProtobufWriter) -> Void) {
        var nested = ProtobufWriter()
        body(&nested)
        bytes(field, nested.bytes)
    }
}
