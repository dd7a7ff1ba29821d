import SessionTrace
import Synchronization

/// A clock that advances only when told, so tests assert exact times.
final class TestClock: TraceClock {
    private let time = Mutex<Int64>(1_000)

    func now() -> Int64 { time.withLock { $0 } }
    func wallClockNow() -> Int64 { 1_700_000_000_000_000_000 }
    func advance(by nanoseconds: Int64) { time.withLock { $0 += nanoseconds } }
}

extension MemorySink {
    var intervals: [IntervalRecord] {
        recorded.compactMap { if case .interval(let record) = $0 { record } else { nil } }
    }
    var instants: [InstantRecord] {
        recorded.compactMap { if case .instant(let record) = $0 { record } else { nil } }
    }
}
