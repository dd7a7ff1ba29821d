/// A destination for trace events. One small protocol; one sink per file.
///
/// `record` must not throw and must not block the caller: a sink that cannot keep up counts
/// what it could not record and reports it as a ``DroppedRecord``.
public protocol TraceSink: Sendable {
    /// Whether events of `kind` would be recorded; checked before any event is built.
    func isEnabled(_ kind: TraceEventKind) -> Bool
    /// Records one event. The sink owns it: one that keeps the event, or takes it apart, does so
    /// without a copy (declare the witness `consuming` as well).
    func record(_ event: consuming TraceEvent)
    /// Returns once every event recorded so far is durable, or counted as dropped.
    func flush()
}
