import LTTngReader
import SessionTrace
import TraceAnalysis
import TraceModel
import TraceStore

extension SummaryReport {
    /// Aggregates the LTTng trace at or below the folder `path` as it is read, decoding only
    /// ``fieldsRead``; with the notes on implausible values in those fields.
    public static func compute(
        lttngTrace path: String, prices: PriceTable? = nil
    ) throws(LTTngTraceError) -> (report: SummaryReport, anomalies: [StoreAnomaly]) {
        let stream = try LTTngRecordStream(path: path, selection: fieldsRead)
        return (try compute(stream: stream, prices: prices), stream.anomalies)
    }

    /// The fields of an LTTng trace the summary reads: the columns ``compute(reader:)`` selects from
    /// a store, so the other fields are not decoded, and the notes on implausible values are the
    /// store's.
    static let fieldsRead: SessionTraceDecoder.Selection = [
        .run: ["ts", "label"],
        .session: ["label"],
        .request: [
            "session_id", "ts", "dur", "ttft", "profile", "provider", "model", "input_tokens",
            "cached_input_tokens", "output_tokens", "error", "cache_write_tokens",
            // Whether the server reported timings, and its prompt processing: the TTFT split.
            "server_prompt_tokens", "server_prompt_dur",
        ],
        .toolCall: ["request_id", "session_id", "dur"],
        .dropped: ["count"],
    ]

    /// Aggregates the records of an LTTng trace as they are read: the figures of ``compute(trace:)``
    /// of the same trace, without gathering it, so a million requests cost one pass and the memory
    /// of their figures, as ``compute(reader:)`` costs for a store. `stream` needs only
    /// ``fieldsRead``.
    public static func compute(
        stream: LTTngRecordStream, prices: PriceTable? = nil
    ) throws(LTTngTraceError) -> SummaryReport {
        var builder = Builder(prices: prices)
        // A tool call's profile and model are its request's, which may be read after it: tool calls
        // are added once every request is known, looked up among the requests they name only.
        var requestProfiles: [(request: RunRequest, profile: Int)] = []
        var toolCalls: [(runID: Int64, call: ToolCallRecord)] = []
        while case .record(let event, let runID, _) = try stream.next() {
            switch event {
            case .run(let run): builder.runLabels[runID] = run.label
            case .session(let session): builder.sessionLabels[session.sessionID] = session.label
            case .request(let request):
                let profile = builder.addRequest(
                    runID: runID, sessionID: request.sessionID, profile: request.profile, model: request.model,
                    ts: request.ts, dur: request.dur, ttft: request.timeToFirstToken,
                    outputTokens: request.outputTokens, inputTokens: request.inputTokens,
                    cachedInputTokens: request.cachedInputTokens, failed: request.error != nil,
                    serverPromptDuration: request.serverTimings?.promptDuration, cost: prices?.cost(of: request))
                requestProfiles.append((RunRequest(runID: runID, requestID: request.requestID), profile))
            case .toolCall(let call): toolCalls.append((runID, call))
            case .dropped(let dropped):
                builder.dropped[runID] = builder.dropped[runID, default: 0].saturatingAdd(dropped.count)
            case .handoff, .interval, .instant, .chunk, .payload: break
            }
        }
        let named = Set(toolCalls.compactMap { runID, call in
            call.requestID.map { RunRequest(runID: runID, requestID: $0) }
        })
        var profileOfRequest: [RunRequest: Int] = [:]
        for (request, profile) in named.isEmpty ? [] : requestProfiles
        where named.contains(request) && profileOfRequest[request] == nil {
            profileOfRequest[request] = profile
        }
        for (runID, call) in toolCalls {
            let profile = call.requestID.flatMap { profileOfRequest[RunRequest(runID: runID, requestID: $0)] }
            builder.addToolCall(runID: runID, sessionID: call.sessionID, profileSlot: profile, dur: call.dur)
        }
        return builder.finish(path: stream.path)
    }

}
