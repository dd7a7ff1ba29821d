import SessionTrace
import Synchronization

/// A clock for tests: it reads the time a test chooses, so every `ts` a tracer writes is known in
/// advance. It moves only when told (``advance(by:)``, ``set(_:)``), or by a fixed `step` on every
/// reading; wall-clock time moves with it, from `wallClock` at `start`.
///
/// ```swift
/// let clock = TestClock(at: 5_000_000_000)
/// let tracer = Tracer(sink: MemorySink(), clock: clock)
/// clock.advance(by: 120_000_000)   // 120 ms later
/// ```
public final class TestClock: TraceClock {
    private let start: Int64
    private let wallClockStart: Int64
    private let step: Int64
    private let time: Mutex<Int64>

    /// A clock that reads `start` nanoseconds (plus `step` more at each reading, the first
    /// included), and `wallClock` nanoseconds since the Unix epoch at `start`.
    public init(at start: Int64 = 1_000, wallClock: Int64 = 1_700_000_000_000_000_000, step: Int64 = 0) {
        self.start = start
        self.wallClockStart = wallClock
        self.step = step
        time = Mutex(start)
    }

    public func now() -> Int64 {
        time.withLock { time in
            time += step
            return time
        }
    }

    public func wallClockNow() -> Int64 { wallClockStart + (time.withLock { $0 } - start) }

    /// Moves the clock on by `nanoseconds`.
    public func advance(by nanoseconds: Int64) { time.withLock { $0 += nanoseconds } }

    /// Sets the clock to `nanoseconds`.
    public func set(_ nanoseconds: Int64) { time.withLock { $0 = nanoseconds } }
}
