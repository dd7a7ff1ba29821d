import SessionTrace
import Synchronization

/// A clock that advances only when told, so tests assert exact times.
public final class TestClock: TraceClock {
    private let time: Mutex<Int64>

    /// A clock that reads `start` nanoseconds until it is advanced.
    public init(at start: Int64 = 1_000) { time = Mutex(start) }

    public func now() -> Int64 { time.withLock { $0 } }
    public func wallClockNow() -> Int64 { 1_700_000_000_000_000_000 }
    /// Moves the clock on by `nanoseconds`.
    public func advance(by nanoseconds: Int64) { time.withLock { $0 += nanoseconds } }
}
