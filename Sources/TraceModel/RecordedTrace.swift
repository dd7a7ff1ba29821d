import SessionTrace
import TraceStore

/// Everything a store holds, loaded into memory and grouped by run: the model every analysis,
/// export and viewer reads.
///
/// ```swift
/// let trace = try TraceLoader.load(path: "run.sqlite")
/// for run in trace.runs {
///     for session in run.sessions { print(session.label, run.requests(in: session.sessionID).count) }
/// }
/// ```
///
/// Records are SessionTrace's own types, in the store's order (by `ts`, then id). For very large
/// stores, analyses that only aggregate stream rows with `StoreReader.query` instead (see
/// ``SummaryReport/compute(reader:)``).
public struct RecordedTrace: Sendable {
    /// The store's file, as given.
    public var path: String
    /// `meta.schema_version` of the store.
    public var schemaVersion: Int64
    /// The runs, by start time. A store written by one program holds one.
    public var runs: [RecordedRun]
    /// Columns that held values no recording writes, read as the nearest plausible value; every
    /// report shows them (a `note:` line, an `anomalies` key in JSON).
    public var anomalies: [StoreAnomaly]
    /// The runs that ended without closing (crashed or killed): what they recorded last may be
    /// missing, and every report says so.
    public var unclosedRuns: [UnclosedRun]

    public init(
        path: String, schemaVersion: Int64 = StoreSchema.version, runs: [RecordedRun],
        anomalies: [StoreAnomaly] = [], unclosedRuns: [UnclosedRun] = []
    ) {
        self.path = path
        self.schemaVersion = schemaVersion
        self.runs = runs
        self.anomalies = anomalies
        self.unclosedRuns = unclosedRuns
    }

    /// Requests of every run.
    public var requestCount: Int { runs.reduce(0) { $0 + $1.requests.count } }
    /// True when no run holds a request.
    public var isEmpty: Bool { requestCount == 0 }
}

/// One run of a store and every record stamped with its `run_id`.
public struct RecordedRun: Sendable {
    public var run: RunRecord
    /// False when rows carry this `run_id` but the store has no `run` row for it (a store
    /// written by a tool other than `Tracer`); `run` then holds what the rows tell.
    public var hasRunRecord: Bool
    /// Sessions by start time, including one made up (label `session <id>`) for every session id
    /// that requests name but that was never recorded as ended.
    public var sessions: [SessionRecord]
    public var requests: [RequestRecord]
    public var toolCalls: [ToolCallRecord]
    public var handoffs: [HandoffRecord]
    public var intervals: [IntervalRecord]
    public var instants: [InstantRecord]
    public var chunks: [ChunkRecord]
    public var payloads: [PayloadRecord]
    public var dropped: [DroppedRecord]

    /// Ids of the sessions recorded, without those made up for ids that only requests name.
    public let recordedSessionIDs: Set<Int64>
    /// Tool calls by the request that asked for them, in order.
    public let toolCallsByRequest: [Int64: [ToolCallRecord]]
    /// Payloads by their parent (a request or a tool call), in order.
    public let payloadsByParent: [Int64: [PayloadRecord]]
    private let sessionIndex: [Int64: Int]

    public init(
        run: RunRecord, hasRunRecord: Bool = true, sessions: [SessionRecord] = [], requests: [RequestRecord] = [],
        toolCalls: [ToolCallRecord] = [], handoffs: [HandoffRecord] = [], intervals: [IntervalRecord] = [],
        instants: [InstantRecord] = [], chunks: [ChunkRecord] = [], payloads: [PayloadRecord] = [],
        dropped: [DroppedRecord] = []
    ) {
        self.run = run
        self.hasRunRecord = hasRunRecord
        var sessions = sessions
        let known = Set(sessions.map(\.sessionID))
        recordedSessionIDs = known
        var missing: [Int64: (first: Int64, last: Int64)] = [:]
        for request in requests {
            guard let id = request.sessionID, !known.contains(id) else { continue }
            let end = request.ts + request.dur
            if let span = missing[id] {
                missing[id] = (min(span.first, request.ts), max(span.last, end))
            } else {
                missing[id] = (request.ts, end)
            }
        }
        for (id, span) in missing {
            sessions.append(SessionRecord(sessionID: id, ts: span.first, dur: span.last - span.first,
                                          label: "session \(id)"))
        }
        sessions.sort { ($0.ts, $0.sessionID) < ($1.ts, $1.sessionID) }
        self.sessions = sessions
        self.requests = requests
        self.toolCalls = toolCalls
        self.handoffs = handoffs
        self.intervals = intervals
        self.instants = instants
        self.chunks = chunks
        self.payloads = payloads
        self.dropped = dropped
        toolCallsByRequest = Dictionary(grouping: toolCalls.filter { $0.requestID != nil }, by: { $0.requestID! })
        payloadsByParent = Dictionary(grouping: payloads.filter { $0.parentID != nil }, by: { $0.parentID! })
        sessionIndex = Dictionary(
            sessions.enumerated().map { ($0.element.sessionID, $0.offset) }, uniquingKeysWith: { first, _ in first })
    }

