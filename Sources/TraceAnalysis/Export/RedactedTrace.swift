import Redaction
import SessionTrace
import TraceStore

/// A loaded store with every string passed through a ``Redactor``, and the counts of what was
/// replaced: the only input the exporters take, so no export can skip redaction.
///
/// ```swift
/// let redacted = try RedactedTrace.load(path: "run.sqlite", redactor: .standard)
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

    /// Opens the store or LTTng trace at `path` read-only, loads every record including chunks,
    /// and redacts it.
    public static func load(path: String, redactor: Redactor) throws(TraceInputError) -> RedactedTrace {
        redact(try TraceLoader.load(path: path, chunks: true), with: redactor)
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

    mutating func run(_ recorded: RecordedRun) -> RecordedRun {
        var run = recorded.run
        run.host = text(run.host, field: "host")
        run.commandLine = text(run.commandLine, field: "command_line")
        run.gitRevision = text(run.gitRevision, field: "git_revision")
        run.label = text(run.label, field: "label")
        run.toolVersion = text(run.toolVersion, field: "tool_version")
        let sessions = recorded.sessions.map { session in
            var session = session
            session.label = text(session.label, field: "label")
            return session
        }
        let requests = recorded.requests.map { request in
            var request = request
            request.profile = text(request.profile, field: "profile")
            request.provider = text(request.provider, field: "provider")
            request.model = text(request.model, field: "model")
            request.finishReason = text(request.finishReason, field: "finish_reason")
            request.error = text(request.error, field: "error")
            request.responseID = text(request.responseID, field: "response_id")
            request.responseModel = text(request.responseModel, field: "response_model")
            request.serverAddress = text(request.serverAddress, field: "server_address")
            return request
        }
        let toolCalls = recorded.toolCalls.map { call in
            var call = call
            call.name = text(call.name, field: "name")
            call.callID = text(call.callID, field: "call_id")
            call.argumentsFingerprint = text(call.argumentsFingerprint, field: "arguments_fingerprint")
            call.outcome = text(call.outcome, field: "outcome")
            call.error = text(call.error, field: "error")
            return call
        }
        let handoffs = recorded.handoffs.map { handoff in
            var handoff = handoff
            handoff.kind = text(handoff.kind, field: "kind")
            handoff.from = text(handoff.from, field: "from_value")
            handoff.to = text(handoff.to, field: "to_value")
            return handoff
        }
        let intervals = recorded.intervals.map { interval in
            var interval = interval
            interval.name = text(interval.name, field: "name")
            interval.metadata = metadata(interval.metadata)
            interval.error = text(interval.error, field: "error")
            return interval
        }
        let instants = recorded.instants.map { instant in
            var instant = instant
            instant.name = text(instant.name, field: "name")
            instant.metadata = metadata(instant.metadata)
            return instant
        }
        let payloads = recorded.payloads.map { payload in
            var payload = payload
            payload.text = self.payload(payload.text)
            return payload
        }
        let dropped = recorded.dropped.map { dropped in
            var dropped = dropped
            dropped.sink = text(dropped.sink, field: "sink")
            dropped.reason = text(dropped.reason, field: "reason")
            return dropped
        }
        return RecordedRun(
            run: run, hasRunRecord: recorded.hasRunRecord, sessions: sessions, requests: requests,
            toolCalls: toolCalls, handoffs: handoffs, intervals: intervals, instants: instants,
            chunks: recorded.chunks, payloads: payloads, dropped: dropped)
    }
}

extension Redactor {
    /// The built-in rules plus the custom rules of the file at `rulesPath`, if given.
    ///
    /// - Throws: ``CommandFailure/message(_:)`` naming the file and, for a bad rule, its line.
    public static func withRules(from rulesPath: String?) throws(CommandFailure) -> Redactor {
        guard let rulesPath else { return .standard }
        do {
            return Redactor(rules: RedactionRule.builtIn + (try RedactionRule.load(contentsOf: rulesPath)))
        } catch let error as RedactionRule.RuleError {
            switch error {
            case .invalidLine: throw .message("bad rules file \(error.description)")
            default: throw .message(error.description)
            }
        } catch {
            throw .message("cannot read rules file \(rulesPath): \(error)")
        }
    }
}
