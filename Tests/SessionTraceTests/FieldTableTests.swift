import SessionTrace
import Testing

/// The field tables: each column reads and writes its own property, names are unique, and the
/// free-text fields are the ones a redaction must see.
@Suite("Field tables")
struct FieldTableTests {
    /// A request read field by field, through the table, is the record those values make.
    @Test func aRequestReadThroughItsTableIsTheRecordItsColumnsName() {
        let values: [String: FieldValue] = [
            "request_id": .integer(11), "session_id": .integer(12), "parent_id": .integer(13), "ts": .integer(14),
            "dur": .integer(15), "ttft": .integer(16), "profile": .text("economy"), "provider": .text("openai"),
            "model": .text("gpt-x"), "input_tokens": .integer(17), "cached_input_tokens": .integer(18),
            "output_tokens": .integer(19), "prompt_bytes": .integer(20), "transcript_entries": .integer(21),
            "reused_prefix_entries": .integer(22), "finish_reason": .text("stop"), "error": .text("boom"),
            "server_prompt_tokens": .integer(23), "server_cached_tokens": .integer(24),
            "server_prompt_dur": .integer(25), "server_predicted_tokens": .integer(26),
            "server_predicted_dur": .integer(27), "turn_id": .integer(28), "instructions_fingerprint": .text("if"),
            "tools_fingerprint": .text("tf"), "cache_write_tokens": .integer(29), "response_id": .text("resp"),
            "response_model": .text("gpt-x-1"), "server_address": .text("127.0.0.1"), "server_port": .integer(30),
            "streamed": .bool(true), "max_tokens": .integer(31), "temperature": .real(0.25),
            "server_queue_dur": .integer(32), "client_first_byte": .integer(33), "client_dns": .integer(34),
            "client_connect": .integer(35), "client_tls": .integer(36), "client_sent": .integer(37),
        ]
        let record = RequestRecord.table.record { _, spec in values[spec.column] ?? .null }
        #expect(
            record
                == RequestRecord(
                    requestID: 11, sessionID: 12, parentID: 13, ts: 14, dur: 15, timeToFirstToken: 16,
                    profile: "economy", provider: "openai", model: "gpt-x", inputTokens: 17, cachedInputTokens: 18,
                    outputTokens: 19, promptBytes: 20, transcriptEntries: 21, reusedPrefixEntries: 22,
                    finishReason: "stop", error: "boom",
                    serverTimings: ServerTimings(
                        promptTokens: 23, cachedTokens: 24, promptDuration: 25, predictedTokens: 26,
                        predictedDuration: 27),
                    turnID: 28, instructionsFingerprint: "if", toolsFingerprint: "tf", cacheWriteTokens: 29,
                    responseID: "resp", responseModel: "gpt-x-1", serverAddress: "127.0.0.1", serverPort: 30,
                    streamed: true, maxTokens: 31, temperature: 0.25, serverQueueDuration: 32,
                    clientPhases: ClientPhases(nameResolved: 34, connected: 35, tlsDone: 36, requestSent: 37, firstByte: 33)))
        #expect(Set(values.keys) == Set(RequestRecord.table.specs.map(\.column)))
        for field in RequestRecord.table.fields {
            #expect(field.get(record) == values[field.spec.column], "\(field.spec.column)")
        }
    }

    /// A request without server timings reads them as nil, not as zeros.
    @Test func serverTimingsStayNilWhenTheirFirstColumnIsNull() {
        let record = RequestRecord.table.record { _, spec in
            spec.column == "server_cached_tokens" ? .integer(5) : .null
        }
        #expect(record.serverTimings == nil)
    }

    /// Every field of every kind reads back what was set, and no two fields share a property.
    @Test(arguments: TraceEventKind.allCases)
    func everyFieldReadsBackWhatWasSetAlone(kind: TraceEventKind) {
        let specs = kind.fieldSpecs
        #expect(Set(specs.map(\.column)).count == specs.count)
        #expect(Set(specs.map(\.jsonKey)).count == specs.count)
        #expect(Set(specs.map(\.tracepointField)).count == specs.count)
        #expect(Set(specs.map(\.name)).count == specs.count)
        let changed = Self.fieldsChangedAlone(kind)
        #expect(changed == specs.map(\.column))
    }

    /// The fields a payload redaction passes through, by kind: labels, names, errors, metadata
    /// and text, never ids, times, counts, fingerprints or the tracer's own words.
    @Test func theFreeTextFieldsAreTheLabelsNamesErrorsMetadataAndText() {
        let freeText = Dictionary(
            uniqueKeysWithValues: TraceEventKind.allCases.map { kind in
                (kind.name, kind.fieldSpecs.filter(\.isFreeText).map(\.column))
            })
        #expect(
            freeText == [
                "run": ["host", "command_line", "git_revision", "label"],
                "session": ["label"],
                "request": [
                    "profile", "provider", "model", "finish_reason", "error", "response_id", "response_model",
                    "server_address",
                ],
                "tool_call": ["name", "call_id", "error"],
                "handoff": ["from_value", "to_value"],
                "interval": ["name", "metadata", "error"],
                "instant": ["name", "metadata"],
                "chunk": [],
                "payload": ["text"],
                "dropped": [],
            ])
    }

    /// The columns of `kind` whose field, set alone to a value unlike the blank record's, reads
    /// back that value while every other field keeps its own.
    private static func fieldsChangedAlone(_ kind: TraceEventKind) -> [String] {
        switch kind {
        case .run: changedAlone(RunRecord.table)
        case .session: changedAlone(SessionRecord.table)
        case .request: changedAlone(RequestRecord.table)
        case .toolCall: changedAlone(ToolCallRecord.table)
        case .handoff: changedAlone(HandoffRecord.table)
        case .interval: changedAlone(IntervalRecord.table)
        case .instant: changedAlone(InstantRecord.table)
        case .chunk: changedAlone(ChunkRecord.table)
        case .payload: changedAlone(PayloadRecord.table)
        case .dropped: changedAlone(DroppedRecord.table)
        }
    }

    private static func changedAlone<Record>(_ table: RecordTable<Record>) -> [String] {
        // Server timings exist only once their first field is set: set every field in order first.
        var base = table.blank
        for field in table.fields { field.set(&base, sample(field.spec, 1)) }
        var changed: [String] = []
        for (offset, field) in table.fields.enumerated() {
            var record = base
            let value = sample(field.spec, 2)
            field.set(&record, value)
            let others = table.fields.enumerated().allSatisfy { other in
                other.offset == offset || other.element.get(record) == other.element.get(base)
            }
            if field.get(record) == value && field.get(base) != value && others { changed.append(field.spec.column) }
        }
        return changed
    }

    /// A value of `spec`'s kind that differs with `seed`.
    private static func sample(_ spec: FieldSpec, _ seed: Int64) -> FieldValue {
        switch spec.kind {
        case .integer: .integer(100 + seed)
        case .real: .real(Double(seed) / 4)
        case .text: .text(spec.column == "kind" ? ["", "prompt", "response"][Int(seed)] : "v\(seed)")
        case .bool: .bool(seed == 1)
        case .metadata: .metadata(["k": .int(seed)])
        case .sketch: .sketch([UInt32(seed)])
        }
    }
}
