import SessionTrace
import TraceModel
import TraceStore

#if canImport(Glibc)
import Glibc
#endif

/// Writes the records of an LTTng trace into a new store, for people who want SQL.
///
/// The store is written to a temporary file beside `output` and renamed into place only when
/// complete, so an interrupted import leaves no store (``InterruptCleanup`` removes the temporary
/// file on SIGINT, SIGTERM and SIGHUP). Reading and writing overlap: the store's writer thread
/// commits one batch of records while the trace's next is decoded, two threads besides it (see
/// ``CTFReader``).
///
/// Every row gets the run the reader placed it in (see ``RunTracker``): a `run` row is written
/// again whenever the run changes, which the store's `INSERT OR REPLACE` keeps as one row. A run
/// the trace holds records of but no `run` record for gets a `run` row made of what is known: its
/// id, its earliest time and the trace's host name.
public enum LTTngImporter {
    /// Why an import stopped; `description` is one sentence for the user.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        /// The trace could not be read, or the store could not be created.
        case input(TraceInputError)
        /// The store was not written whole; nothing was left at the output path.
        case notWritten(String)

        public var description: String {
            switch self {
            case .input(let error): error.description
            case .notWritten(let sentence): sentence
            }
        }
    }

    /// What an import wrote.
    public struct Outcome {
        public var records: Int
        public var runs: Int
        /// Fields that held numbers no recording writes: the store holds the nearest plausible value.
        public var anomalies: [StoreAnomaly] = []
    }

    /// Events handed to the store's writer at once, while the next as many are read; its queue
    /// holds four times as many, and a batch is handed early once it holds a quarter of the queue's
    /// bytes (large payloads), so nothing is ever dropped for a full queue.
    static let batch = 16_384

    /// Imports the trace at `tracePath` into a new store at `output`.
    ///
    /// - Parameter progress: called about every ``batch`` records with the count so far.
    public static func run(
        tracePath: String, output: String, progress: (Int) -> Void
    ) throws(Failure) -> Outcome {
        let stream: LTTngRecordStream
        do { stream = try LTTngRecordStream(path: tracePath) } catch { throw .input(.lttng(error)) }
        let temporary = temporaryPath(for: output)
        InterruptCleanup.install(removing: [temporary, temporary + "-wal", temporary + "-shm", temporary + "-journal"])
        defer { InterruptCleanup.remove() }
        let sink: StoreSink
        do { sink = try StoreSink(path: temporary, capacity: 4 * batch) } catch { throw .input(.store(error)) }
        var outcome = Outcome(records: 0, runs: 0)
        do {
            try write(stream, into: sink, outcome: &outcome, progress: progress)
        } catch {
            sink.close()
            InterruptCleanup.removeFiles()
            throw error
        }
        sink.close()
        let lost = sink.droppedCounts.values.reduce(0, +)
        guard lost == 0 else {
            InterruptCleanup.removeFiles()
            throw .notWritten("\(output) was not written: the store could not take \(lost) records")
        }
        guard rename(temporary, output) == 0 else {
            let reason = String(cString: strerror(errno))
            InterruptCleanup.removeFiles()
            throw .notWritten("\(output) cannot be written (\(reason))")
        }
        return outcome
    }

    private static func write(
        _ stream: LTTngRecordStream, into sink: StoreSink, outcome: inout Outcome, progress: (Int) -> Void
    ) throws(Failure) {
        var runs: [Int64: RunRecord] = [:]
        var written: Set<Int64> = []
        var currentRun: Int64?
        var pending: [TraceEvent] = []
        pending.reserveCapacity(batch + 1)
        var pendingBytes = 0
        func add(_ event: TraceEvent) {
            pending.append(event)
            pendingBytes += event.approximateBytes
        }
        while true {
            let item: LTTngRecordStream.Item
            do { item = try stream.next() } catch { throw .input(.lttng(error)) }
            guard case .record(let event, let runID, let host) = item else { break }
            if case .run(let record) = event {
                runs[runID] = record
            } else if currentRun != runID {
                let record =
                    runs[runID]
                    ?? RunRecord(
                        runID: runID, ts: event.timestamp, wallClockStart: 0, host: host, commandLine: "",
                        toolVersion: "")
                runs[runID] = record
                add(.run(record))
            }
            if currentRun != runID {
                currentRun = runID
                written.insert(runID)
            }
            add(event)
            outcome.records += 1
            if pending.count >= batch || pendingBytes >= sink.byteCapacity / 4 {
                hand(&pending, to: sink)
                pendingBytes = 0
                progress(outcome.records)
            }
        }
        hand(&pending, to: sink)
        outcome.runs = written.count
        outcome.anomalies = stream.anomalies
    }

    /// Waits until the sink has written the events handed to it before, then hands it `events` all
    /// at once, as a traced program's burst: its writer writes them in transactions as large as it
    /// takes while the next batch is read.
    private static func hand(_ events: inout [TraceEvent], to sink: StoreSink) {
        sink.flush()
        for event in events { sink.record(event) }
        events.removeAll(keepingCapacity: true)
    }

    /// A hidden file beside `output`, so the rename stays within one file system.
    static func temporaryPath(for output: String) -> String {
        let slash = output.lastIndex(of: "/")
        let directory = slash.map { String(output[...$0]) } ?? ""
        let name = slash.map { String(output[output.index(after: $0)...]) } ?? output
        return directory + ".\(name).import-\(getpid())"
    }
}

extension TraceEvent {
    /// The record's `ts`.
    var timestamp: Int64 {
        switch self {
        case .run(let record): record.ts
        case .session(let record): record.ts
        case .request(let record): record.ts
        case .toolCall(let record): record.ts
        case .handoff(let record): record.ts
        case .interval(let record): record.ts
        case .instant(let record): record.ts
        case .chunk(let record): record.ts
        case .payload(let record): record.ts
        case .dropped(let record): record.ts
        }
    }
}

/// Removes a command's unfinished output files when the process is interrupted, then exits as a
/// process killed by that signal would (128 + the signal).
///
/// Paths are kept as C strings made before any signal can arrive, so the handler only calls
/// `unlink` and `_exit`, which are safe in a signal handler.
enum InterruptCleanup {
    nonisolated(unsafe) private static var paths: [UnsafeMutablePointer<CChar>] = []
    nonisolated(unsafe) private static var count = 0
    private static let signals = [SIGINT, SIGTERM, SIGHUP]

    static func install(removing files: [String]) {
        remove()
        paths = files.compactMap { strdup($0) }
        count = paths.count
        // A parent may have started this process with the signals blocked (a test runner's worker
        // thread blocks nearly all); they must reach the handler.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for signal in signals { sigaddset(&unblocked, signal) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        for signal in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in
                InterruptCleanup.unlinkAll()
                _exit(128 + signal)
            }
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, nil)
        }
    }

    /// Restores the default handlers and forgets the files.
    static func remove() {
        for signal in signals { Glibc.signal(signal, SIG_DFL) }
        count = 0
        paths.forEach { free($0) }
        paths = []
    }

    /// Removes the files now (after a failure).
    static func removeFiles() {
        unlinkAll()
    }

    private static func unlinkAll() {
        for index in 0..<count { unlink(paths[index]) }
    }
}
