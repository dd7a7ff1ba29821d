import SessionTrace
import TraceStore

/// Gathers records, each with its run, into a ``RecordedTrace`` ordered as a store orders its
/// rows (by `ts`, then id): how a source other than a store, such as an LTTng trace, becomes the
/// model every analysis reads.
///
/// A record with the id of one already gathered replaces it, as a store's `INSERT OR REPLACE` does:
/// the middleware records a session again each time it grows, and the last is the whole session.
public struct RecordedTraceBuilder {
    private struct Run {
        var record: RunRecord?
        var sessions: [SessionRecord] = []
        var sessionIndex: [Int64: Int] = [:]
        var requests: [RequestRecord] = []
        var toolCalls: [ToolCallRecord] = []
        var handoffs: [HandoffRecord] = []
        var intervals: [IntervalRecord] = []
        var instants: [InstantRecord] = []
        var chunks: [ChunkRecord] = []
        var payloads: [PayloadRecord] = []
        var dropped: [DroppedRecord] = []
        var earliest = Int64.max
        let id: Int64
        let host: String

        init(id: Int64, host: String) {
            self.id = id
            self.host = host
        }

        mutating func add(_ event: TraceEvent) {
            switch event {
            case .run(let record): self.record = record
            case .session(let record):
                if let index = sessionIndex[record.sessionID] {
                    sessions[index] = record
                } else {
                    sessionIndex[record.sessionID] = sessions.count
                    sessions.append(record)
                }
                earliest = min(earliest, record.ts)
            case .request(let record):
                requests.append(record)
                earliest = min(earliest, record.ts)
            case .toolCall(let record):
                toolCalls.append(record)
                earliest = min(earliest, record.ts)
            case .handoff(let record):
                handoffs.append(record)
                earliest = min(earliest, record.ts)
            case .interval(let record):
                intervals.append(record)
                earliest = min(earliest, record.ts)
            case .instant(let record):
                instants.append(record)
                earliest = min(earliest, record.ts)
            case .chunk(let record):
                chunks.append(record)
            case .payload(let record):
                payloads.append(record)
                earliest = min(earliest, record.ts)
            case .dropped(let record):
                dropped.append(record)
                earliest = min(earliest, record.ts)
            }
        }
    }

    /// False to leave streamed chunks out, which can outnumber requests by far.
    var keepsChunks = true
    private var runs: [Run] = []
    private var runIndex: [Int64: Int] = [:]
    private(set) var recordCount = 0

    public init(keepsChunks: Bool = true) {
        self.keepsChunks = keepsChunks
    }

    /// Adds `event` to run `runID`; `host` names the run's host if it has no `run` record.
    public mutating func add(_ event: TraceEvent, runID: Int64, host: String = "") {
        recordCount += 1
        let index: Int
        if let known = runIndex[runID] {
            index = known
        } else {
            index = runs.count
            runIndex[runID] = index
            runs.append(Run(id: runID, host: host))
        }
        if case .chunk = event, !keepsChunks { return }
        runs[index].add(event)
    }

    /// The trace gathered so far, runs by start time, records by `ts` then id.
    public func trace(path: String) -> RecordedTrace {
        var recorded: [RecordedRun] = []
        for run in runs {
            let id = run.id
            let record =
                run.record
                ?? RunRecord(
                    runID: id, ts: run.earliest == .max ? 0 : run.earliest, wallClockStart: 0, host: run.host,
                    commandLine: "", toolVersion: "")
            recorded.append(
                RecordedRun(
                    run: record, hasRunRecord: run.record != nil,
                    sessions: Self.ordered(run.sessions) { ($0.ts, $0.sessionID) },
                    requests: Self.ordered(run.requests) { ($0.ts, $0.requestID) },
                    toolCalls: Self.ordered(run.toolCalls) { ($0.ts, $0.toolCallID) },
                    handoffs: Self.ordered(run.handoffs) { ($0.ts, $0.handoffID) },
                    intervals: Self.ordered(run.intervals) { ($0.ts, $0.intervalID) },
                    instants: Self.ordered(run.instants) { ($0.ts, $0.instantID) },
                    chunks: Self.byTime(run.chunks, \.ts),
                    payloads: Self.ordered(run.payloads) { ($0.ts, $0.payloadID) },
                    dropped: Self.byTime(run.dropped, \.ts)))
        }
        recorded.sort { ($0.run.ts, $0.run.runID) < ($1.run.ts, $1.run.runID) }
        return RecordedTrace(path: path, runs: recorded)
    }

    /// `records` by `key`, `ts` then id; as they are when they came in that order, which a trace's
    /// records mostly do (a record is written when its interval ends), so most runs need no sort.
    private static func ordered<Record>(_ records: [Record], by key: (Record) -> (Int64, Int64)) -> [Record] {
        let isBefore = { (first: Record, second: Record) in key(first) < key(second) }
        return isOrdered(records, by: isBefore) ? records : records.sorted(by: isBefore)
    }

    private static func isOrdered<Record>(_ records: [Record], by isBefore: (Record, Record) -> Bool) -> Bool {
        for index in records.indices.dropFirst() where isBefore(records[index], records[index - 1]) { return false }
        return true
    }

    /// Records without an id, by time and then in the order they came, as a store's rowid orders them.
    private static func byTime<Record>(_ records: [Record], _ ts: KeyPath<Record, Int64>) -> [Record] {
        if isOrdered(records, by: { $0[keyPath: ts] < $1[keyPath: ts] }) { return records }
        return records.enumerated().sorted { ($0.element[keyPath: ts], $0.offset) < ($1.element[keyPath: ts], $1.offset) }
            .map(\.element)
    }
}
