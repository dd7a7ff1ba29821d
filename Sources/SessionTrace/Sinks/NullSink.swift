/// Records nothing; every kind is disabled. The tracer's cost with no sink at all.
public struct NullSink: TraceSink {
    /// A sink that records nothing.
    public init() {}
    /// Always false: no event is built for this sink.
    public func isEnabled(_ kind: TraceEventKind) -> Bool { false }
    /// ``EnabledWord/never``.
    public func enabledWord(_ kind: TraceEventKind) -> EnabledWord? { .never }
    /// Does nothing.
    public func record(_ event: TraceEvent) {}
    /// Does nothing.
    public func flush() {}
}
