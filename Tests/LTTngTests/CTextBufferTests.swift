@testable import SessionTraceLTTng
import Testing

/// The copy that turns the request's and tool call's texts into C strings, checked against its
/// definition: every byte as it is, each NUL as a space, then one NUL.
struct CTextBufferTests {
    @Test("each text is copied whole, NUL as a space and terminated, whatever its length and where its NULs are")
    func copiesEveryLengthAndNULPosition() {
        var generator = SystemRandomNumberGenerator()
        // Every length up to five words, so each way of covering a text with overlapping words
        // (two, four and eight bytes wide) is taken, inline (small) strings and heap ones alike.
        for length in 0...40 {
            for _ in 0..<50 {
                let random = (0..<length).map { _ in
                    Bool.random(using: &generator) ? 0 : UInt8.random(in: 1...0xff, using: &generator)
                }
                // Bytes that are not UTF-8 become U+FFFD in the string: expect what it holds.
                let text = String(decoding: random, as: UTF8.self)
                let bytes = Array(text.utf8)
                let expected = bytes.map { $0 == 0 ? 0x20 : $0 } + [0]
                let copied = CTextBuffer.with(capacity: CTextBuffer.size(text)) { texts in
                    let pointer = texts.append(text)
                    return Array(UnsafeRawBufferPointer(start: pointer, count: expected.count))
                }
                #expect(copied == expected, "\(bytes)")
            }
        }
    }

    @Test("a NUL is found whatever the length and wherever it stands, and none is found where there is none")
    func findsEveryNUL() {
        for length in 0...40 {
            let clean = [UInt8](repeating: 0x61, count: length)
            #expect(!clean.withUnsafeBufferPointer(containsNUL), "length \(length)")
            for position in 0..<length {
                var bytes = clean
                bytes[position] = 0
                #expect(bytes.withUnsafeBufferPointer(containsNUL), "length \(length), NUL at \(position)")
            }
        }
        // Bytes with the high bit set, as UTF-8 holds, are not NULs.
        let accented = Array("déjà vu, naïve café".utf8)
        #expect(!accented.withUnsafeBufferPointer(containsNUL))
    }

    @Test("texts follow one another in the buffer, and an absent text is the empty C string")
    func textsFollowOneAnother() {
        let first = "economy"
        let second = "a fingerprint longer than sixteen bytes"
        let absent: String? = nil
        let capacity = CTextBuffer.size(first) + CTextBuffer.size(absent) + CTextBuffer.size(second)
        #expect(capacity == first.utf8.count + second.utf8.count + 2)
        let strings = CTextBuffer.with(capacity: capacity) { texts in
            [texts.append(first), texts.append(absent), texts.append(second)].map { String(cString: $0) }
        }
        #expect(strings == [first, "", second])
    }
}
