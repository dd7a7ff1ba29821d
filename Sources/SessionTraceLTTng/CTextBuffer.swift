/// The text fields of one event as C strings, copied one after another into one buffer on the stack:
/// one pass over each text, with no closure and no reference count per field.
///
/// A NUL inside a text would end its C string, and the field, early: it is written as a space.
/// An absent text is written as "", which the reader reads as absent again.
///
/// ```swift
/// let capacity = CTextBuffer.size(record.name) + CTextBuffer.size(record.error)
/// CTextBuffer.with(capacity: capacity) { texts in
///     st_emit_example(texts.append(record.name), texts.append(record.error))
/// }
/// ```
struct CTextBuffer: ~Copyable {
    private var cursor: UnsafeMutablePointer<UInt8>

    /// The bytes that `text` takes in the buffer, its terminating NUL included.
    @inline(__always)
    static func size(_ text: borrowing String) -> Int { text.utf8.count + 1 }

    /// The bytes that `text` takes in the buffer: none when it is absent.
    @inline(__always)
    static func size(_ text: borrowing String?) -> Int {
        switch text {
        case .some(let text): size(text)
        case .none: 0
        }
    }

    /// Calls `body` with a buffer of `capacity` bytes: on the stack unless the thread's stack
    /// could not hold it.
    @inline(__always)
    static func with<Result>(capacity: Int, _ body: (inout CTextBuffer) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, capacity)) { bytes in
            var buffer = CTextBuffer(cursor: bytes.baseAddress!)
            return body(&buffer)
        }
    }

    /// `text` as a C string in the buffer, which must have the room that ``size(_:)-(String)`` gave.
    @inline(__always)
    mutating func append(_ text: borrowing String) -> UnsafePointer<CChar> {
        let start = cursor
        let count =
            text.utf8.withContiguousStorageIfAvailable { source in
                Self.copyWritingNULAsSpace(source, to: start)
                return source.count
            } ?? Self.copyByteByByte(text, to: start)
        start[count] = 0
        cursor = start + count + 1
        return UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self)
    }

    /// Copies a text Swift does not store contiguously (one bridged from elsewhere) to `target`,
    /// each NUL written as a space; returns its length. Kept out of line: no native string needs it.
    @inline(never)
    static func copyByteByByte(_ text: borrowing String, to target: UnsafeMutablePointer<UInt8>) -> Int {
        var index = 0
        for byte in text.utf8 {
            target[index] = nulAsSpace(byte)
            index += 1
        }
        return index
    }

    /// Copies `source` to `target`, each NUL written as a space: eight bytes at a time, then the
    /// rest one by one. Short texts, the common case, cost less so than a call to memcpy and one
    /// to memchr each.
    @inline(__always)
    static func copyWritingNULAsSpace(_ source: UnsafeBufferPointer<UInt8>, to target: UnsafeMutablePointer<UInt8>) {
        guard let base = source.baseAddress else { return }
        let from = UnsafeRawPointer(base)
        let to = UnsafeMutableRawPointer(target)
        var index = 0
        while index + 8 <= source.count {
            let word = from.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            // Shifted down two bits, the 0x80 of each NUL is the space (0x20) to write there.
            to.storeBytes(of: word | (nulBytes(word) >> 2), toByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < source.count {
            target[index] = nulAsSpace(base[index])
            index += 1
        }
    }

    /// `text` as a C string in the buffer, or "" from the binary when it is absent.
    @inline(__always)
    mutating func append(_ text: borrowing String?) -> UnsafePointer<CChar> {
        switch text {
        case .some(let text): append(text)
        case .none: cLiteral("")
        }
    }
}

/// Whether `bytes` holds a NUL: eight bytes at a time, inline, which for short texts costs less
/// than a call to strlen or memchr.
@inline(__always)
func containsNUL(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = bytes.baseAddress else { return false }
    let from = UnsafeRawPointer(base)
    var index = 0
    var found: UInt64 = 0
    while index + 8 <= bytes.count {
        found |= nulBytes(from.loadUnaligned(fromByteOffset: index, as: UInt64.self))
        index += 8
    }
    while index < bytes.count {
        found |= base[index] == 0 ? 1 : 0
        index += 1
    }
    return found != 0
}

/// 0x80 in each byte of `word` that is 0, and 0 in every other byte.
@inline(__always)
func nulBytes(_ word: UInt64) -> UInt64 {
    let low7: UInt64 = 0x7f7f_7f7f_7f7f_7f7f
    return ~(((word & low7) &+ low7) | word | low7)
}

/// A byte of text as a C string may hold it: a NUL, which would end the string early, as a space.
@inline(__always)
func nulAsSpace(_ byte: UInt8) -> UInt8 { byte == 0 ? 0x20 : byte }

/// A literal as a C string, where the binary holds it: no copy, no check.
@inline(__always)
func cLiteral(_ literal: StaticString) -> UnsafePointer<CChar> {
    UnsafeRawPointer(literal.utf8Start).assumingMemoryBound(to: CChar.self)
}
