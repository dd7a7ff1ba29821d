import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Records intervals and model-session events to a sink.
///
/// ```swift
/// let tracer = Tracer(sink: try StoreSink(path: "run.sqlite"), label: "nightly")
/// try await tracer.withInterval("PlanDay", metadata: ["requestLength": 42]) { interval in
///     let plan = try await planner.plan()
///     interval.metadata["steps"] = .int(Int64(plan.steps.count))
/// }
/// tracer.flush()
/// ```
///
/// Scoped calls: ``withInterval(_:metadata:_:)`` for your own work,
/// ``withRequest(provider:model:profile:isolation:_:)`` for a model request from any client, and
/// ``withSession(_:isolation:_:)``. Libraries that are not handed a tracer use ``current``.
///
/// Recording never throws into the caller and never blocks it.
public final class Tracer: Sendable {
    /// Where events go: the sink given, behind the ``payloadRedaction`` when there is one. Internal:
    /// callers record through ``record(_:kind:)`` and the scoped calls, so the tracer sees every event.
    @usableFromInline let sink: any TraceSink
    /// The sink's ``TraceSink/enabledWord(_:)`` for each kind, by raw value, asked once: where
    /// there is one, ``isEnabled(_:)`` is a load of it rather than a call into the sink. A kind
    /// beyond its slots, were one added, is asked by a call.
    @usableFromInline let enabledWords: InlineArray<10, EnabledWord?>
    /// The sink's ``TraceSink/recordsRequestsInPlace``, asked once.
    private let recordsRequestsInPlace: Bool
    /// The clock every timestamp and duration of this tracer is read from.
    public let clock: any TraceClock
    /// The run this tracer records; every id it makes carries it in its upper half.
    public let runID: Int64
    /// Unique among this process's tracers, never reused: what a ``TraceContext`` names it by.
    let number = Tracer.takeNumber()
    /// Redacts the text of every event before any sink keeps it: run and session labels, host and
    /// command line, profile, model, interval and instant names, metadata values, handoff values,
    /// errors and captured payloads. Payload capture is off while this is nil. Where it runs is the
    /// sink's choice (``TraceSink/redacting(_:)``): on the caller's thread for LTTng, on the writer
    /// thread for a `StoreSink`.
    public let payloadRedaction: (@Sendable (String) -> String)?

    private let nextSequence = Atomic<Int64>(1)
    /// ``TraceContext/current``'s task-local, held so that reading it skips the check that a
    /// static property is initialized (`swift_once`) on every event.
    let contextLocal = TraceContext.$current
    /// Whether ``clock`` is the ``MonotonicClock``, which ``now()`` then reads directly rather than
    /// through the existential: one call fewer on every event.
    private let readsMonotonicClock: Bool

    /// Creates a tracer and records its ``RunRecord``.
    public init(
        sink: any TraceSink,
        clock: any TraceClock = MonotonicClock(),
        label: String? = nil,
        commandLine: String = CommandLine.arguments.joined(separator: " "),
        gitRevision: String? = nil,
        payloadRedaction: (@Sendable (String) -> String)? = nil
    ) {
        let sink = payloadRedaction.map { sink.redacting($0) } ?? sink
        self.sink = sink
        self.enabledWords = InlineArray { TraceEventKind(rawValue: $0).flatMap(sink.enabledWord) }
        self.recordsRequestsInPlace = sink.recordsRequestsInPlace
        self.clock = clock
        self.readsMonotonicClock = clock is MonotonicClock
        self.payloadRedaction = payloadRedaction
        // 31 random bits keep ids from two runs in one store apart and positive as SQLite INTEGERs.
        self.runID = Int64(UInt32.random(in: 1...UInt32(Int32.max))) << 32
        enterLiving()
        if isEnabled(.run) {
            self.sink.record(
                .run(
                    RunRecord(
                        runID: runID, ts: clock.now(), wallClockStart: clock.wallClockNow(),
                        host: Self.hostName(), commandLine: commandLine, gitRevision: gitRevision,
                        label: label)))
        }
    }

    deinit { leaveLiving() }

    /// A new id, unique in this run and, with high probability, across runs.
    public func makeID() -> Int64 {
        runID | nextSequence.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    /// Monotonic nanoseconds on the tracer's clock.
    @inline(__always)
    public func now() -> Int64 { readsMonotonicClock ? MonotonicClock().now() : clock.now() }

    /// Whether the sink records events of `kind`; check it before building a costly record.
    ///
    /// Inlinable so that, with the kind disabled, a caller in another module pays for the check
    /// alone: a load of the sink's ``EnabledWord`` where it has one, not a call.
    @inlinable @inline(__always)
    public func isEnabled(_ kind: TraceEventKind) -> Bool {
        if kind.rawValue < enabledWords.count, let word = enabledWords[kind.rawValue] {
            word.isSet
        } else {
            sink.isEnabled(kind)
        }
    }

    /// Records a typed event if its kind is enabled.
    @inline(__always)
    public func record(_ event: @autoclosure () -> TraceEvent, kind: TraceEventKind) {
        if isEnabled(kind) { sink.record(event()) }
    }

    /// Records a request if requests are enabled; the way to record one, which a sink that writes
    /// at once, or queues it, takes without the box of a ``TraceEvent`` (``TraceSink/record(request:)``).
    @inline(__always)
    public func record(request: @autoclosure () -> RequestRecord) {
        guard isEnabled(.request) else { return }
        if recordsRequestsInPlace {
            var request = request()
            sink.recordInPlace(request: &request)
        } else {
            sink.record(request: request())
        }
    }

    /// Records an instant event, parented to the current interval.
    ///
    /// Inlinable so that, with the kind disabled, a caller in another module pays for the check
    /// alone (``isEnabled(_:)``), not for a call into this module.
    @inlinable
    public func instant(_ name: String, metadata: @autoclosure () -> TraceMetadata = [:]) {
        guard isEnabled(.instant) else { return }
        recordInstant(name, metadata: metadata())
    }

    /// Takes its texts owned, so it moves them into the record rather than retaining them.
    @usableFromInline
    func recordInstant(_ name: consuming String, metadata: consuming TraceMetadata) {
        sink.record(
            .instant(
                InstantRecord(instantID: makeID(), parentID: currentParentID, ts: now(), name: name, metadata: metadata)))
    }

    /// Records `text` as a payload of `parentID`, redacted, if payload capture is on.
    public func capturePayload(_ kind: PayloadRecord.Kind, _ text: @autoclosure () -> String, parentID: Int64?) {
        guard payloadRedaction != nil, isEnabled(.payload) else { return }
        // The sink redacts here (`redacting(_:)`), the text with every other field.
        sink.record(
            .payload(PayloadRecord(payloadID: makeID(), parentID: parentID, ts: now(), kind: kind,
                                   text: text())))
    }

    /// Waits until everything recorded so far is durable in the sink, or counted as dropped.
    public func flush() { sink.flush() }

    private static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "unknown" }
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
