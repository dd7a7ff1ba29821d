import Foundation

/// Turns arbitrary chunks of a streamed body into events, holding at most `maximumEventSize`
/// bytes of one line and of one event's data. A `text/event-stream` body follows the WHATWG
/// rules (`field: value` lines, `:` comments, a blank line dispatches, CRLF or LF); in a JSON
/// Lines body (Ollama's `application/x-ndjson`) each line that is not blank is one event's data.
package struct ServerSentEventParser {
    /// A line or an event's data grew past ``maximumEventSize``.
    package struct TooLarge: Error {}

    let maximumEventSize: Int
    package let framing: StreamFraming
    private var partialLine: [UInt8] = []
    private var eventName: String?
    private var dataLines: [String] = []
    private var dataSize = 0

    package init(maximumEventSize: Int, framing: StreamFraming = .serverSentEvents) {
        self.maximumEventSize = maximumEventSize
        self.framing = framing
    }

    /// The events completed by `chunk`; a line split across chunks waits for its end.
    package mutating func consume(_ chunk: UnsafeRawBufferPointer) throws(TooLarge) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        var start = chunk.startIndex
        while start < chunk.endIndex {
            guard let found = memchr(chunk.baseAddress! + start, 0x0A, chunk.endIndex - start) else {
                try keep(chunk[start...])
                break
            }
            let newline = chunk.baseAddress!.distance(to: found)
            let event: ServerSentEvent?
            if partialLine.isEmpty {
                guard newline - start <= maximumEventSize else { throw TooLarge() }
                event = try processLine(chunk[start..<newline])
            } else {
                try keep(chunk[start..<newline])
                event = try processLine(partialLine[...])
                partialLine.removeAll(keepingCapacity: true)
            }
            if let event { events.append(event) }
            start = newline + 1
        }
        return events
    }

    /// Whether bytes or data lines are waiting for the rest of their event.
    package var hasPendingInput: Bool { !partialLine.isEmpty || !dataLines.isEmpty }

    private mutating func keep(_ bytes: Slice<UnsafeRawBufferPointer>) throws(TooLarge) {
        guard partialLine.count + bytes.count <= maximumEventSize else { throw TooLarge() }
        partialLine.append(contentsOf: bytes)
    }

    private mutating func processLine<Line: BidirectionalCollection<UInt8>>(
        _ bytes: Line
    ) throws(TooLarge) -> ServerSentEvent? {
        var line = String(decoding: bytes, as: UTF8.self)
        if line.hasSuffix("\r") { line.removeLast() }
        if framing == .jsonLines {
            return line.allSatisfy(\.isWhitespace) ? nil : ServerSentEvent(event: nil, data: line)
        }
        if line.isEmpty { return dispatch() }
        if line.hasPrefix(":") { return nil }
        let field: Substring
        var value: Substring
        if let colon = line.firstIndex(of: ":") {
            field = line[..<colon]
            value = line[line.index(after: colon)...]
            if value.hasPrefix(" ") { value = value.dropFirst() }
        } else {
            field = Substring(line)
            value = ""
        }
        switch field {
        case "data":
            dataSize += value.utf8.count + 1
            guard dataSize <= maximumEventSize + 1 else { throw TooLarge() }
            dataLines.append(String(value))
        case "event": eventName = String(value)
        default: break  // id, retry and unknown fields do not matter here
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            eventName = nil
            dataLines.removeAll()
            dataSize = 0
        }
        guard !dataLines.isEmpty else { return nil }
        return ServerSentEvent(event: eventName, data: dataLines.joined(separator: "\n"))
    }
}
