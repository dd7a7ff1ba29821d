import Redaction
import Reproducible
import SessionTrace
import TraceAnalysis
import TraceModel
import TraceStore

/// Writes a trace as Chrome trace-event JSON (the JSON object format), which ui.perfetto.dev and
/// chrome://tracing open.
///
/// Each run is a process named after its label and host. Each session is a thread holding the
/// session as one slice and its requests inside it; a request holds a `waiting for first token`
/// slice and a `generating` slice, so time to first token reads off the picture. Tool calls sit
/// on a `· tools` thread under their session, app intervals on their session's thread (or an
/// `intervals` thread), generation rate is a counter track per session, and handoffs, instants
/// and dropped events are instant events. Times are microseconds (with fractions) from the run's
/// start; ids in `args` are strings, as JavaScript numbers cannot hold 64-bit ids.
///
/// The redaction report is in the top-level `otherData.redaction`.
public enum PerfettoExport {
    /// Request fields that a slice shows other than as an arg of its own name, and how; every
    /// other field of the request's table is an arg under its JSON key.
    static let requestFieldsShownApart: [String: String] = [
        "ts": "the slice's ts", "dur": "the slice's dur", "session_id": "the session's thread",
        "ttft": "ttft_ms, and the waiting slice", "server_prompt_dur": "server_prompt_ms",
        "server_predicted_dur": "server_predicted_ms",
    ]
    /// Tool-call fields that a slice shows other than as an arg of its own name, and how.
    static let toolCallFieldsShownApart: [String: String] = [
        "ts": "the slice's ts", "dur": "the slice's dur", "name": "the slice's name",
        "session_id": "the session's tools thread",
    ]

    /// Payload text longer than this is cut in `args`, so one huge prompt does not swamp the viewer.
    static let payloadLimit = 4_096

    /// The whole export, one event per line.
    public static func render(_ redacted: RedactedTrace) -> String {
        var events: [OrderedJSON] = []
        for (index, run) in redacted.trace.runs.enumerated() {
            var builder = RunBuilder(run: run, pid: Int64(index + 1))
            builder.build()
            events += builder.events
        }
        let report = redacted.report
        let other: OrderedJSON = .object([
            ("store", .string(redacted.trace.path)),
            (
                "exporter",
                .string("SessionTrace \(sessionTraceVersion) trace-report export --format perfetto")
            ),
            ("time", .string("ts and dur in microseconds from each run's start")),
            ("redaction", redactionJSON(report)),
        ])
        var out = "{\"displayTimeUnit\":\"ms\",\"otherData\":" + other.compact() + ",\"traceEvents\":[\n"
        for (index, event) in events.enumerated() {
            event.writeCompact(to: &out)
            out += index == events.count - 1 ? "\n" : ",\n"
        }
        return out + "]}\n"
    }

    /// The report as JSON: the summary line, the total and counts by kind. Never a value.
    static func redactionJSON(_ report: RedactionReport) -> OrderedJSON {
        .object([
            ("summary", .string(report.summary)),
            ("total", .int(Int64(report.total))),
            ("counts", .object(report.sortedCounts.map { ($0.kind.rawValue, .int(Int64($0.count))) })),
        ])
    }
}

/// Builds the events of one run.
private struct RunBuilder {
    let run: RecordedRun
    let pid: Int64
    let start: Int64
    var events: [OrderedJSON] = []
    private var threadIDs: [String: Int64] = [:]
    private var sessionThread: [Int64: Int64] = [:]
    private var intervalThread: [Int64: Int64] = [:]
    private let chunksByRequest: [Int64: [ChunkRecord]]
    /// Tool calls by session: their own `session_id`, else their request's.
    private let toolCallsBySession: [Int64?: [ToolCallRecord]]

    init(run: RecordedRun, pid: Int64) {
        self.run = run
        self.pid = pid
        self.start = run.startTime
        chunksByRequest = Dictionary(grouping: run.chunks, by: \.requestID)
        let requestSession = Dictionary(
            run.requests.map { ($0.requestID, $0.sessionID) }, uniquingKeysWith: { first, _ in first })
        let known = Set(run.sessions.map(\.sessionID))
        toolCallsBySession = Dictionary(grouping: run.toolCalls) { call in
            let session = call.sessionID ?? call.requestID.flatMap { requestSession[$0] ?? nil }
            return session.flatMap { known.contains($0) ? $0 : nil }
        }
    }

