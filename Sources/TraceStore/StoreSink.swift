import Dispatch
import Foundation
import SessionTrace
import Synchronization

/// Records trace events into a SQLite store file, off the caller's thread.
///
/// `record` puts the event in a bounded queue and returns; a background thread writes the queue
/// in batched transactions. When the queue is full the event is counted as dropped, and the count
/// is written as a `dropped` row (sink `store`, reason `queue_full`); SQLite failures on the
/// writer thread are counted the same way (reason `sqlite_error`). Nothing is lost silently.
///
/// ```swift
/// let sink = try StoreSink(path: "run.sqlite")
/// let tracer = Tracer(sink: sink, label: "nightly")
/// ...
/// sink.close()   // or tracer.flush() to keep recording
/// ```
public final class StoreSink: TraceSink {
    /// Events written per transaction at most; larger batches are split.
    public static let maximumTransactionSize = 8192

    /// The store's file.
    public let path: String
    /// Events the queue holds before `record` starts dropping.
    public let capacity: Int
    private let enabledMask: UInt32
    private let engine: Engine

    /// Opens or creates the store at `path` (mode 0600) and starts its writer thread.
    ///
    /// - Parameters:
    ///   - capacity: events queued before `record` drops; 65,536 rides out bursts of a busy
    ///     program while the disk catches up.
    ///   - enabledKinds: the event kinds this sink records; all by default.
    /// - Throws: ``StoreError`` if the file cannot be created, is not a SessionTrace store, or
    ///   was written by a newer SessionTrace. Nothing after construction throws.
    public init(
        path: String, capacity: Int = 65_536,
        enabledKinds: Set<TraceEventKind> = Set(TraceEventKind.allCases)
    ) throws(StoreError) {
        precondition(capacity > 0, "a StoreSink needs room for at least one event")
        self.path = path
        self.capacity = capacity
        enabledMask = enabledKinds.reduce(0) { $0 | (1 << UInt32($1.rawValue)) }
        let writer = try StoreWriter(path: path)
        engine = Engine(writer: writer, capacity: capacity)
    }

    deinit {
        engine.close()
    }

    @inline(__always)
    public func isEnabled(_ kind: TraceEventKind) -> Bool {
        enabledMask & (1 << UInt32(kind.rawValue)) != 0
    }

    /// Queues `event` for the writer thread and returns at once; counts it as dropped if the
    /// queue is full or the sink is closed.
    public func record(_ event: TraceEvent) {
        engine.enqueue(event)
    }

    /// Blocks until every event recorded before the call is committed to the file, or counted
    /// as dropped and that count committed.
    public func flush() {
        engine.flush()
    }

    /// Flushes, stops the writer thread and closes the file, leaving it a self-contained store
    /// (no `-wal` beside it). Events recorded afterwards are counted under reason `closed`.
    public func close() {
        engine.close()
    }

    /// Events not recorded so far, by reason: `queue_full`, `sqlite_error`, `closed`.
    public var droppedCounts: [String: Int64] {
        engine.droppedCounts
    }
}

extension StoreSink {
    /// The queue, the writer thread and the accounting behind a ``StoreSink``.
    ///
    /// Apart from the sink so the thread can hold it without keeping the sink alive: a sink that
    /// goes out of scope closes its store.
    private final class Engine: Sendable {
        /// When the writer next expects work: while `busy` nobody signals it; while `napping`
        /// (a short timed wait) producers signal only once a batch is worth writing; while
        /// `sleeping` (idle for a while, untimed wait) the first event wakes it.
        enum WriterMode { case busy, napping, sleeping }

        struct State {
            var queue: [TraceEvent] = []
            var writerMode = WriterMode.busy
            /// Events dropped for a full queue and not yet handed to the writer.
            var pendingQueueFull: Int64 = 0
            var flushWaiters: [DispatchSemaphore] = []
            var closeWaiters: [DispatchSemaphore] = []
            var closeRequested = false
            /// Set when the writer has taken its last batch; later events count as `closed`.
            var acceptsEvents = true
            var finished = false
            var dropped: [String: Int64] = [:]
        }

        private let capacity: Int
        /// Queue length at which a napping writer is woken early.
        private let wakeThreshold: Int
        private let state: Mutex<State>
        private let wake = DispatchSemaphore(value: 0)

        /// Events both queue buffers hold before growing (about 1 MB each): enough for the bursts
        /// of most programs without the growth and fresh pages on the caller's thread.
        static let initialReservation = 4_096
        static let napNanoseconds = 10_000_000
        /// Empty naps in a row before the writer sleeps until woken (about one second idle).
        static let napsBeforeSleep = 100

        init(writer: StoreWriter, capacity: Int) {
            self.capacity = capacity
            wakeThreshold = max(1, min(1024, capacity / 4))
            var initial = State()
            initial.queue.reserveCapacity(min(capacity, Self.initialReservation))
            state = Mutex(initial)
            let thread = Thread { [self] in self.run(writer) }
            thread.name = "SessionTrace.StoreSink"
            thread.start()
        }

        @inline(__always)
        func enqueue(_ event: TraceEvent) {
            let signal = state.withLock { state -> Bool in
                guard state.queue.count < capacity, state.acceptsEvents else {
                    if state.acceptsEvents {
                        state.pendingQueueFull += 1
                        state.dropped["queue_full", default: 0] += 1
                    } else {
                        state.dropped["closed", default: 0] += 1
                    }
                    return false
                }
                state.queue.append(event)
                switch state.writerMode {
                case .busy:
                    return false
                case .napping where state.queue.count < wakeThreshold:
                    return false
                case .napping, .sleeping:
                    state.writerMode = .busy
                    return true
                }
            }
            if signal { wake.signal() }
        }

