import SessionTrace
import SessionTraceTesting

/// The records a ``MemorySink`` holds, by kind, in the order they were recorded.
extension MemorySink {
    public var intervals: [IntervalRecord] {
        recorded.compactMap { if case .interval(let record) = $0 { record } else { nil } }
    }
    public var instants: [InstantRecord] {
        recorded.compactMap { if case .instant(let record) = $0 { record } else { nil } }
    }
    public var requests: [RequestRecord] {
        recorded.compactMap { if case .request(let record) = $0 { record } else { nil } }
    }
    public var toolCalls: [ToolCallRecord] {
        recorded.compactMap { if case .toolCall(let record) = $0 { record } else { nil } }
    }
    public var handoffs: [HandoffRecord] {
        recorded.compactMap { if case .handoff(let record) = $0 { record } else { nil } }
    }
    public var sessions: [SessionRecord] {
        recorded.compactMap { if case .session(let record) = $0 { record } else { nil } }
    }
    public var payloads: [PayloadRecord] {
        recorded.compactMap { if case .payload(let record) = $0 { record } else { nil } }
    }
    public var chunks: [ChunkRecord] {
        recorded.compactMap { if case .chunk(let record) = $0 { record } else { nil } }
    }
}