    mutating func build() {
        let record = run.run
        var processName = record.host.isEmpty ? "run \(record.runID)" : record.host
        if let label = record.label, !label.isEmpty { processName = "\(label) @ \(processName)" }
        metadata("process_name", tid: 0, name: processName)
        events.append(
            .object([
                ("name", .string("process_sort_index")), ("ph", .string("M")), ("pid", .int(pid)),
                ("tid", .int(0)),
                ("args", .object([("sort_index", .int(pid))])),
            ]))

        let sessionless = run.intervals.filter { interval in
            interval.sessionID == nil || run.session(interval.sessionID) == nil
        }
        if !sessionless.isEmpty {
            sliceGroup(name: "intervals", session: nil, intervals: sessionless, requests: [])
        }
        for session in run.sessions {
            sliceGroup(
                name: session.label, session: session,
                intervals: run.intervals.filter { $0.sessionID == session.sessionID },
                requests: run.requests.filter { $0.sessionID == session.sessionID })
            toolGroup(name: session.label + " · tools", calls: toolCallsBySession[session.sessionID] ?? [])
        }
        let known = Set(run.sessions.map(\.sessionID))
        let orphanRequests = run.requests.filter { $0.sessionID.map { !known.contains($0) } ?? true }
        if !orphanRequests.isEmpty {
            sliceGroup(name: "(no session)", session: nil, intervals: [], requests: orphanRequests)
        }
        toolGroup(name: "(no session) · tools", calls: toolCallsBySession[nil] ?? [])

        for handoff in run.handoffs {
            let tid = handoff.sessionID.flatMap { sessionThread[$0] } ?? thread("events")
            instant(
                "handoff: \(handoff.kind.rawValue)", cat: "handoff", ts: handoff.ts, tid: tid, scope: "t",
                args: [
                    ("kind", .string(handoff.kind.rawValue)), ("from", .string(handoff.from)),
                    ("to", .string(handoff.to)),
                    ("session_id", .id(handoff.sessionID)),
                ])
        }
        for instant in run.instants {
            let tid = instant.parentID.flatMap { intervalThread[$0] ?? sessionThread[$0] } ?? thread("events")
            var args: [(String, OrderedJSON)] = [("instant_id", .id(instant.instantID))]
            args += metadataArgs(instant.metadata)
            self.instant(instant.name, cat: "instant", ts: instant.ts, tid: tid, scope: "t", args: args)
        }
        for dropped in run.dropped {
            instant(
                "dropped events", cat: "dropped", ts: dropped.ts, tid: thread("events"), scope: "p",
                args: [
                    ("sink", .string(dropped.sinkName)), ("reason", .string(dropped.reason.rawValue)),
                    ("count", .int(dropped.count)),
                ])
        }
    }

    // MARK: Groups

    /// A session's thread(s): the session slice, its intervals and its requests, nested.
    private mutating func sliceGroup(
        name: String, session: SessionRecord?, intervals: [IntervalRecord], requests: [RequestRecord]
    ) {
        enum Item {
            case session(SessionRecord, Int64, Int64)
            case interval(IntervalRecord)
            case request(RequestRecord)
        }
        var items: [(start: Int64, end: Int64, rank: Int, item: Item)] = []
        if let session {
            // A session recorded while it grew may end before its last request; widen it so that
            // its requests stay inside it.
            var first = session.ts
            var last = session.ts + max(0, session.dur)
            for request in requests {
                first = min(first, request.ts)
                last = max(last, request.ts + max(0, request.dur))
            }
            for interval in intervals {
                first = min(first, interval.ts)
                last = max(last, interval.ts + max(0, interval.dur))
            }
            items.append((first, last, 0, .session(session, first, last)))
        }
        items += intervals.map { ($0.ts, $0.ts + max(0, $0.dur), 1, .interval($0)) }
        items += requests.map { ($0.ts, $0.ts + max(0, $0.dur), 2, .request($0)) }
        items.sort { ($0.start, -$0.end, $0.rank) < ($1.start, -$1.end, $1.rank) }

        var lanes = NestingLanes()
        for entry in items {
            let acceptsChildren: Bool
            if case .request = entry.item { acceptsChildren = false } else { acceptsChildren = true }
            let lane = lanes.place(start: entry.start, end: entry.end, acceptsChildren: acceptsChildren)
            let tid = thread(lane == 0 ? name : "\(name) (\(lane + 1))")
            switch entry.item {
            case .session(let session, let first, let last):
                sessionThread[session.sessionID] = tid
                slice(
                    session.label, cat: "session", ts: first, dur: last - first, tid: tid,
                    args: [
                        ("session_id", .id(session.sessionID)),
                        ("recorded_dur_ms", .double(Double(session.dur) / 1e6)),
                    ])
            case .interval(let interval):
                intervalThread[interval.intervalID] = tid
                var args: [(String, OrderedJSON)] = [("interval_id", .id(interval.intervalID))]
                if let error = interval.error { args.append(("error", .string(error))) }
                args += metadataArgs(interval.metadata)
                slice(
                    interval.name, cat: "interval", ts: interval.ts, dur: max(0, interval.dur), tid: tid,
                    args: args)
            case .request(let request):
                requestSlices(request, tid: tid, counter: name)
            }
        }
    }