    /// The session with `id`, if the run has it.
    public func session(_ id: Int64?) -> SessionRecord? {
        guard let id, let index = sessionIndex[id] else { return nil }
        return sessions[index]
    }

    /// The session's label, or `(no session)` for requests made outside one.
    public func sessionLabel(_ id: Int64?) -> String {
        guard let id else { return "(no session)" }
        return session(id)?.label ?? "session \(id)"
    }

    /// Requests of session `id` (nil: those outside any session), by start time.
    public func requests(in sessionID: Int64?) -> [RequestRecord] {
        requests.filter { $0.sessionID == sessionID }
    }

    /// The requests of each session (nil: those outside any session), each session's by start
    /// time, then id. Positions are grouped and sorted by their keys, so each record is copied once.
    package func requestsBySession() -> [Int64?: [RequestRecord]] {
        var positions: [Int64?: [Int]] = [:]
        var keys: [(ts: Int64, id: Int64)] = []
        keys.reserveCapacity(requests.count)
        for (position, request) in requests.enumerated() {
            positions[request.sessionID, default: []].append(position)
            keys.append((request.ts, request.requestID))
        }
        return positions.mapValues { group in
            group.sorted { keys[$0] < keys[$1] }.map { requests[$0] }
        }
    }

    /// The captured text of `kind` for a request or tool call, if payload capture was on.
    public func payload(_ kind: PayloadRecord.Kind, of parentID: Int64) -> String? {
        payloadsByParent[parentID]?.first(where: { $0.kind == kind })?.text
    }

    /// Events that sinks could not record in this run.
    public var droppedCount: Int64 { dropped.saturatingSum(\.count) }

    /// The earliest `ts` of anything in the run, for times relative to its start.
    public var startTime: Int64 {
        var start = hasRunRecord ? run.ts : Int64.max
        for request in requests { start = min(start, request.ts) }
        for session in sessions { start = min(start, session.ts) }
        return start == .max ? 0 : start
    }
}

/// Loads a recording into a ``RecordedTrace``, read-only. A store is read here; `LTTngReader`
/// adds `load(path:chunks:)`, which reads a store or an LTTng trace.
public enum TraceLoader {
    /// Loads every record of an open store, grouped by run.
    public static func load(_ reader: StoreReader, chunks: Bool = true) throws(StoreError) -> RecordedTrace {
        let recorded = try reader.runs()
        // Rows may carry a run_id without a run row (a store filled by another writer): collect
        // every run_id, so no row is lost.
        var orphanStarts: [Int64: Int64] = [:]
        let known = Set(recorded.map(\.runID))
        let tables = ["session", "request", "tool_call", "handoff", "interval", "instant", "payload", "dropped"]
        let union = tables.map { "SELECT run_id, min(ts) AS ts FROM \($0) GROUP BY run_id" }
            .joined(separator: " UNION ALL ")
        try reader.query("SELECT run_id, min(ts) FROM (\(union)) WHERE run_id IS NOT NULL GROUP BY run_id") { row in
            let id = row.int64(0)
            // An aggregate is read as SQLite gives it: held to plausible times like a column.
            if !known.contains(id) { orphanStarts[id] = PlausibleRange.nearest(row.int64(1), in: PlausibleRange.time) }
        }
        var runs: [RecordedRun] = []
        for run in recorded {
            runs.append(try loadRun(reader, run: run, hasRunRecord: true, chunks: chunks))
        }
        for (id, start) in orphanStarts.sorted(by: { ($0.value, $0.key) < ($1.value, $1.key) }) {
            let run = RunRecord(runID: id, ts: start, wallClockStart: 0, host: "", commandLine: "", toolVersion: "")
            runs.append(try loadRun(reader, run: run, hasRunRecord: false, chunks: chunks))
        }
        runs.sort { ($0.run.ts, $0.run.runID) < ($1.run.ts, $1.run.runID) }
        return RecordedTrace(
            path: reader.path, schemaVersion: reader.schemaVersion, runs: runs,
            anomalies: try reader.anomalies(everyColumn: true), unclosedRuns: try reader.unclosedRuns())
    }

    private static func loadRun(
        _ reader: StoreReader, run: RunRecord, hasRunRecord: Bool, chunks: Bool
    ) throws(StoreError) -> RecordedRun {
        let id = run.runID
        return RecordedRun(
            run: run, hasRunRecord: hasRunRecord, sessions: try reader.sessions(runID: id),
            requests: try reader.requests(runID: id), toolCalls: try reader.toolCalls(runID: id),
            handoffs: try reader.handoffs(runID: id), intervals: try reader.intervals(runID: id),
            instants: try reader.instants(runID: id), chunks: chunks ? try reader.chunks(runID: id) : [],
            payloads: try reader.payloads(runID: id), dropped: try reader.dropped(runID: id))
    }
}
