import SessionTrace
import Synchronization

/// Keeps every event in memory, in order: for tests. A product of its own, `SessionTraceTesting`, as
/// swift-log ships `InMemoryLogging`, so no production build links it by accident.
public final class MemorySink: TraceSink {
    private let events = Mutex<[TraceEvent]>([])
    private let enabledKinds: Set<TraceEventKind>

    /// A sink keeping the events of `enabledKinds` (every kind by default).
    public init(enabledKinds: Set<TraceEventKind> = Set(TraceEventKind.allCases)) {
        self.enabledKinds = enabledKinds
    }

    /// Whether `kind` is one of the kinds this sink keeps.
    public func isEnabled(_ kind: TraceEventKind) -> Bool { enabledKinds.contains(kind) }

    /// Fixed for the life of the sink: ``EnabledWord/always`` or ``EnabledWord/never``.
    public func enabledWord(_ kind: TraceEventKind) -> EnabledWord? { .constant(isEnabled(kind)) }

    /// Appends `event` to the recorded events.
    public func record(_ event: TraceEvent) {
        events.withLock { $0.append(event) }
    }

    /// Does nothing: events are kept as they are recorded.
    public func flush() {}

    /// Every event recorded so far.
    public var recorded: [TraceEvent] { events.withLock { $0 } }

    /// Forgets every event recorded so far.
    public func removeAll() { events.withLock { $0.removeAll() } }
}
