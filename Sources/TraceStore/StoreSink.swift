import Dispatch
import Foundation
import SessionTrace
import Synchronization

/// Records trace events into a SQLite store file, off the caller's thread.
///
/// `record` puts the event in a bounded queue and returns; a background thread writes the queue
/// in batched transactions. The queue is bounded in events and in bytes; when it is full the
/// event is counted as dropped, and the count is written as a `dropped` row (sink `store`, reason
/// `queue_full`); SQLite failures on the writer thread are counted the same way (`sqlite_error`,
/// or `busy` when other writers held the store too long), and events recorded after `close()`
/// as `closed`. Nothing is lost silently.
///
/// A program that ends without `close()` loses nothing either: by default the sink is closed at
/// `exit` (and when `main` returns), and its queue is written out on SIGTERM and SIGINT before the
/// signal goes on to the handler installed before, or to its default action. On a crash (a trap,
/// a bad address, `abort`) the queue is written out before the crash goes on, and the run reads as
/// one that ended without closing (see `docs/schema.md`, "A crash"). Several processes may write
/// one store at once (see `docs/schema.md`, "Several writers").
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

    /// When a sink writes out its queue without being asked to.
    public struct AutomaticDrain: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// At normal exit (`exit()`, or `main` returning): the sink is closed through `atexit`.
        public static let atExit = AutomaticDrain(rawValue: 1 << 0)
        /// On SIGTERM and SIGINT: the queue is written out, then the signal goes on to the handler
        /// installed before; where that was the default action, the sink is closed and the process
        /// ends with the signal. A signal the process ignores stays ignored.
        public static let onSignals = AutomaticDrain(rawValue: 1 << 1)
        /// On a crash (SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT: a trap, `fatalError`, a
        /// failed precondition, `abort`): the crashing thread waits up to 5 s while another thread
        /// writes the queue out, then the crash goes on as it would have. The store is not closed:
        /// the run reads as one that ended without closing.
        public static let onCrash = AutomaticDrain(rawValue: 1 << 2)
        /// All three; the default.
        public static let all: AutomaticDrain = [.atExit, .onSignals, .onCrash]
    }

    /// The store's file.
    public let path: String
    /// Events the queue holds before `record` starts dropping.
    public let capacity: Int
    /// Bytes the queue (and the batch being written) may hold before `record` starts dropping,
    /// counted as the events' inline size plus their strings, so memory stays bounded however
    /// large events are.
    public let byteCapacity: Int
    private let enabledMask: UInt32
    fileprivate let engine: Engine

    /// Opens or creates the store at `path` (mode 0600) and starts its writer thread.
    ///
    /// - Parameters:
    ///   - capacity: events queued before `record` drops; 65,536 rides out bursts of a busy
    ///     program while the disk catches up.
    ///   - byteCapacity: bytes queued before `record` drops; 64 MiB, far above 65,536 events of
    ///     usual size, bounds a burst of large ones (captured payloads, big metadata).
    ///   - enabledKinds: the event kinds this sink records; all by default.
    ///   - automaticDrain: when the sink writes its queue out unasked; `[]` leaves it to `close()`.
    /// - Throws: ``StoreError`` if the file cannot be created, is not a SessionTrace store, or
    ///   was written by a newer SessionTrace. Nothing after construction throws.
    public init(
        path: String, capacity: Int = 65_536, byteCapacity: Int = 64 << 20,
        enabledKinds: Set<TraceEventKind> = Set(TraceEventKind.allCases),
        automaticDrain: AutomaticDrain = .all
    ) throws(StoreError) {
        precondition(capacity > 0, "a StoreSink needs room for at least one event")
        precondition(byteCapacity > 0, "a StoreSink needs room for at least one byte")
        self.path = path
        self.capacity = capacity
        self.byteCapacity = byteCapacity
        enabledMask = enabledKinds.reduce(0) { $0 | (1 << UInt32($1.rawValue)) }
        let writer = try StoreWriter(path: path)
        engine = Engine(writer: writer, capacity: capacity, byteCapacity: byteCapacity)
        ExitDrain.register(engine, on: automaticDrain)
    }

    deinit {
        engine.close()
    }

    @inline(__always)
    public func isEnabled(_ kind: TraceEventKind) -> Bool {
        enabledMask & (1 << UInt32(kind.rawValue)) != 0
    }

    /// Fixed for the life of the sink: ``EnabledWord/always`` or ``EnabledWord/never``.
    public func enabledWord(_ kind: TraceEventKind) -> EnabledWord? { .constant(isEnabled(kind)) }

    /// Queues `event` for the writer thread and returns at once; counts it as dropped if the
    /// queue is full or the sink is closed.
    public func record(_ event: consuming TraceEvent) {
        engine.enqueue(Queued(event: event, redaction: nil))
    }

    /// Queues `request` as ``record(_:)`` does, unboxed: the box of a ``TraceEvent`` would be
    /// allocated on the caller's thread and freed on the writer's.
    public func record(request: consuming RequestRecord) {
        engine.enqueue(request: request, redaction: nil)
    }

    /// This store, redacting each event on its writer thread just before writing it, so the
    /// caller pays for queueing alone (``TraceSink/redacting(_:)``). Raw text waits in the queue,
    /// in this process's memory, until then; the writer redacts every event it writes, including
    /// when it writes the queue out at exit, on a signal or on a crash, so none reaches the file.
    public func redacting(_ redact: @escaping @Sendable (String) -> String) -> any TraceSink {
        Redacting(store: self, redaction: Redaction(redact: redact))
    }

    /// Blocks until every event recorded before the call is committed to the file, or counted
    /// as dropped and that count committed.
    public func flush() {
        engine.drain(closing: false, signalEnds: false, deadline: .distantFuture)
    }

    /// Flushes, stops the writer thread and closes the file, leaving it a self-contained store
    /// (no `-wal` beside it). Events recorded from the call on are counted under reason `closed`,
    /// and that count is stored too for those that come before the file is closed.
    public func close() {
        engine.close()
    }

    /// Events not recorded so far, by reason: `queueFull`, `sqliteError`, `busy`, `closed`.
    public var droppedCounts: [DroppedRecord.Reason: Int64] {
        engine.droppedCounts
    }
}

