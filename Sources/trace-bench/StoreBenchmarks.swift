import CSQLite
import Foundation
import SessionTrace
import TraceStore

/// The SQLite store's costs: on the caller's thread, and to disk against plain SQLite.
///
/// - `emit.store`: ns of the caller's CPU time per request record, through `Tracer(sink: StoreSink)`.
/// - `store.ingest`: request records per second written to a new store, lossless: every record
///   emitted is a row afterwards (``losslessIngestRate(events:path:)``).
/// - `c.sqlite.insert`: the same rows through one prepared INSERT in plain SQLite calls, into the
///   same schema and pragmas, committed every `StoreSink.maximumTransactionSize` rows; the
///   reference `store.ingest` is judged against.
///
/// Both write a tracer's ids (the run in the upper half) and timestamps (counting up from the
/// monotonic clock's now), as a traced program's rows carry: with timestamps counting from 0, SQLite
/// wrote less for each row than it does for a real one (`StoreWriterIOTests`).
///
/// Each figure is the best of three runs: the machine is shared, and the best run is the one
/// least disturbed by others. A run in which the sink dropped a record fails (``LossyRun``): its
/// figures would time the drop path, not the store.
func storeBenchmarks(events: Int) throws -> [BenchmarkRow] {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("trace-bench-store-\(UUID().uuidString)", isDirectory: true)
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }

    var bestEmit = Double.infinity
    var bestIngest = 0.0
    var bestReference = 0.0
    for attempt in 0..<3 {
        let storePath = directory.appendingPathComponent("store-\(attempt).sqlite").path
        bestEmit = min(bestEmit, try emitCost(path: storePath + "-emit", events: events))
        bestIngest = max(bestIngest, try losslessIngestRate(events: events, path: storePath))
        let referencePath = directory.appendingPathComponent("reference-\(attempt).sqlite").path
        if let rate = measurePlainSQLite(path: referencePath, events: events) {
            bestReference = max(bestReference, rate)
        }
    }
    return [
        BenchmarkRow(metric: "emit.store", value: bestEmit, unit: BenchmarkRow.callerCostUnit),
        BenchmarkRow(
            metric: "store.ingest", value: bestIngest, unit: "events/s", reference: "c.sqlite.insert",
            referenceValue: bestReference),
        BenchmarkRow(metric: "c.sqlite.insert", value: bestReference, unit: "events/s"),
    ]
}

/// The request every benchmark writes, with the values of the C reference's
/// (`st_reference_request_loop`); all but one of its strings short enough to be stored inline.
@inline(__always)
func benchmarkRequest(id: Int64, ts: Int64) -> RequestRecord {
    RequestRecord(
        requestID: id, sessionID: 7, parentID: 7, ts: ts, dur: 900_000_000, timeToFirstToken: 120_000_000,
        profile: "economy", provider: "llama.cpp", model: "smollm2-135m", inputTokens: 512,
        cachedInputTokens: 384, outputTokens: 79, promptBytes: 2_048, transcriptEntries: 6,
        reusedPrefixEntries: 4, finishReason: "stop",
        serverTimings: ServerTimings(
            promptTokens: 128, cachedTokens: 384, promptDuration: 40_000_000, predictedTokens: 79,
            predictedDuration: 760_000_000),
        turnID: 9, instructionsFingerprint: "3f2a9c0d1e4b5a69", responseModel: "smollm2-135m",
        serverAddress: "127.0.0.1", serverPort: 8_080, streamed: true, maxTokens: 256,
        clientPhases: ClientPhases(nameResolved: 40_000, connected: 160_000, requestSent: 300_000, firstByte: 2_000_000))
}

/// Median ns of the caller's CPU time per request record into a fresh store at `path`.
///
/// Bursts of 8,192 events with a flush (untimed) between them, as a traced program emits: the
/// writer thread drains each burst while it is being emitted, and the queue's memory is reused.
/// Emitting all events at once into an ever-growing queue would time the kernel handing out fresh
/// pages instead (about half the cost); the median keeps out bursts that the rest of the machine
/// disturbed.
private func emitCost(path: String, events: Int) throws -> Double {
    defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
    let sink = try StoreSink(path: path)
    let median = callerCost(of: sink, events: events)
    sink.close()
    try LossyRun.check(sink, metric: "emit.store")
    return median
}

/// `store.ingest` without losses: request records per second that a `StoreSink` (its default
/// queue) writes to a new store at `path`, from the first emit until the last `flush()` returns.
///
/// The sink never blocks its caller and counts what its queue cannot take, so records pushed as
/// fast as a loop emits them overflow it (in events or in bytes): the rate of what it kept would
/// flatter it. Here they come in bursts of a quarter of its queue, each flushed before the next, as
/// `trace-report import` hands them over; the rate is of the rows found in the store afterwards.
///
/// - Throws: ``LossyRun`` when the sink dropped a record or wrote fewer rows than it got.
func losslessIngestRate(events: Int, path: String) throws -> Double {
    defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
    let sink = try StoreSink(path: path)
    let tracer = Tracer(sink: sink, label: "trace-bench")
    let burst = sink.capacity / 4
    let start = MonotonicClock().now()
    let elapsed = seconds {
        var emitted = 0
        while emitted < events {
            let count = min(burst, events - emitted)
            for index in emitted..<(emitted + count) {
                tracer.record(request: benchmarkRequest(id: tracer.makeID(), ts: start + Int64(index)))
            }
            emitted += count
            sink.flush()
        }
    }
    sink.close()
    var written: Int64 = 0
    try StoreReader(path: path).query("SELECT count(*) FROM request") { written = $0.int64(0) }
    try LossyRun.check(sink, metric: "store.ingest", written: written, events: events)
    return Double(written) / elapsed
}

