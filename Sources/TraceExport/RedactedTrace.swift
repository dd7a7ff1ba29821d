import Redaction
import SessionTrace
import TraceModel
import TraceStore

/// A loaded store with every string passed through a ``Redactor``, and the counts of what was
/// replaced: the only input the exporters take, so no export can skip redaction.
///
/// ```swift
/// let redacted = RedactedTrace.redact(try TraceLoader.load(path: "run.sqlite"), with: .standard)
/// let json = PerfettoExport.render(redacted)
/// print(redacted.report.summary)   // redacted 2 values: 1 email, 1 openai_key
/// ```
///
/// Payloads were redacted when they were recorded, but with the rules of that day; an export is
/// redacted again with today's rules and the user's own, over every field, not only payloads.
public struct RedactedTrace: Sendable {
    /// The records, with every string redacted.
    public var trace: RecordedTrace
    /// What was replaced, by kind, across the whole export. Never holds a value.
    public var report: RedactionReport
    /// Ids of sessions that have a row in the store; ``RecordedRun/sessions`` also holds sessions
    /// made up for ids that requests name, which record-for-record exports leave out.
    public var recordedSessionIDs: Set<Int64>

    public init(trace: RecordedTrace, report: RedactionReport, recordedSessionIDs: Set<Int64>) {
        self.trace = trace
        self.report = report
        self.recordedSessionIDs = recordedSessionIDs
    }

    /// Redacts every string of `trace`: names, labels, metadata keys and values, errors, payload
    /// text, the command line and the store's path, also where a note on implausible values names it.
    public static func redact(_ trace: RecordedTrace, with redactor: Redactor) -> RedactedTrace {
        var scrubber = Scrubber(redactor: redactor)
        var copy = trace
        copy.path = scrubber.text(trace.path, field: "path")
        copy.runs = trace.runs.map { scrubber.run($0) }
        // Notes go to standard error, not into an export: redacted, but not counted in its report.
        copy.anomalies = trace.anomalies.map { $0.redacted(by: redactor) }
        copy.unclosedRuns = trace.unclosedRuns.map { $0.redacted(by: redactor) }
        let recorded = Set(trace.runs.flatMap(\.recordedSessionIDs))
        return RedactedTrace(trace: copy, report: scrubber.report, recordedSessionIDs: recorded)
    }
}

extension StoreAnomaly {
    /// The note with the store's path redacted; its table, column and figures are the schema's own.
    public func redacted(by redactor: Redactor) -> StoreAnomaly {
        var copy = self
        copy.path = redactor.redact(path, field: "path").text
        return copy
    }
}

extension UnclosedRun {
    /// The note with the store's path and the run's label redacted.
    public func redacted(by redactor: Redactor) -> UnclosedRun {
        var copy = self
        copy.path = redactor.redact(path, field: "path").text
        copy.label = label.map { redactor.redact($0, field: "label").text }
        return copy
    }
}

/// Redacts the fields of records and keeps the counts. Short strings repeat across thousands of
/// records (models, profiles, tool names), so their results are remembered; each occurrence still
/// counts, because the report tells how many values the export would have carried.
private struct Scrubber {
    let redactor: Redactor
    var report = RedactionReport()
    var memo: [Remembered: RedactionResult] = [:]

    /// A value and the field it was redacted as, since the field's name can decide.
    struct Remembered: Hashable {
        var field: String
        var value: String
    }

    init(redactor: Redactor) { self.redactor = redactor }

    mutating func text(_ value: String, field: String) -> String {
        if value.isEmpty { return value }
        let result: RedactionResult
        if value.utf8.count <= 256 {
            let key = Remembered(field: field, value: value)
            if let known = memo[key] {
                result = known
            } else {
                result = redactor.redact(value, field: field)
                memo[key] = result
            }
        } else {
            result = redactor.redact(value, field: field)
        }
        report.add(result)
        return result.text
    }

    mutating func text(_ value: String?, field: String) -> String? {
        value.map { text($0, field: field) }
    }

    /// Payload text: JSON stays valid JSON (a secret under a `password` key goes whole), other
    /// text is scanned as text.
    mutating func payload(_ value: String) -> String {
        let result = redactor.redactJSON(value)
        report.add(result)
        return result.text
    }

    /// Keys are scanned as text; a value is judged by its key, as a JSON field would be. A number
    /// under a secret-named key becomes a marker string, as `redactJSON` does.
    mutating func metadata(_ metadata: TraceMetadata) -> TraceMetadata {
        var out: TraceMetadata = [:]
        for (key, value) in metadata {
            let name = text(key, field: "metadata_key")
            switch value {
            case .string(let string):
                out[name] = .string(text(string, field: key))
            case .int, .double, .bool:
                let rendered = value.description
                let redacted = text(rendered, field: key)
                out[name] = redacted == rendered ? value : .string(redacted)
            }
        }
        return out
    }

    /// Every text field of `record` (by its table: labels, names, errors, fingerprints, the
    /// tracer's own words too, since an export goes further than the store), redacted as its
    /// column, and its metadata as ``metadata(_:)`` redacts it.
    mutating func record<Record: TableRecord>(_ record: Record) -> Record {
        var record = record
        for field in Record.table.outOfLineFields {
            switch field.get(record) {
            case .text(let value): field.set(&record, .text(text(value, field: field.spec.column)))
            case .metadata(let value): field.set(&record, .metadata(metadata(value)))
            default: break
            }
        }
        return record
    }

    mutating func run(_ recorded: RecordedRun) -> RecordedRun {
        // A payload's text is redacted as JSON where it is JSON, and its kind is the tracer's own.
        let payloads = recorded.payloads.map { payload in
            var payload = payload
            payload.text = self.payload(payload.text)
            return payload
        }
        return RecordedRun(
            run: record(recorded.run), hasRunRecord: recorded.hasRunRecord,
            sessions: recorded.sessions.map { record($0) }, requests: recorded.requests.map { record($0) },
            toolCalls: recorded.toolCalls.map { record($0) }, handoffs: recorded.handoffs.map { record($0) },
            intervals: recorded.intervals.map { record($0) }, instants: recorded.instants.map { record($0) },
            chunks: recorded.chunks.map { record($0) }, payloads: payloads,
            dropped: recorded.dropped.map { record($0) })
    }
}
