import Redaction
import SessionTrace
import Testing
import TraceModel

@testable import TraceAnalysis
@testable import TraceExport

/// The OTLP and Perfetto exports against the field tables: every field of a request and a tool
/// call shows in each export (changing it alone changes the export), or the export lists it as
/// not exported, with the reason. A field added to a table and to no export's mapping fails here.
@Suite("Exports cover every field")
struct ExportCoverageTests {
    static let runID: Int64 = 7 << 32
    static let run = RunRecord(
        runID: runID, ts: 1_000, wallClockStart: 1_780_000_000_000_000_000, host: "host", commandLine: "demo",
        label: "nightly")
    static let session = SessionRecord(sessionID: runID | 1, ts: 1_000, dur: 9_000_000_000, label: "planner")
    static let interval = IntervalRecord(
        intervalID: runID | 2, parentID: runID | 1, sessionID: runID | 1, ts: 2_000, dur: 8_000_000_000,
        name: "PlanDay", metadata: ["owner": "team"])
    static let request = RequestRecord(
        requestID: runID | 3, sessionID: runID | 1, parentID: runID | 2, ts: 1_000_000, dur: 2_000_000_000,
        timeToFirstToken: 500_000_000, profile: "economy", provider: "openai", model: "gpt-x", inputTokens: 500,
        cachedInputTokens: 300, outputTokens: 41, promptBytes: 2_000, transcriptEntries: 3, reusedPrefixEntries: 1,
        finishReason: "tool_calls", error: "timed out",
        serverTimings: ServerTimings(
            promptTokens: 200, cachedTokens: 300, promptDuration: 80_000_000, predictedTokens: 41,
            predictedDuration: 700_000_000),
        turnID: runID | 9, instructionsFingerprint: "1a2b3c4d", toolsFingerprint: "5e6f7a8b", cacheWriteTokens: 12,
        responseID: "resp_1", responseModel: "gpt-x-2025", serverAddress: "127.0.0.1", serverPort: 8080,
        streamed: true, maxTokens: 256, temperature: 0.5, serverQueueDuration: 30_000_000,
        clientPhases: ClientPhases(
            nameResolved: 100_000, connected: 200_000, tlsDone: 900_000, requestSent: 1_000_000, firstByte: 300_000_000))
    static let toolCall = ToolCallRecord(
        toolCallID: runID | 4, requestID: runID | 3, sessionID: runID | 1, ts: 2_100_000_000, dur: 300_000_000,
        name: "searchNotes", callID: "call_7", argumentsFingerprint: "de8087d81190c16c", argumentsBytes: 20,
        argumentsSketch: [2, 0x8000_0001], outputBytes: 100, outcome: .ok, error: "partial", outputFingerprint: "0123456789abcdef",
        outputSketch: [1, 0xdead_beef])

    enum Export: String, CaseIterable {
        case otlp, perfetto
    }

    @Test(arguments: Export.allCases)
    func everyRequestFieldIsExportedOrListedWithAReason(export: Export) {
        let notExported = export == .otlp ? OTLPTraceBuilder.requestFieldsNotExported : [:]
        let base = Self.render(export, request: Self.request, toolCall: Self.toolCall)
        #expect(base == Self.render(export, request: Self.request, toolCall: Self.toolCall))
        for field in RequestRecord.table.fields {
            var changed = Self.request
            field.set(&changed, Self.another(field.get(changed)))
            let shows = Self.render(export, request: changed, toolCall: Self.toolCall) != base
            let column = field.spec.column
            #expect(shows != notExported.keys.contains(column), "\(export) request.\(column)")
        }
        #expect(Set(notExported.keys).isSubset(of: RequestRecord.table.specs.map(\.column)))
    }

    @Test(arguments: Export.allCases)
    func everyToolCallFieldIsExportedOrListedWithAReason(export: Export) {
        let notExported = export == .otlp ? OTLPTraceBuilder.toolCallFieldsNotExported : [:]
        let base = Self.render(export, request: Self.request, toolCall: Self.toolCall)
        for field in ToolCallRecord.table.fields {
            var changed = Self.toolCall
            field.set(&changed, Self.another(field.get(changed)))
            let shows = Self.render(export, request: Self.request, toolCall: changed) != base
            let column = field.spec.column
            #expect(shows != notExported.keys.contains(column), "\(export) tool_call.\(column)")
        }
        #expect(Set(notExported.keys).isSubset(of: ToolCallRecord.table.specs.map(\.column)))
    }

    /// Perfetto's list of fields a slice shows other than as an arg names real columns.
    @Test func perfettosFieldsShownApartAreColumns() {
        #expect(
            Set(PerfettoExport.requestFieldsShownApart.keys).isSubset(of: RequestRecord.table.specs.map(\.column)))
        #expect(
            Set(PerfettoExport.toolCallFieldsShownApart.keys).isSubset(of: ToolCallRecord.table.specs.map(\.column)))
    }

    /// A value unlike `value`, of its kind.
    static func another(_ value: FieldValue) -> FieldValue {
        switch value {
        case .null: .integer(1)
        case .integer(let value): .integer(value + 1_000)
        case .real(let value): .real(value + 0.125)
        case .text(let value): .text(value == "ok" ? "error" : value + "x")
        case .bool(let value): .bool(!value)
        case .metadata(let metadata): .metadata(metadata.merging(["added": 1]) { old, _ in old })
        case .sketch(let sketch): .sketch(sketch + [7])
        }
    }

    static func render(_ export: Export, request: RequestRecord, toolCall: ToolCallRecord) -> String {
        let trace = RecordedTrace(
            path: "coverage.sqlite",
            runs: [
                RecordedRun(
                    run: run, sessions: [session], requests: [request], toolCalls: [toolCall], intervals: [interval])
            ])
        let redacted = RedactedTrace.redact(trace, with: Redactor(rules: []))
        return switch export {
        case .otlp: OTLPExport.render(redacted)
        case .perfetto: PerfettoExport.render(redacted)
        }
    }
}
