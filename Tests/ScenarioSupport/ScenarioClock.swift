import SessionTrace
import Synchronization

/// The scenario's time: it moves only when the scripted model or a scripted tool spends time,
/// so every timestamp of a scenario store is chosen, not measured, and the same on every run.
public final class ScenarioClock: TraceClock {
    /// An arbitrary, realistic uptime of 1000 s at the run's start.
    public static let origin: Int64 = 1_000_000_000_000
    private let time = Mutex<Int64>(ScenarioClock.origin)

    public init() {}

    public func now() -> Int64 { time.withLock { $0 } }
    public func wallClockNow() -> Int64 { 1_780_000_000_000_000_000 + (now() - Self.origin) }

    /// Moves the clock on by `nanoseconds`.
    public func advance(by nanoseconds: Int64) { time.withLock { $0 += nanoseconds } }
}