        func flush() {
            let done = DispatchSemaphore(value: 0)
            let (wait, signal) = state.withLock { state -> (Bool, Bool) in
                guard state.acceptsEvents else { return (false, false) }
                state.flushWaiters.append(done)
                let signal = state.writerMode != .busy
                state.writerMode = .busy
                return (true, signal)
            }
            if signal { wake.signal() }
            if wait { done.wait() }
        }

        func close() {
            let done = DispatchSemaphore(value: 0)
            let (wait, signal) = state.withLock { state -> (Bool, Bool) in
                guard !state.finished else { return (false, false) }
                state.closeRequested = true
                state.closeWaiters.append(done)
                let signal = state.writerMode != .busy
                state.writerMode = .busy
                return (true, signal)
            }
            if signal { wake.signal() }
            if wait { done.wait() }
        }

        var droppedCounts: [String: Int64] {
            state.withLock { $0.dropped }
        }

        private func countDropped(_ count: Int64, reason: String) {
            guard count > 0 else { return }
            state.withLock { $0.dropped[reason, default: 0] += count }
        }

        private enum Work {
            case write(queueFull: Int64, waiters: [DispatchSemaphore])
            case wait(WriterMode)
            case exit
        }

        /// The writer thread: takes the whole queue at a time and writes it.
        private func run(_ writer: StoreWriter) {
            var batch: [TraceEvent] = []
            batch.reserveCapacity(min(capacity, Self.initialReservation))
            /// Drops not yet written as `dropped` rows, carried over when a commit fails.
            var unwrittenQueueFull: Int64 = 0
            var unwrittenSQLiteErrors: Int64 = 0
            var emptyNaps = 0
            let clock = MonotonicClock()

            while true {
                let work = state.withLock { state -> Work in
                    if state.queue.isEmpty && state.pendingQueueFull == 0 && state.flushWaiters.isEmpty {
                        if state.closeRequested {
                            state.acceptsEvents = false
                            return .exit
                        }
                        state.writerMode = emptyNaps >= Self.napsBeforeSleep ? .sleeping : .napping
                        return .wait(state.writerMode)
                    }
                    swap(&state.queue, &batch)
                    let queueFull = state.pendingQueueFull
                    state.pendingQueueFull = 0
                    let waiters = state.flushWaiters
                    state.flushWaiters = []
                    state.writerMode = .busy
                    return .write(queueFull: queueFull, waiters: waiters)
                }
                switch work {
                case .wait(let mode):
                    if mode == .sleeping {
                        wake.wait()
                        emptyNaps = 0
                    } else if wake.wait(timeout: .now() + .nanoseconds(Self.napNanoseconds)) == .timedOut {
                        emptyNaps += 1
                    } else {
                        emptyNaps = 0
                    }
                case .write(let queueFull, let waiters):
                    emptyNaps = 0
                    unwrittenQueueFull += queueFull
                    var start = 0
                    repeat {
                        let end = min(batch.count, start + StoreSink.maximumTransactionSize)
                        let failed = write(
                            batch[start..<end], with: writer, clock: clock,
                            queueFull: &unwrittenQueueFull, sqliteErrors: &unwrittenSQLiteErrors)
                        countDropped(failed, reason: "sqlite_error")
                        start = end
                    } while start < batch.count
                    batch.removeAll(keepingCapacity: true)
                    for waiter in waiters { waiter.signal() }
                case .exit:
                    writer.close()
                    let waiters = state.withLock { state in
                        state.finished = true
                        defer { state.closeWaiters = [] }
                        return state.closeWaiters
                    }
                    for waiter in waiters { waiter.signal() }
                    return
                }
            }
        }

        /// Writes `events` and the drop counts in one transaction; returns how many events were lost.
        ///
        /// Drop counts are zeroed once committed; if the commit fails they stay, with the lost
        /// events added to `sqliteErrors`, for the next transaction to write. A statement error
        /// that makes SQLite roll the whole transaction back (a full disk, `RAISE(ROLLBACK)`)
        /// loses the rows written so far in it; they are counted, and a new transaction begins.
        private func write(
            _ events: ArraySlice<TraceEvent>, with writer: StoreWriter, clock: MonotonicClock,
            queueFull: inout Int64, sqliteErrors: inout Int64
        ) -> Int64 {
            let carriedErrors = sqliteErrors
            var failed: Int64 = 0
            var uncommitted: Int64 = 0
            do {
                try writer.begin()
                for event in events {
                    do {
                        try writer.insert(event)
                        uncommitted += 1
                    } catch {
                        failed += 1
                        if !writer.isInTransaction {
                            failed += uncommitted
                            uncommitted = 0
                            try writer.begin()
                        }
                    }
                }
                sqliteErrors = carriedErrors + failed
                let now = clock.now()
                if queueFull > 0 {
                    try writer.insertDropped(
                        DroppedRecord(ts: now, sink: "store", reason: "queue_full", count: queueFull))
                }
                if sqliteErrors > 0 {
                    try writer.insertDropped(
                        DroppedRecord(ts: now, sink: "store", reason: "sqlite_error", count: sqliteErrors))
                }
                try writer.commit()
                queueFull = 0
                sqliteErrors = 0
                return failed
            } catch {
                writer.rollback()
                failed += uncommitted
                sqliteErrors = carriedErrors + failed
                return failed
            }
        }
    }
}
