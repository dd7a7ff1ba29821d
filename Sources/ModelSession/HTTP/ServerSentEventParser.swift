import Foundation

/// Turns arbitrary chunks of an `text/event-stream` body into events (WHATWG rules:
/// `field: value` lines, `:` comments, a blank line dispatches, CRLF or LF).
struct ServerSentEventParser {
    private var partialLine: [UInt8] = []
    private var eventName: String?
    private var dataLines: [String] = []

    /// The events completed by `chunk`; a line split across chunks waits for its end.
    mutating func consume(_ chunk: Data) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in chunk {
            if byte == UInt8(ascii: "\n") {
                if partialLine.last == UInt8(ascii: "\r") { partialLine.removeLast() }
                if let event = processLine(String(decoding: partialLine, as: UTF8.self)) {
                    events.append(event)
                }
                partialLine.removeAll(keepingCapacity: true)
            } else {
                partialLine.append(byte)
            }
        }
        return events
    }

    /// The event still pending when the body ends without its blank line, if any.
    mutating func finish() -> ServerSentEvent? {
        if !partialLine.isEmpty {
            let line = String(decoding: partialLine, as: UTF8.self)
            partialLine.removeAll()
            _ = processLine(line)
        }
        return dispatch()
    }

    /// Whether bytes or data lines are waiting for the rest of their event.
    var hasPendingInput: Bool { !partialLine.isEmpty || !dataLines.isEmpty }

    private mutating func processLine(_ line: String) -> ServerSentEvent? {
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
        case "data": dataLines.append(String(value))
        case "event": eventName = String(value)
        default: break  // id, retry and unknown fields do not matter here
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            eventName = nil
            dataLines.removeAll()
        }
        guard !dataLines.isEmpty else { return nil }
        return ServerSentEvent(event: eventName, data: dataLines.joined(separator: "\n"))
    }
}