extension StoreSink {
    /// The sink ``redacting(_:)`` returns: records into the same queue, each event with its
    /// redaction.
    private struct Redacting: TraceSink {
        let store: StoreSink
        let redaction: Redaction

        func isEnabled(_ kind: TraceEventKind) -> Bool { store.isEnabled(kind) }

        func enabledWord(_ kind: TraceEventKind) -> EnabledWord? { store.enabledWord(kind) }

        func record(_ event: consuming TraceEvent) {
            store.engine.enqueue(Queued(event: event, redaction: redaction))
        }

        func record(request: consuming RequestRecord) {
            store.engine.enqueue(request: request, redaction: redaction)
        }

        func flush() { store.flush() }
    }

    /// A redaction the writer thread applies; a class so that a queued event carries a pointer.
    final class Redaction: Sendable {
        let redact: @Sendable (String) -> String
        init(redact: @escaping @Sendable (String) -> String) { self.redact = redact }
    }

    /// An event waiting to be written, with the redaction to apply first, if any. A request
    /// recorded through ``StoreSink/record(request:)`` waits unboxed in the queue's requests, in
    /// order; its place among the events is held by an entry whose `event` is nil.
    struct Queued {
        var event: TraceEvent?
        var redaction: Redaction?

        /// Writes the event, or for a request's place the next of `requests`, redacted if need be.
        func write(with writer: StoreWriter, requests: inout ArraySlice<RequestRecord>) throws(StoreError) {
            if let event {
                try writer.insert(redaction.map { event.redacted(by: $0.redact) } ?? event)
            } else {
                let request = requests.removeFirst()
                try writer.insert(request: redaction.map { request.redacted(by: $0.redact) } ?? request)
            }
        }
    }

