/// Sends every event to several sinks at once, for example LTTng and the SQLite store.
public struct MultiplexSink: TraceSink {
    public let sinks: [any TraceSink]

    public init(_ sinks: [any TraceSink]) {
        self.sinks = sinks
    }

    public func isEnabled(_ kind: TraceEventKind) -> Bool {
        for sink in sinks where sink.isEnabled(kind) { return true }
        return false
    }

    public func record(_ event: TraceEvent) {
        let kind = event.kind
        for sink in sinks where sink.isEnabled(kind) { sink.record(event) }
    }

    public func flush() {
        for sink in sinks { sink.flush() }
    }
}