/// Median ns of the caller's CPU time per request record into `sink`, emitted in bursts of 8,192
/// with an untimed `flush()` between bursts (see `emitCost(path:events:)`).
func callerCost(
    of sink: any TraceSink, events: Int, payloadRedaction: (@Sendable (String) -> String)? = nil
) -> Double {
    burstCosts([.requests(into: sink, payloadRedaction: payloadRedaction)], events: events)[0].cpu
}

/// Why a benchmark gives no figure: its sink dropped records, or stored fewer than it got, so what
/// it measured was the drop path.
struct LossyRun: Error, CustomStringConvertible {
    var metric: String
    var dropped: Int64
    var written: Int64?
    var events: Int

    var description: String {
        "\(metric): the store dropped \(dropped) records" + (written.map { " and wrote \($0) of \(events)" } ?? "")
            + ", so the run measures its losses, not the store; no figure is given"
    }

    /// Throws when `sink` dropped a record, or when `written` (if counted) is not `events`.
    static func check(_ sink: StoreSink, metric: String, written: Int64? = nil, events: Int = 0) throws {
        let dropped = sink.droppedCounts.values.reduce(0, +)
        guard dropped == 0, written.map({ $0 == Int64(events) }) ?? true else {
            throw LossyRun(metric: metric, dropped: dropped, written: written, events: events)
        }
    }
}

/// The reference: the same rows, one prepared INSERT, plain SQLite calls.
private func measurePlainSQLite(path: String, events: Int) -> Double? {
    // The schema comes from the store itself, so both sides write the same tables and indexes.
    guard let schemaOnly = try? StoreSink(path: path) else { return nil }
    schemaOnly.close()

    var database: OpaquePointer?
    guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
        let database
    else { return nil }
    defer { sqlite3_close_v2(database) }
    sqlite3_exec(database, StoreSchema.writerPragmas, nil, nil, nil)
    // Every column the store writes, in its order: the benchmark's record, whose values do not
    // change from row to row but for its id and `ts`, read once before the timed loop.
    let template = benchmarkRequest(id: 0, ts: 0)
    let columns = RequestRecord.table.fields.map { ($0.spec.column, $0.get(template)) }
    let sql = "INSERT OR REPLACE INTO request (run_id, " + columns.map(\.0).joined(separator: ", ")
        + ") VALUES (" + (1...columns.count + 1).map { "?\($0)" }.joined(separator: ", ") + ")"
    var insert: OpaquePointer?
    guard sqlite3_prepare_v2(database, sql, -1, &insert, nil) == SQLITE_OK, let insert else { return nil }
    defer { sqlite3_finalize(insert) }
    let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    func bindText(_ index: Int32, _ text: String) {
        var text = text
        text.withUTF8 { _ = sqlite3_bind_text(insert, index, $0.baseAddress, Int32($0.count), transient) }
    }

    guard let id = columns.firstIndex(where: { $0.0 == "request_id" }),
        let ts = columns.firstIndex(where: { $0.0 == "ts" })
    else { return nil }
    let (idPosition, tsPosition) = (Int32(id + 2), Int32(ts + 2))
    let runID: Int64 = 1 << 32
    let batch = StoreSink.maximumTransactionSize
    let clock = MonotonicClock()
    let start = clock.now()
    sqlite3_exec(database, "BEGIN", nil, nil, nil)
    for index in 0..<events {
        if index > 0 && index % batch == 0 {
            sqlite3_exec(database, "COMMIT; BEGIN", nil, nil, nil)
        }
        // Every value bound for every row, as a program inserting its rows would.
        sqlite3_bind_int64(insert, 1, runID)
        for (offset, (_, value)) in columns.enumerated() {
            let position = Int32(offset + 2)
            switch value {
            case .null, .metadata, .sketch: sqlite3_bind_null(insert, position)
            case .integer(let integer): sqlite3_bind_int64(insert, position, integer)
            case .real(let real): sqlite3_bind_double(insert, position, real)
            case .text(let text): bindText(position, text)
            case .bool(let flag): sqlite3_bind_int64(insert, position, flag ? 1 : 0)
            }
        }
        sqlite3_bind_int64(insert, idPosition, runID | Int64(index + 1))
        sqlite3_bind_int64(insert, tsPosition, start + Int64(index))
        guard sqlite3_step(insert) == SQLITE_DONE else { return nil }
        sqlite3_reset(insert)
    }
    sqlite3_exec(database, "COMMIT", nil, nil, nil)
    let end = clock.now()
    return Double(events) / (Double(end - start) / 1e9)
}
