#if canImport(Glibc)
import Glibc
#endif

/// A run whose writer never closed it, read from a store that no other process had open: the
/// program crashed or was killed while it recorded, so what it recorded last may be missing.
///
/// A ``StoreSink`` that closes (``StoreSink/close()``, at exit, on SIGTERM or SIGINT) writes a
/// `run_closed` row for each run it wrote; a run without one, in a store that nobody is writing
/// now, never reached that point. Stores written before `run_closed` existed report none.
public struct UnclosedRun: Sendable, Hashable {
    /// The store's file, as given.
    public var path: String
    public var runID: Int64
    /// The run's label, when it has one.
    public var label: String?
    /// The end of the run's last stored event (`ts + dur`), in nanoseconds since the Unix epoch;
    /// nil when it stored none.
    public var lastEvent: Int64?

    public init(path: String, runID: Int64, label: String?, lastEvent: Int64?) {
        self.path = path
        self.runID = runID
        self.label = label
        self.lastEvent = lastEvent
    }

    /// `lastEvent` as ISO 8601 in UTC with milliseconds, for JSON; nil when there is none.
    public var lastEventISO8601: String? {
        lastEvent.map { Self.calendarDate($0) + "T" + Self.clockTime($0) + "Z" }
    }

    private static func parts(_ nanoseconds: Int64) -> (tm, Int64) {
        let seconds = nanoseconds.quotient(by: 1_000_000_000)
        var time = time_t(seconds.quotient)
        var parts = tm()
        gmtime_r(&time, &parts)
        return (parts, seconds.remainder / 1_000_000)
    }

    /// `HH:MM:SS.mmm` in UTC.
    public static func clockTime(_ nanoseconds: Int64) -> String {
        let (parts, milliseconds) = parts(nanoseconds)
        return pad(parts.tm_hour, 2) + ":" + pad(parts.tm_min, 2) + ":" + pad(parts.tm_sec, 2) + "."
            + pad(Int32(milliseconds), 3)
    }

    /// `YYYY-MM-DD` in UTC.
    static func calendarDate(_ nanoseconds: Int64) -> String {
        let (parts, _) = parts(nanoseconds)
        return pad(parts.tm_year + 1900, 4) + "-" + pad(parts.tm_mon + 1, 2) + "-" + pad(parts.tm_mday, 2)
    }

    private static func pad(_ value: Int32, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

extension Int64 {
    /// Floor division, so times before the epoch still split into a day and a time of day.
    fileprivate func quotient(by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let (q, r) = quotientAndRemainder(dividingBy: divisor)
        return r < 0 ? (q - 1, r + divisor) : (q, r)
    }
}

extension StoreReader {
    /// The runs that ended without closing, by start time: none when another process had the
    /// store open as it was read (a writer still recording), or when the store predates
    /// `run_closed`. Costs a scan of the events of each such run, and nothing otherwise.
    public func unclosedRuns() throws(StoreError) -> [UnclosedRun] {
        guard !wasOpenElsewhere, try !database.columns(of: "run_closed").isEmpty else { return [] }
        var runs: [(id: Int64, ts: Int64, wallClock: Int64, label: String?)] = []
        try database.prepare(
            """
            SELECT run_id, ts, wall_clock_start, label FROM run
            WHERE run_id NOT IN (SELECT run_id FROM run_closed WHERE run_id IS NOT NULL) ORDER BY ts, run_id
            """, persistent: false
        ).forEachRow { row in
            runs.append((row.int64(0), row.int64(1), row.int64(2), row.optionalString(3)))
        }
        let time = { (value: Int64) in PlausibleRange.nearest(value, in: PlausibleRange.time) }
        return try runs.map { run throws(StoreError) in
            var last: Int64?
            for table in StoreSchema.tables where table.stampsRunID && table.columns.contains(where: { $0.name == "ts" }) {
                let end = table.columns.contains { $0.name == "dur" } ? "ts + coalesce(dur, 0)" : "ts"
                let statement = try database.prepare(
                    "SELECT max(\(end)) FROM \(table.name) WHERE run_id = ?1", persistent: false)
                statement.bind(1, run.id)
                try statement.forEachRow { row in
                    if let value = row.optionalInt64(0).map(time) { last = Swift.max(last ?? value, value) }
                }
            }
            // Within plausible times, the offset cannot overflow; the sum is dropped if it does.
            let wallClock = last.flatMap { end in
                let sum = time(run.wallClock).addingReportingOverflow(end - time(run.ts))
                return sum.overflow ? nil : sum.partialValue
            }
            return UnclosedRun(path: path, runID: run.id, label: run.label, lastEvent: wallClock)
        }
    }

    /// Whether a process other than this one has the store at `path` open through SQLite.
    ///
    /// Every connection to a store in WAL mode holds a shared lock on byte 128 of its `-shm`
    /// index (SQLite's "dead-man switch", `UNIX_SHM_DMS`) for as long as it is open; a process
    /// that crashed or was killed holds none. Must run before this process opens the store:
    /// the descriptor it closes would release the locks of this process's own connection.
    public static func isOpenInAnotherProcess(_ path: String) -> Bool {
        let descriptor = open(path + "-shm", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var probe = flock()
        probe.l_type = Int16(F_WRLCK)
        probe.l_whence = Int16(SEEK_SET)
        probe.l_start = 128
        probe.l_len = 1
        guard fcntl(descriptor, F_GETLK, &probe) == 0 else { return false }
        return probe.l_type != Int16(F_UNLCK)
    }
}
