/// The whole conversation of a session, in order.
///
/// A history transform changes what the model sees for one request; the session's transcript
/// stays whole.
public struct Transcript: Sendable, Hashable, RandomAccessCollection {
    /// One turn or tool exchange.
    public enum Entry: Sendable, Hashable {
        case prompt(String)
        case response(String)
        case toolCalls([ToolCallRequest])
        case toolOutput(ToolOutput)
    }

    public var entries: [Entry]

    public init(entries: [Entry] = []) { self.entries = entries }

    public var startIndex: Int { entries.startIndex }
    public var endIndex: Int { entries.endIndex }
    public subscript(position: Int) -> Entry { entries[position] }
}