    /// A request, its waiting and generating parts, and its generation rate on the counter track.
    private mutating func requestSlices(_ request: RequestRecord, tid: Int64, counter: String) {
        let dur = max(0, request.dur)
        var args = RequestRecord.table.jsonMembers(request, excluding: Set(PerfettoExport.requestFieldsShownApart.keys))
        args += [
            ("ttft_ms", request.timeToFirstToken.map { .double(Double($0) / 1e6) } ?? .null),
            ("tokens_per_second", .double(request.tokensPerSecond)),
            ("cache_hit_ratio", cacheHitRatio(request)),
        ]
        if let timings = request.serverTimings {
            args += [
                ("server_prompt_ms", .double(Double(timings.promptDuration) / 1e6)),
                ("server_predicted_ms", .double(Double(timings.predictedDuration) / 1e6)),
            ]
        }
        args += payloadArgs(of: request.requestID)
        let name = request.model.isEmpty ? "chat" : "chat \(request.model)"
        slice(name, cat: "request", ts: request.ts, dur: dur, tid: tid, args: args)
        guard let ttft = request.timeToFirstToken else { return }
        let waiting = min(max(0, ttft), dur)
        var waitArgs: [(String, OrderedJSON)] = [("ttft_ms", .double(Double(ttft) / 1e6))]
        // The wait's five parts, a slice each in the order they happen, when the wait ended inside
        // the request; a part not reported gets no slice, and says so in the wait's args.
        let parts = TTFTSplit.Parts(request).flatMap { $0.ttft <= waiting ? $0 : nil }
        if let parts {
            for part in parts.named {
                let key = String(part.key.dropLast(3)) + "_ms"
                waitArgs.append((key, part.value.map { .double(Double($0) / 1e6) } ?? .string("not reported")))
            }
        } else {
            waitArgs.append(("split", .string("no server timings or client phases")))
        }
        slice("waiting for first token", cat: "ttft", ts: request.ts, dur: waiting, tid: tid, args: waitArgs)
        var at = request.ts
        for part in parts?.inTimeOrder ?? [] {
            guard let value = part.value, value > 0 else { continue }
            var args: [(String, OrderedJSON)] = [(String(part.key.dropLast(3)) + "_ms", .double(Double(value) / 1e6))]
            if part.key == "prompt_ns" {
                args += [
                    ("server_prompt_tokens", .int(request.serverTimings?.promptTokens)),
                    ("server_cached_tokens", .int(request.serverTimings?.cachedTokens)),
                ]
            }
            slice(part.label, cat: "ttft." + part.key.dropLast(3), ts: at, dur: value, tid: tid, args: args)
            at += value
        }
        if dur > waiting {
            slice(
                "generating", cat: "generation", ts: request.ts + waiting, dur: dur - waiting, tid: tid,
                args: [
                    ("output_tokens", .int(request.outputTokens)),
                    ("tokens_per_second", .double(request.tokensPerSecond)),
                ])
        }
        rateCounter(request, firstToken: request.ts + waiting, end: request.ts + dur, track: counter)
    }

    /// The generation rate while the request streams: its average from the first token, refined
    /// by streamed chunks where the store has them (tokens over the last eight chunks' span),
    /// and 0 when it ends.
    private mutating func rateCounter(_ request: RequestRecord, firstToken: Int64, end: Int64, track: String)
    {
        let name = "rate · \(track)"
        if let rate = request.tokensPerSecond { counter(name, ts: firstToken, value: rate) }
        let chunks = chunksByRequest[request.requestID] ?? []
        if chunks.count > 1 {
            for index in 1..<chunks.count {
                let oldest = max(0, index - 8)
                let span = chunks[index].ts - chunks[oldest].ts
                guard span > 0 else { continue }
                let tokens = chunks[(oldest + 1)...index].reduce(Int64(0)) { $0 + $1.tokens }
                counter(name, ts: chunks[index].ts, value: Double(tokens) / (Double(span) / 1e9))
            }
        }
        counter(name, ts: end, value: 0)
    }

