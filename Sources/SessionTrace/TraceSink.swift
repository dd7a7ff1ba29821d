/// A destination for trace events. One small protocol; one sink per file.
///
/// `record` must not throw and must not block the caller: a sink that cannot keep up counts
/// what it could not record and reports it as a ``DroppedRecord``.
public protocol TraceSink: Sendable {
    /// Whether events of `kind` would be recorded; checked before any event is built.
    func isEnabled(_ kind: TraceEventKind) -> Bool
    /// Where ``isEnabled(_:)`` for `kind` can be read with one load, so that a ``Tracer`` checks a
    /// disabled kind without a call; nil, the default, when only ``isEnabled(_:)`` can answer.
    /// The word must be set exactly when ``isEnabled(_:)`` would answer true.
    func enabledWord(_ kind: TraceEventKind) -> EnabledWord?
    /// Records one event. The sink owns it: one that keeps the event, or takes it apart, does so
    /// without a copy (declare the witness `consuming` as well).
    func record(_ event: consuming TraceEvent)
    /// Records one request, as `record(.request(request))` does, which is the default. The sink
    /// owns it, as it owns an event, but without the event's box, which costs a heap allocation: a
    /// sink that writes the record at once reads it where the caller built it, and one that queues
    /// it moves it into its queue unboxed, as `StoreSink` does (a box allocated on the caller's
    /// thread and freed on another costs both threads).
    func record(request: consuming RequestRecord)
    /// Whether this sink writes a request at once and keeps none of it (a tracepoint): then the
    /// caller lends it each request with ``recordInPlace(request:)``, and hands it over with
    /// ``record(request:)`` otherwise. False, the default. Fixed for the sink's life: a ``Tracer``
    /// asks once. So a ``MultiplexSink`` gives one request to every sink that writes at once and
    /// moves it into one that keeps it, with no copy of its strings (a retain and a release each)
    /// for any of them.
    var recordsRequestsInPlace: Bool { get }
    /// Records `request` where the caller holds it, reading it and leaving it as it is; asked of a
    /// sink whose ``recordsRequestsInPlace`` is true. It is `inout` only so that the sink reads it
    /// where the caller holds it: a borrowed record this large is copied to the stack to be
    /// addressed (about 500 bytes, read back just after they were written).
    func recordInPlace(request: inout RequestRecord)
    /// Returns once every event recorded so far is durable, or counted as dropped.
    func flush()
    /// This sink, keeping every event only with its free text redacted by `redact`
    /// (``TraceEvent/redacted(by:)``); a ``Tracer`` with a ``Tracer/payloadRedaction`` records
    /// through it.
    ///
    /// By default each event is redacted on the caller's thread before this sink sees it, which a
    /// sink that writes at once (a tracepoint) needs. A sink that queues events may redact them
    /// where it writes them instead, off the caller's thread, as `StoreSink` does: raw text then
    /// waits in its queue, in memory, but never reaches a file or a tracepoint unredacted.
    func redacting(_ redact: @escaping @Sendable (String) -> String) -> any TraceSink
}

extension TraceSink {
    /// None: the tracer calls ``isEnabled(_:)``.
    public func enabledWord(_ kind: TraceEventKind) -> EnabledWord? { nil }

    /// Boxes the request into its event and records that.
    public func record(request: consuming RequestRecord) { record(.request(request)) }

    /// False: this sink must own the records it is given.
    public var recordsRequestsInPlace: Bool { false }

    /// Records a copy of `request` with ``record(request:)``.
    public func recordInPlace(request: inout RequestRecord) { record(request: copy request) }

    /// Redacts each event on the caller's thread, then records it here.
    public func redacting(_ redact: @escaping @Sendable (String) -> String) -> any TraceSink {
        RedactingSink(base: self, redact: redact)
    }
}
