import Foundation

/// Takes the usage-only chunk (`"choices": []` with `usage`) out of an OpenAI chat event stream
/// on its way to the client, when the proxy asked for it (``StreamUsageRequest``), and the
/// `,"usage":null` that OpenAI's API then adds to every other chunk: every other byte reaches the
/// client unchanged, and an event as soon as its closing blank line came.
///
/// Memory is bounded: past ``maximumEventSize`` bytes of one unfinished event the filter gives
/// up and passes the rest through untouched.
struct UsageChunkFilter {
    static let maximumEventSize = ResponseTap.maximumEventSize
    /// The member `include_usage` adds to each chunk, as OpenAI's API writes it. It cannot occur
    /// inside a JSON string, where its quotes would be escaped.
    private static let nullUsage = Array(#","usage":null"#.utf8)
    private static let usageKey = Array(#""usage""#.utf8)

    /// Bytes of events not yet complete.
    private var pending: [UInt8] = []
    /// Where the line being read starts, and how far `pending` was scanned.
    private var lineStart = 0
    private var scanned = 0
    /// The `data:` values of the event being read, joined by newlines.
    private var data: [UInt8] = []
    private var gaveUp = false
    /// How many usage-only chunks were taken out.
    private(set) var removedChunks = 0

    /// The bytes of `bytes` (and of those before it) that go to the client now.
    mutating func pass(_ bytes: [UInt8]) -> [UInt8] {
        if gaveUp { return bytes }
        pending += bytes
        var output: [UInt8] = []
        var eventStart = 0
        var index = scanned
        scan: while index < pending.count {
            let byte = pending[index]
            guard byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") else {
                index += 1
                continue
            }
            var contentEnd = index
            if byte == UInt8(ascii: "\r") {
                // A CR ends the line alone or as CRLF: wait to see which.
                if index + 1 == pending.count { break scan }
                if pending[index + 1] == UInt8(ascii: "\n") {
                    index += 1
                    continue
                }
            } else if index > lineStart, pending[index - 1] == UInt8(ascii: "\r") {
                contentEnd = index - 1
            }
            let next = index + 1
            if contentEnd == lineStart {
                // A blank line ends the event.
                if isUsageOnly() {
                    removedChunks += 1
                } else if data.offset(of: Self.nullUsage) != nil {
                    output += Self.removingNullUsage(from: pending[eventStart..<next])
                } else {
                    output.append(contentsOf: pending[eventStart..<next])
                }
                eventStart = next
                data = []
            } else {
                readField(pending[lineStart..<contentEnd])
            }
            lineStart = next
            index = next
        }
        pending.removeFirst(eventStart)
        lineStart -= eventStart
        scanned = index - eventStart
        if pending.count > Self.maximumEventSize {
            gaveUp = true
            output += pending
            pending = []
        }
        return output
    }

    /// What is left at the end of the body: an unfinished event, as it came.
    mutating func finish() -> [UInt8] {
        defer { pending = [] }
        return pending
    }

    private static func removingNullUsage(from event: ArraySlice<UInt8>) -> [UInt8] {
        var kept: [UInt8] = []
        var rest = event
        while let found = rest.offset(of: nullUsage) {
            kept += rest[rest.startIndex..<found]
            rest = rest[(found + nullUsage.count)...]
        }
        return kept + rest
    }

    private mutating func readField(_ line: ArraySlice<UInt8>) {
        let prefix = Array("data:".utf8)
        guard line.starts(with: prefix) else { return }
        var value = line.dropFirst(prefix.count)
        if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        if !data.isEmpty { data.append(UInt8(ascii: "\n")) }
        data.append(contentsOf: value)
    }

    private func isUsageOnly() -> Bool {
        // Most chunks carry no usage, or `"usage":null`: look at the bytes before parsing.
        guard data.count > 2, data.offset(of: Self.usageKey) != nil, data.offset(of: Self.nullUsage) == nil,
              let object = try? JSONSerialization.jsonObject(with: Data(data)) as? [String: Any],
              let choices = object["choices"] as? [Any], choices.isEmpty
        else { return false }
        return object["usage"] is [String: Any]
    }
}

extension Collection<UInt8> where Self: ContiguousBytes {
    /// The index where `needle` (not empty) first starts, or nil: `memchr` to each candidate
    /// first byte, then `memcmp`.
    fileprivate func offset(of needle: [UInt8]) -> Index? {
        let found: Int? = withUnsafeBytes { haystack in
            needle.withUnsafeBytes { needle in
                guard let base = haystack.baseAddress, needle.count <= haystack.count else { return nil }
                var start = 0
                let last = haystack.count - needle.count
                while start <= last,
                      let hit = memchr(base + start, Int32(needle[0]), last - start + 1) {
                    let at = base.distance(to: UnsafeRawPointer(hit))
                    if memcmp(base + at, needle.baseAddress!, needle.count) == 0 { return at }
                    start = at + 1
                }
                return nil
            }
        }
        return found.map { index(startIndex, offsetBy: $0) }
    }
}
