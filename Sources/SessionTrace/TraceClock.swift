#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A source of time for the tracer: monotonic nanoseconds, injected so tests control time.
public protocol TraceClock: Sendable {
    /// Monotonic nanoseconds; only differences between two readings mean anything.
    func now() -> Int64
    /// Nanoseconds since the Unix epoch, read once at the start of a run.
    func wallClockNow() -> Int64
}

/// The system's monotonic clock (`CLOCK_MONOTONIC`), the same clock LTTng-UST stamps events with.
public struct MonotonicClock: TraceClock {
    /// The system's monotonic clock.
    public init() {}

    /// Nanoseconds of `CLOCK_MONOTONIC`.
    @inlinable
    public func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) &* 1_000_000_000 &+ Int64(spec.tv_nsec)
    }

    /// Nanoseconds of `CLOCK_REALTIME` since the Unix epoch.
    public func wallClockNow() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) &* 1_000_000_000 &+ Int64(spec.tv_nsec)
    }
}
