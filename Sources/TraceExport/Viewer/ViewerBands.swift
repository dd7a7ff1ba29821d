import Reproducible
import SessionTrace
import TraceAnalysis
import TraceModel

/// Aggregate bands: how the viewer's export draws a run too large for one bar per request.
///
/// In a run of more than ``threshold`` requests, every session with more than ``bandsPerLane``
/// requests is written as at most ``bandsPerLane`` bands of equal time instead of its requests
/// and tool calls. Each request and tool call of such a session counts in exactly one band (the
/// one its start falls in); a band holds their counts and summed times, the user turns that start
/// in it with their total times, and the ids of the events in it that a finding names. Format in
/// `docs/viewer-data.md`.
public enum ViewerBands {
    /// Requests in one run above which dense sessions are drawn as bands. Chosen from the
    /// viewer's measurements: 10,000 bars open in about 0.3 s, 100,000 in over 6 s.
    public static let threshold = 20_000
    /// Bands per session lane: a few per pixel column of a wide window.
    public static let bandsPerLane = 2_000

    /// The sessions of `recorded` drawn as bands; none in a run at or under ``threshold``.
    static func bandedSessions(_ recorded: RecordedRun) -> Set<Int64> {
        guard recorded.requests.count > threshold else { return [] }
        var perSession: [Int64: Int] = [:]
        for request in recorded.requests {
            if let session = request.sessionID { perSession[session, default: 0] += 1 }
        }
        return Set(perSession.filter { $0.value > bandsPerLane }.keys)
    }

    /// The bands of the `sessions` of `recorded`, as the viewer's JSON, time relative to the run;
    /// `turns` are the run's turns (``RunTurns``).
    static func bands(
        _ recorded: RecordedRun, sessions: Set<Int64>, named: Set<Int64>, turns: [Turn]
    ) -> [OrderedJSON] {
        guard !sessions.isEmpty else { return [] }
        let start = recorded.startTime
        var sessionOfRequest: [Int64: Int64] = [:]
        var lanes: [Int64: [Band]] = [:]
        var span: [Int64: (first: Int64, end: Int64)] = [:]
        for request in recorded.requests {
            guard let session = request.sessionID, sessions.contains(session) else { continue }
            sessionOfRequest[request.requestID] = session
            let old = span[session] ?? (request.ts, request.ts + request.dur)
            span[session] = (min(old.first, request.ts), max(old.end, request.ts + request.dur))
        }
        func bucket(_ session: Int64, _ ts: Int64) -> Int {
            guard let range = span[session] else { return 0 }
            let width = max(1, (range.end - range.first + Int64(bandsPerLane) - 1) / Int64(bandsPerLane))
            let index = Int((ts - range.first) / width)
            if lanes[session] == nil {
                lanes[session] = (0..<bandsPerLane).map { index in
                    Band(ts: range.first + Int64(index) * width, dur: width)
                }
            }
            return min(max(index, 0), bandsPerLane - 1)
        }
        for request in recorded.requests {
            guard let session = request.sessionID, sessions.contains(session) else { continue }
            let index = bucket(session, request.ts)
            lanes[session]![index].add(request, named: named)
        }
        for call in recorded.toolCalls {
            guard let session = call.sessionID ?? call.requestID.flatMap({ sessionOfRequest[$0] }),
                  sessions.contains(session) else { continue }
            let index = bucket(session, call.ts)
            lanes[session]![index].add(call, named: named)
        }
        for turn in turns {
            guard let session = turn.sessionID, sessions.contains(session), let first = turn.requests.first
            else { continue }
            // A turn lasts from its first request's start to the end of its last request or tool call.
            var end = first.ts
            for request in turn.requests {
                end = max(end, request.ts + request.dur)
                for call in recorded.toolCallsByRequest[request.requestID] ?? [] {
                    end = max(end, call.ts + call.dur)
                }
            }
            lanes[session]![bucket(session, first.ts)].add(turnTime: end - first.ts)
        }
        return lanes.keys.sorted().flatMap { session in
            lanes[session]!.filter { $0.requests + $0.toolCalls > 0 }.map { $0.json(session: session, start: start) }
        }
    }

    /// The figures of one band.
    struct Band {
        var ts: Int64
        var dur: Int64
        var requests: Int64 = 0
        var toolCalls: Int64 = 0
        var errors: Int64 = 0
        var toolErrors: Int64 = 0
        var requestTime: Int64 = 0
        var waitTime: Int64 = 0
        var promptTime: Int64 = 0
        var toolTime: Int64 = 0
        var turns: Int64 = 0
        var turnTime: Int64 = 0
        var longestTurn: Int64 = 0
        var first: Int64?
        var last: Int64?
        var findingEventIDs: [Int64] = []
        /// The times to first token of its requests that have one, for its p95.
        var ttfts: [Int64] = []
        /// Input and cached input tokens of its requests that reported both.
        var inputTokens: Int64 = 0
        var cachedInputTokens: Int64 = 0

        mutating func add(_ request: RequestRecord, named: Set<Int64>) {
            requests += 1
            if request.error != nil { errors += 1 }
            requestTime += request.dur
            let wait = min(request.timeToFirstToken ?? 0, request.dur)
            waitTime += wait
            promptTime += min(request.serverTimings?.promptDuration ?? 0, wait)
            if let ttft = request.timeToFirstToken { ttfts.append(ttft) }
            if let input = request.inputTokens, let cached = request.cachedInputTokens {
                inputTokens += input
                cachedInputTokens += cached
            }
            first = first.map { min($0, request.requestID) } ?? request.requestID
            last = last.map { max($0, request.requestID) } ?? request.requestID
            if named.contains(request.requestID) { findingEventIDs.append(request.requestID) }
        }

        mutating func add(_ call: ToolCallRecord, named: Set<Int64>) {
            toolCalls += 1
            if call.error != nil { toolErrors += 1 }
            toolTime += call.dur
            if named.contains(call.toolCallID) { findingEventIDs.append(call.toolCallID) }
        }

        mutating func add(turnTime time: Int64) {
            turns += 1
            turnTime += time
            longestTurn = max(longestTurn, time)
        }

        func json(session: Int64, start: Int64) -> OrderedJSON {
            .object([
                ("sessionID", .id(session)), ("ts", .int(ts - start)), ("dur", .int(dur)),
                ("requests", .int(requests)), ("toolCalls", .int(toolCalls)), ("errors", .int(errors)),
                ("toolErrors", .int(toolErrors)), ("requestTime", .int(requestTime)),
                ("waitTime", .int(waitTime)), ("promptTime", .int(promptTime)),
                ("generatingTime", .int(requestTime - waitTime)), ("toolTime", .int(toolTime)),
                ("turns", .int(turns)), ("turnTime", .int(turnTime)), ("longestTurn", .int(longestTurn)),
                ("firstRequestID", .id(first)), ("lastRequestID", .id(last)),
                ("findingEventIDs", .array(findingEventIDs.map { .id($0) })),
                ("ttftP95", .int(Percentile.nearestRank(95, of: ttfts))),
                ("cacheHitRate", .double(inputTokens > 0 ? Double(cachedInputTokens) / Double(inputTokens) : nil)),
            ])
        }
    }
}
