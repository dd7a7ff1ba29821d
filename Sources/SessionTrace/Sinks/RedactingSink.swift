/// Passes every event through ``TraceEvent/redacted(by:)`` on the caller's thread before its sink
/// sees it: the default ``TraceSink/redacting(_:)``, for sinks that write at once (LTTng, memory).
struct RedactingSink: TraceSink {
    let base: any TraceSink
    let redact: @Sendable (String) -> String

    func isEnabled(_ kind: TraceEventKind) -> Bool { base.isEnabled(kind) }

    func enabledWord(_ kind: TraceEventKind) -> EnabledWord? { base.enabledWord(kind) }

    func record(_ event: TraceEvent) { base.record(event.redacted(by: redact)) }

    func flush() { base.flush() }
}
