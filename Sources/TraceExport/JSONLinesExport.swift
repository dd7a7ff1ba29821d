import Redaction
import Reproducible
import SessionTrace
import TraceStore

/// Writes a trace as JSON Lines: one object per record of the store, `type` first (`run`,
/// `session`, `request`, `tool_call`, `handoff`, `interval`, `instant`, `chunk`, `payload`,
/// `dropped`), then the columns of its table under their snake_case names (docs/schema.md), with
/// `run_id` on every record. Unknown values are `null`, as NULL is in the store.
///
/// Records come run by run, table by table in that order, each table by `ts`. The last line is
/// `{"type":"redaction_report","summary":...,"total":N,"counts":{kind: N}}`.
public enum JSONLinesExport {
    public static func render(_ redacted: RedactedTrace) -> String {
        var out = ""
        for run in redacted.trace.runs {
            let runID = run.run.runID
            func line(_ type: String, _ members: [(String, OrderedJSON)]) {
                OrderedJSON.object([("type", .string(type))] + members).writeCompact(to: &out)
                out += "\n"
            }
            if run.hasRunRecord {
                let record = run.run
                line(
                    "run",
                    [
                        ("run_id", .id(runID)), ("ts", .int(record.ts)),
                        // Nanoseconds since 1970, above 2^53: a decimal string, as ids, to stay exact.
                        ("wall_clock_start", .string(String(record.wallClockStart))),
                        ("host", .string(record.host)), ("command_line", .string(record.commandLine)),
                        ("git_revision", .string(record.gitRevision)), ("label", .string(record.label)),
                        ("tool_version", .string(record.toolVersion)),
                    ])
            }
            for session in run.sessions where redacted.recordedSessionIDs.contains(session.sessionID) {
                line(
                    "session",
                    [
                        ("session_id", .id(session.sessionID)), ("run_id", .id(runID)),
                        ("ts", .int(session.ts)),
                        ("dur", .int(session.dur)), ("label", .string(session.label)),
                    ])
            }
            for request in run.requests {
                let timings = request.serverTimings
                line(
                    "request",
                    [
                        ("request_id", .id(request.requestID)), ("run_id", .id(runID)),
                        ("session_id", .id(request.sessionID)), ("parent_id", .id(request.parentID)),
                        ("ts", .int(request.ts)), ("dur", .int(request.dur)),
                        ("ttft", .int(request.timeToFirstToken)),
                        ("profile", .string(request.profile)), ("provider", .string(request.provider)),
                        ("model", .string(request.model)), ("input_tokens", .int(request.inputTokens)),
                        ("cached_input_tokens", .int(request.cachedInputTokens)),
                        ("output_tokens", .int(request.outputTokens)),
                        ("prompt_bytes", .int(request.promptBytes)),
                        ("transcript_entries", .int(request.transcriptEntries)),
                        ("reused_prefix_entries", .int(request.reusedPrefixEntries)),
                        ("finish_reason", .string(request.finishReason)), ("error", .string(request.error)),
                        ("server_prompt_tokens", .int(timings?.promptTokens)),
                        ("server_cached_tokens", .int(timings?.cachedTokens)),
                        ("server_prompt_dur", .int(timings?.promptDuration)),
                        ("server_predicted_tokens", .int(timings?.predictedTokens)),
                        ("server_predicted_dur", .int(timings?.predictedDuration)),
                    ] + request.identityFields + [
                        ("server_address", .string(request.serverAddress)),
                        ("server_port", .int(request.serverPort)),
                        ("streamed", request.streamed.map(OrderedJSON.bool) ?? .null),
                        ("max_tokens", .int(request.maxTokens)),
                        ("temperature", .double(request.temperature)),
                    ])
            }
            for call in run.toolCalls {
                line(
                    "tool_call",
                    [
                        ("tool_call_id", .id(call.toolCallID)), ("run_id", .id(runID)),
                        ("request_id", .id(call.requestID)), ("session_id", .id(call.sessionID)),
                        ("ts", .int(call.ts)), ("dur", .int(call.dur)), ("name", .string(call.name)),
                        ("call_id", .string(call.callID)),
                        ("arguments_fingerprint", .string(call.argumentsFingerprint)),
                        ("arguments_bytes", .int(call.argumentsBytes)),
                        ("output_bytes", .int(call.outputBytes)),
                        ("outcome", .string(call.outcome)), ("error", .string(call.error)),
                        ("output_fingerprint", .string(call.outputFingerprint)),
                        ("output_sketch", .string(call.outputSketch.map(StoreSchema.encodeSketch))),
                    ])
            }
            for handoff in run.handoffs {
                line(
                    "handoff",
                    [
                        ("handoff_id", .id(handoff.handoffID)), ("run_id", .id(runID)),
                        ("session_id", .id(handoff.sessionID)), ("ts", .int(handoff.ts)),
                        ("kind", .string(handoff.kind)),
                        ("from_value", .string(handoff.from)), ("to_value", .string(handoff.to)),
                    ])
            }
            for interval in run.intervals {
                line(
                    "interval",
                    [
                        ("interval_id", .id(interval.intervalID)), ("run_id", .id(runID)),
                        ("parent_id", .id(interval.parentID)), ("session_id", .id(interval.sessionID)),
                        ("ts", .int(interval.ts)), ("dur", .int(interval.dur)),
                        ("name", .string(interval.name)),
                        ("metadata", interval.metadata.orderedJSON), ("error", .string(interval.error)),
                    ])
            }
            for instant in run.instants {
                line(
                    "instant",
                    [
                        ("instant_id", .id(instant.instantID)), ("run_id", .id(runID)),
                        ("parent_id", .id(instant.parentID)), ("ts", .int(instant.ts)),
                        ("name", .string(instant.name)),
                        ("metadata", instant.metadata.orderedJSON),
                    ])
            }
            for chunk in run.chunks {
                line(
                    "chunk",
                    [
                        ("run_id", .id(runID)), ("request_id", .id(chunk.requestID)),
                        ("ts", .int(chunk.ts)),
                        ("tokens", .int(chunk.tokens)),
                    ])
            }
            for payload in run.payloads {
                line(
                    "payload",
                    [
                        ("payload_id", .id(payload.payloadID)), ("run_id", .id(runID)),
                        ("parent_id", .id(payload.parentID)), ("ts", .int(payload.ts)),
                        ("kind", .string(payload.kind.rawValue)), ("text", .string(payload.text)),
                    ])
            }
            for dropped in run.dropped {
                line(
                    "dropped",
                    [
                        ("run_id", .id(runID)), ("ts", .int(dropped.ts)), ("sink", .string(dropped.sink)),
                        ("reason", .string(dropped.reason)), ("count", .int(dropped.count)),
                    ])
            }
        }
        let report = redacted.report
        OrderedJSON.object([
            ("type", .string("redaction_report")), ("summary", .string(report.summary)),
            ("total", .int(Int64(report.total))),
            ("counts", .object(report.sortedCounts.map { ($0.kind, .int(Int64($0.count))) })),
        ]).writeCompact(to: &out)
        return out + "\n"
    }
}
