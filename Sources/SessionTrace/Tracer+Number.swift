import Synchronization

/// Each tracer's number, and the tracers alive by number: a ``TraceContext`` names its tracer by
/// number, so that copying a context copies no reference.
extension Tracer {
    /// The number the next tracer takes.
    private static let nextNumber = Atomic<UInt64>(1)
    /// Every tracer alive, by number, held weakly: a tracer leaves when it is freed.
    private static let livingTracers = Mutex<[UInt64: WeakTracer]>([:])

    /// A number no tracer of this process had before: 1, 2, and so on; 0 is no tracer.
    static func takeNumber() -> UInt64 { nextNumber.wrappingAdd(1, ordering: .relaxed).oldValue }

    /// The tracer numbered `number`, if it is alive.
    static func living(number: UInt64) -> Tracer? {
        number == 0 ? nil : livingTracers.withLock { $0[number]?.tracer }
    }

    /// Lists this tracer among the living, once its init has set every property.
    func enterLiving() { Self.livingTracers.withLock { $0[number] = WeakTracer(tracer: self) } }

    /// Takes this tracer off the living, as it is freed.
    func leaveLiving() { _ = Self.livingTracers.withLock { $0.removeValue(forKey: number) } }
}

/// A tracer held without keeping it alive; nil once it is being freed.
private struct WeakTracer: Sendable {
    weak var tracer: Tracer?
}
