/// Records nothing; every kind is disabled. The tracer's cost with no sink at all.
public struct NullSink: TraceSink {
    public init() {}
    public func isEnabled(_ kind: TraceEventKind) -> Bool { false }
    public func record(_ event: TraceEvent) {}
    public func flush() {}
}
