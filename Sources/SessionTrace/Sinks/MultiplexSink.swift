/// Sends every event to several sinks at once, for example LTTng and the SQLite store.
public struct MultiplexSink: TraceSink {
    /// The sinks every event goes to, in order.
    public let sinks: [any TraceSink]

    /// A sink sending each event to every sink of `sinks` that enables its kind.
    public init(_ sinks: [any TraceSink]) {
        self.sinks = sinks
    }

    /// Whether any of the sinks enables `kind`.
    public func isEnabled(_ kind: TraceEventKind) -> Bool {
        for sink in sinks where sink.isEnabled(kind) { return true }
        return false
    }

    /// ``EnabledWord/always`` if a sink always enables `kind`, ``EnabledWord/never`` if none ever
    /// does, the word of the one sink that may when there is one; else nil, as the answer depends
    /// on several sinks.
    public func enabledWord(_ kind: TraceEventKind) -> EnabledWord? {
        let words = sinks.map { $0.enabledWord(kind) }
        if words.contains(where: { $0?.isAlways == true }) { return .always }
        let open = words.filter { $0?.isNever != true }
        if open.isEmpty { return .never }
        return open.count == 1 ? open[0] : nil
    }

    /// Records `event` in every sink that enables its kind.
    public func record(_ event: TraceEvent) {
        let kind = event.kind
        for sink in sinks where sink.isEnabled(kind) { sink.record(event) }
    }

    /// Records `request` in every sink that enables requests, unboxed and without a copy where it
    /// can be: a sink that writes at once reads it in place (``TraceSink/recordInPlace(request:)``),
    /// the last sink that keeps it gets the record itself, and any other that keeps it a copy.
    public func record(request: consuming RequestRecord) {
        var request = request
        var keeper: Int?
        for index in sinks.indices where sinks[index].isEnabled(.request) {
            if sinks[index].recordsRequestsInPlace {
                sinks[index].recordInPlace(request: &request)
                continue
            }
            if let previous = keeper { sinks[previous].record(request: copy request) }
            keeper = index
        }
        if let keeper { sinks[keeper].record(request: consume request) }
    }

    /// True when every sink writes requests at once, as LTTng sinks do.
    public var recordsRequestsInPlace: Bool { sinks.allSatisfy(\.recordsRequestsInPlace) }

    /// Lends `request` to every sink that enables requests; each writes it at once.
    public func recordInPlace(request: inout RequestRecord) {
        for sink in sinks where sink.isEnabled(.request) { sink.recordInPlace(request: &request) }
    }

    /// Each sink redacting as it does alone: a sink that redacts off the caller's thread still can.
    public func redacting(_ redact: @escaping @Sendable (String) -> String) -> any TraceSink {
        MultiplexSink(sinks.map { $0.redacting(redact) })
    }

    /// Flushes every sink, in order.
    public func flush() {
        for sink in sinks { sink.flush() }
    }
}