    /// Tool calls of one session on their own thread(s); parallel calls open more lanes.
    private mutating func toolGroup(name: String, calls: [ToolCallRecord]) {
        var lanes = NestingLanes()
        let sorted = calls.sorted { ($0.ts, -$0.dur) < ($1.ts, -$1.dur) }
        for call in sorted {
            let dur = max(0, call.dur)
            let lane = lanes.place(start: call.ts, end: call.ts + dur, acceptsChildren: false)
            let tid = thread(lane == 0 ? name : "\(name) (\(lane + 1))")
            var args = ToolCallRecord.table.jsonMembers(call, excluding: Set(PerfettoExport.toolCallFieldsShownApart.keys))
            args += payloadArgs(of: call.toolCallID)
            slice(call.name, cat: "tool_call", ts: call.ts, dur: dur, tid: tid, args: args)
        }
    }

    // MARK: Events

    /// The thread named `name`, made (with its name and order) on first use.
    private mutating func thread(_ name: String) -> Int64 {
        if let tid = threadIDs[name] { return tid }
        let tid = Int64(threadIDs.count + 1)
        threadIDs[name] = tid
        metadata("thread_name", tid: tid, name: name)
        events.append(
            .object([
                ("name", .string("thread_sort_index")), ("ph", .string("M")), ("pid", .int(pid)),
                ("tid", .int(tid)),
                ("args", .object([("sort_index", .int(tid))])),
            ]))
        return tid
    }

    private mutating func metadata(_ kind: String, tid: Int64, name: String) {
        events.append(
            .object([
                ("name", .string(kind)), ("ph", .string("M")), ("pid", .int(pid)), ("tid", .int(tid)),
                ("args", .object([("name", .string(name))])),
            ]))
    }

    private mutating func slice(
        _ name: String, cat: String, ts: Int64, dur: Int64, tid: Int64, args: [(String, OrderedJSON)]
    ) {
        events.append(
            .object([
                ("name", .string(name)), ("cat", .string(cat)), ("ph", .string("X")), ("ts", micros(ts)),
                ("dur", .double(Double(dur) / 1e3)), ("pid", .int(pid)), ("tid", .int(tid)),
                ("args", OrderedJSON.objectDroppingNulls(args)),
            ]))
    }

    private mutating func instant(
        _ name: String, cat: String, ts: Int64, tid: Int64, scope: String, args: [(String, OrderedJSON)]
    ) {
        events.append(
            .object([
                ("name", .string(name)), ("cat", .string(cat)), ("ph", .string("i")), ("s", .string(scope)),
                ("ts", micros(ts)), ("pid", .int(pid)), ("tid", .int(tid)),
                ("args", OrderedJSON.objectDroppingNulls(args)),
            ]))
    }

    private mutating func counter(_ name: String, ts: Int64, value: Double) {
        guard value.isFinite else { return }
        events.append(
            .object([
                ("name", .string(name)), ("cat", .string("rate")), ("ph", .string("C")), ("ts", micros(ts)),
                ("pid", .int(pid)), ("tid", .int(0)), ("args", .object([("tokens/s", .double(value))])),
            ]))
    }

    private func micros(_ ts: Int64) -> OrderedJSON { .double(Double(ts - start) / 1e3) }

    private func cacheHitRatio(_ request: RequestRecord) -> OrderedJSON {
        guard let cached = request.cachedInputTokens, let input = request.inputTokens, input > 0 else {
            return .null
        }
        return .double(Double(cached) / Double(input))
    }

    private func metadataArgs(_ metadata: TraceMetadata) -> [(String, OrderedJSON)] {
        guard !metadata.isEmpty else { return [] }
        return [("metadata", metadata.orderedJSON)]
    }

    /// Captured text of a request or tool call, cut at ``PerfettoExport/payloadLimit`` characters.
    private func payloadArgs(of parentID: Int64) -> [(String, OrderedJSON)] {
        guard let payloads = run.payloadsByParent[parentID] else { return [] }
        return payloads.map { payload in
            var text = payload.text
            if text.count > PerfettoExport.payloadLimit {
                text =
                    String(text.prefix(PerfettoExport.payloadLimit)) + " … (\(payload.text.count) characters)"
            }
            return (payload.kind.rawValue, .string(text))
        }
    }
}
