import Redaction
import Reproducible
import SessionTrace
import TraceAnalysis
import TraceStore

/// Writes a trace as JSON Lines: one object per record of the store, `type` first (`run`,
/// `session`, `request`, `tool_call`, `handoff`, `interval`, `instant`, `chunk`, `payload`,
/// `dropped`), then the columns of its table under their snake_case names (docs/schema.md), with
/// `run_id` on every record: the record's field table, in order (``RecordTable/jsonLinesMembers``).
/// Unknown values are `null`, as NULL is in the store. A request with a time to first token and
/// anything to split it by also carries `ttft_split`, its wait in five parts that add up to `ttft`
/// (``TTFTSplit/Parts``).
///
/// Records come run by run, table by table in that order, each table by `ts`. The last line is
/// `{"type":"redaction_report","summary":...,"total":N,"counts":{kind: N}}`.
public enum JSONLinesExport {
    public static func render(_ redacted: RedactedTrace) -> String {
        var out = ""
        for run in redacted.trace.runs {
            let runID = run.run.runID
            func lines<Record: TableRecord>(
                _ records: [Record], derived: (Record) -> [(String, OrderedJSON)] = { _ in [] }
            ) {
                for record in records {
                    OrderedJSON.object(
                        [("type", .string(Record.table.name))] + Record.table.jsonLinesMembers(record, runID: runID)
                            + derived(record)
                    ).writeCompact(to: &out)
                    out += "\n"
                }
            }
            if run.hasRunRecord { lines([run.run]) }
            lines(run.sessions.filter { redacted.recordedSessionIDs.contains($0.sessionID) })
            lines(run.requests) { request in TTFTSplit.Parts(request).map { [("ttft_split", $0.json)] } ?? [] }
            lines(run.toolCalls)
            lines(run.handoffs)
            lines(run.intervals)
            lines(run.instants)
            lines(run.chunks)
            lines(run.payloads)
            lines(run.dropped)
        }
        let report = redacted.report
        OrderedJSON.object([
            ("type", .string("redaction_report")), ("summary", .string(report.summary)),
            ("total", .int(Int64(report.total))),
            ("counts", .object(report.sortedCounts.map { ($0.kind.rawValue, .int(Int64($0.count))) })),
        ]).writeCompact(to: &out)
        return out + "\n"
    }
}
