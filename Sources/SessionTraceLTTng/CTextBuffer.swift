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

    /// Copies `source` to `target`, each NUL written as a space, a word at a time (``forEachWord``).
    /// Short texts, the common case, cost less so than a call to memcpy and one to memchr each.
    @inline(__always)
    static func copyWritingNULAsSpace(_ source: UnsafeBufferPointer<UInt8>, to target: UnsafeMutablePointer<UInt8>) {
        var copier = NULAsSpaceCopier(target: UnsafeMutableRawPointer(target))
        forEachWord(of: source, &copier)
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

/// Whether `bytes` holds a NUL, a word at a time (``forEachWord``), inline, which for short texts
/// costs less than a call to strlen or memchr.
@inline(__always)
func containsNUL(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var finder = NULFinder()
    forEachWord(of: bytes, &finder)
    return finder.found != 0
}

/// What is done with each word of a text that ``forEachWord(of:_:)`` reads.
protocol WordVisitor {
    /// Called with the `word` read at byte `offset` of the text: 8, 4, 2 or 1 bytes wide.
    mutating func visit<Word: FixedWidthInteger & UnsignedInteger>(_ word: Word, at offset: Int)
}

/// Reads every byte of `bytes` in a few whole words, none past its end, and hands each to
/// `visitor`: eight bytes at a time, then the last one to seven as two words of four, or of two,
/// that overlap, or as one byte. No byte-by-byte tail, so the short texts of a trace event take
/// two to four loads each. A visitor sees some bytes twice.
///
/// No load crosses a multiple of eight bytes from the start. A small string reaches here copied
/// to the stack in two stores of eight bytes, and a load across both cannot take its bytes from
/// them: it waits until both are written to the cache. Loading the last eight bytes of a 9- to
/// 15-byte text that way, as this did, took about half the time the request emitter spent copying
/// text.
@inline(__always)
func forEachWord<Visitor: WordVisitor>(of bytes: UnsafeBufferPointer<UInt8>, _ visitor: inout Visitor) {
    guard let base = bytes.baseAddress else { return }
    let from = UnsafeRawPointer(base)
    let count = bytes.count
    let whole = count & ~7
    var offset = 0
    while offset < whole {
        visitor.visit(from.loadUnaligned(fromByteOffset: offset, as: UInt64.self), at: offset)
        offset += 8
    }
    switch count - whole {
    case 4...:
        visitor.visit(from.loadUnaligned(fromByteOffset: whole, as: UInt32.self), at: whole)
        visitor.visit(from.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self), at: count - 4)
    case 2...:
        visitor.visit(from.loadUnaligned(fromByteOffset: whole, as: UInt16.self), at: whole)
        visitor.visit(from.loadUnaligned(fromByteOffset: count - 2, as: UInt16.self), at: count - 2)
    case 1:
        visitor.visit(from.load(fromByteOffset: whole, as: UInt8.self), at: whole)
    default:
        break
    }
}

/// Writes each word it is given to `target`, at the same offset, each NUL as a space.
struct NULAsSpaceCopier: WordVisitor {
    let target: UnsafeMutableRawPointer

    @inline(__always)
    mutating func visit<Word: FixedWidthInteger & UnsignedInteger>(_ word: Word, at offset: Int) {
        // Shifted down two bits, the 0x80 of each NUL is the space (0x20) to write there.
        target.storeBytes(of: word | (nulBytes(word) >> 2), toByteOffset: offset, as: Word.self)
    }
}

/// Gathers the NULs of the words it is given: `found` is 0 when there was none.
struct NULFinder: WordVisitor {
    var found: UInt64 = 0

    @inline(__always)
    mutating func visit<Word: FixedWidthInteger & UnsignedInteger>(_ word: Word, at offset: Int) {
        found |= UInt64(truncatingIfNeeded: nulBytes(word))
    }
}

/// 0x80 in each byte of `word` that is 0, and 0 in every other byte.
@inline(__always)
func nulBytes<Word: FixedWidthInteger & UnsignedInteger>(_ word: Word) -> Word {
    let low7 = Word(truncatingIfNeeded: 0x7f7f_7f7f_7f7f_7f7f as UInt64)
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