    /// The queue, the writer thread and the accounting behind a ``StoreSink``.
    ///
    /// Apart from the sink so the thread can hold it without keeping the sink alive: a sink that
    /// goes out of scope closes its store.
    fileprivate final class Engine: Drainable {
        /// When the writer next expects work: while `busy` nobody signals it; while `napping`
        /// (a short timed wait) producers signal only once a batch is worth writing; while
        /// `sleeping` (idle for a while, untimed wait) the first event wakes it.
        enum WriterMode { case busy, napping, sleeping }

        struct State {
            var queue: [Queued] = []
            /// The requests the queue's entries without an event stand for, in order.
            var requests: [RequestRecord] = []
            /// Approximate bytes of the queued events, and of the batch the writer is writing.
            var queuedBytes = 0
            var writingBytes = 0
            var writerMode = WriterMode.busy
            /// Drops not yet handed to the writer, by reason (`queue_full`, `closed`).
            var pendingDrops: [DroppedRecord.Reason: Int64] = [:]
            var flushWaiters: [DispatchSemaphore] = []
            var closeWaiters: [DispatchSemaphore] = []
            /// Set by `close()`: events from then on are counted as `closed`.
            var closeRequested = false
            /// Set when a signal is about to end the process: events from then on wait for the end
            /// (``Engine/awaitEnd()``), since their count could reach the file no more.
            var signalEnds = false
            /// Set when the writer has taken its last batch: later drops cannot be stored.
            var writerDone = false
            /// Set once the file is closed.
            var finished = false
            var dropped: [DroppedRecord.Reason: Int64] = [:]
        }

        private let capacity: Int
        private let byteCapacity: Int
        /// Queue length at which a napping writer is woken early.
        private let wakeThreshold: Int
        private let state: Mutex<State>
        private let wake = DispatchSemaphore(value: 0)

        /// Events both queue buffers hold before growing (about 1 MB each): enough for the bursts
        /// of most programs without the growth and fresh pages on the caller's thread.
        static let initialReservation = 4_096
        /// Requests both buffers of unboxed requests hold before growing (about 440 KB each): a
        /// program records far fewer requests than chunks and instants.
        static let initialRequestReservation = 1_024
        static let napNanoseconds = 10_000_000
        /// Empty naps in a row before the writer sleeps until woken (about one second idle).
        static let napsBeforeSleep = 100

        init(writer: StoreWriter, capacity: Int, byteCapacity: Int) {
            self.capacity = capacity
            self.byteCapacity = byteCapacity
            wakeThreshold = max(1, min(1024, capacity / 4))
            var initial = State()
            initial.queue.reserveCapacity(min(capacity, Self.initialReservation))
            initial.requests.reserveCapacity(min(capacity, Self.initialRequestReservation))
            state = Mutex(initial)
            let thread = Thread { [self] in self.run(writer) }
            thread.name = "SessionTrace.StoreSink"
            thread.start()
        }

        @inline(__always)
        func enqueue(_ item: consuming Queued) {
            let size = item.event?.approximateBytes ?? 0
            // Moved into the queue, not copied: a copy would retain the event's box and release it.
            var item = Optional(item)
            enqueue(size: size) { state in state.queue.append(item.take()!) }
        }

        /// Queues `request`, unboxed, and its place among the events.
        @inline(__always)
        func enqueue(request: consuming RequestRecord, redaction: Redaction?) {
            let size = request.approximateBytes + MemoryLayout<Queued>.stride
            // Moved into the queue, not copied: a copy would retain each of its strings and release it.
            var request = Optional(request)
            enqueue(size: size) { state in
                state.requests.append(request.take()!)
                state.queue.append(Queued(event: nil, redaction: redaction))
            }
        }

        /// Runs `append` under the lock if the queue has room for `size` more bytes, and wakes
        /// the writer if it waits for work; counts the event as dropped otherwise.
        @inline(__always)
        private func enqueue(size: Int, _ append: (inout State) -> Void) {
            let signal = state.withLock { state -> Bool? in
                if state.signalEnds { return nil }
                if state.closeRequested {
                    state.dropped[.closed, default: 0] += 1
                    if !state.writerDone { state.pendingDrops[.closed, default: 0] += 1 }
                    return false
                }
                guard state.queue.count < capacity, state.queuedBytes + state.writingBytes + size <= byteCapacity
                else {
                    state.dropped[.queueFull, default: 0] += 1
                    state.pendingDrops[.queueFull, default: 0] += 1
                    return false
                }
                append(&state)
                state.queuedBytes += size
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
            switch signal {
            case true?: wake.signal()
            case false?: break
            case nil: awaitEnd()
            }
        }

        /// Waits for the signal that is ending the process, which comes within microseconds: every
        /// event the caller recorded before is in the file, and this one is neither stored nor
        /// returned from. Should the process live on (a handler that chose not to end it after
        /// all), the event is counted as `closed` after ``ExitDrain/timeout`` and the caller goes on.
        private func awaitEnd() {
            let deadline = DispatchTime.now() + ExitDrain.timeout
            while DispatchTime.now() < deadline { usleep(10_000) }
            state.withLock { $0.dropped[.closed, default: 0] += 1 }
        }

        /// Waits until what is queued is written (and the file closed, when `closing`), or until
        /// `deadline`. A flush during a close waits for the close.
        func drain(closing: Bool, signalEnds: Bool, deadline: DispatchTime) {
            let done = DispatchSemaphore(value: 0)
            var outcome: (wait: Bool, signal: Bool)?
            if deadline == .distantFuture {
                outcome = state.withLock { Self.request(&$0, closing: closing, signalEnds: signalEnds, done: done) }
            } else {
                // The exit and signal hooks may run on a thread that holds the lock (a signal
                // handler that calls exit): they give up at the deadline rather than wait forever.
                while outcome == nil {
                    outcome = state.withLockIfAvailable {
                        Self.request(&$0, closing: closing, signalEnds: signalEnds, done: done)
                    }
                    if outcome == nil {
                        guard DispatchTime.now() < deadline else { return }
                        usleep(1_000)
                    }
                }
            }
            guard let outcome, outcome.wait else { return }
            if outcome.signal { wake.signal() }
            _ = done.wait(timeout: deadline)
        }

        /// Hands `done` to the writer, to be signalled after the next batch or after closing;
        /// false for `wait` when the file is closed already.
        private static func request(
            _ state: inout State, closing: Bool, signalEnds: Bool, done: DispatchSemaphore
        ) -> (wait: Bool, signal: Bool) {
            if signalEnds { state.signalEnds = true }
            guard !state.finished else { return (false, false) }
            if closing || state.closeRequested {
                state.closeRequested = true
                state.closeWaiters.append(done)
            } else {
                state.flushWaiters.append(done)
            }
            let signal = state.writerMode != .busy
            state.writerMode = .busy
            return (true, signal)
        }

        func close() {
            drain(closing: true, signalEnds: false, deadline: .distantFuture)
        }

        var droppedCounts: [DroppedRecord.Reason: Int64] {
            state.withLock { $0.dropped }
        }

        private func countDropped(_ count: Int64, reason: DroppedRecord.Reason) {
            guard count > 0 else { return }
            state.withLock { $0.dropped[reason, default: 0] += count }
        }

        private enum Work {
            case write(drops: [DroppedRecord.Reason: Int64], waiters: [DispatchSemaphore])
            case wait(WriterMode)
            case exit
        }

        /// The writer thread: takes the whole queue at a time and writes it.
        private func run(_ writer: StoreWriter) {
            var batch: [Queued] = []
            var requests: [RequestRecord] = []
            batch.reserveCapacity(min(capacity, Self.initialReservation))
            requests.reserveCapacity(min(capacity, Self.initialRequestReservation))
            /// Drops not yet stored as `dropped` rows, by reason, carried over when a commit fails.
            var unwritten: [DroppedRecord.Reason: Int64] = [:]
            var emptyNaps = 0
            let clock = MonotonicClock()

            while true {
                let work = state.withLock { state -> Work in
                    if state.queue.isEmpty && state.pendingDrops.isEmpty && state.flushWaiters.isEmpty {
                        if state.closeRequested {
                            state.writerDone = true
                            return .exit
                        }
                        state.writerMode = emptyNaps >= Self.napsBeforeSleep ? .sleeping : .napping
                        return .wait(state.writerMode)
                    }
                    swap(&state.queue, &batch)
                    swap(&state.requests, &requests)
                    state.writingBytes = state.queuedBytes
                    state.queuedBytes = 0
                    defer {
                        state.pendingDrops = [:]
                        state.flushWaiters = []
                    }
                    state.writerMode = .busy
                    return .write(drops: state.pendingDrops, waiters: state.flushWaiters)
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
                case .write(let drops, let waiters):
                    emptyNaps = 0
                    unwritten.merge(drops, uniquingKeysWith: +)
                    var start = 0
                    var firstRequest = 0
                    repeat {
                        let end = min(batch.count, start + StoreSink.maximumTransactionSize)
                        let requestCount = batch[start..<end].count { $0.event == nil }
                        write(
                            batch[start..<end], requests[firstRequest..<(firstRequest + requestCount)],
                            with: writer, clock: clock, unwritten: &unwritten)
                        firstRequest += requestCount
                        start = end
                    } while start < batch.count
                    // No slice outlives the writing: emptied while shared, the buffers would be
                    // replaced, and the caller would fill fresh pages.
                    batch.removeAll(keepingCapacity: true)
                    requests.removeAll(keepingCapacity: true)
                    state.withLock { $0.writingBytes = 0 }
                    for waiter in waiters { waiter.signal() }
                case .exit:
                    // Counts a failed commit left behind get one more chance.
                    if !unwritten.isEmpty { write([], [], with: writer, clock: clock, unwritten: &unwritten) }
                    writer.close()
                    ExitDrain.unregister(self)
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

        /// Writes `events` (with `requests`, the requests they hold the places of) and the drop
        /// counts not yet stored in one transaction.
        ///
        /// The counts are cleared once committed. Events that could not be written are counted
        /// and added to them for the next transaction: under `busy` when other writers held the
        /// store past the writer's waiting, else `sqlite_error`. A statement error that makes
        /// SQLite roll the whole transaction back (a full disk, `RAISE(ROLLBACK)`) loses the rows
        /// written so far in it; they are counted, and a new transaction begins.
        private func write(
            _ events: ArraySlice<Queued>, _ requests: ArraySlice<RequestRecord>, with writer: StoreWriter,
            clock: MonotonicClock, unwritten: inout [DroppedRecord.Reason: Int64]
        ) {
            var requests = requests
            var failed: Int64 = 0
            var uncommitted: Int64 = 0
            do {
                try writer.begin()
                for event in events {
                    do {
                        try event.write(with: writer, requests: &requests)
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
                var counts = unwritten
                if failed > 0 { counts[.sqliteError, default: 0] += failed }
                let now = clock.now()
                for (reason, count) in counts.sorted(by: { $0.key < $1.key }) where count > 0 {
                    try writer.insertDropped(DroppedRecord(ts: now, sinkName: "store", reason: reason, count: count))
                }
                try writer.commit()
                unwritten = [:]
                countDropped(failed, reason: .sqliteError)
            } catch {
                writer.rollback()
                // Nothing of this transaction was committed.
                let reason = error.isBusy ? DroppedRecord.Reason.busy : .sqliteError
                let lost = Int64(events.count)
                unwritten[reason, default: 0] += lost
                countDropped(lost, reason: reason)
            }
        }
    }
}
