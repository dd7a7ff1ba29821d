import CBabeltrace
import SessionTrace
import TraceModel
import TraceStore

/// Turns CTF records of the `session_trace` provider into SessionTrace's records: the parser of
/// the LTTng importer.
///
/// Fields are found by name once per event class, so a trace whose events carry more or fewer
/// fields than this version writes is still read: a field the class lacks reads as unknown (nil),
/// as the store reads a column an older schema lacks. The LTTng convention for unknown values is
/// undone here: an integer -1 and an empty string read as nil (see `docs/lttng.md`).
///
/// A reader that needs only some fields names them (a ``Selection``): babeltrace2 then decodes
/// those alone, and the others read as unknown, as the store's columns a query does not select.
package struct SessionTraceDecoder {
    /// The fields to read, by kind, as ``fieldNames`` names them. The first field of every kind
    /// (its id, which places a record in its run; `dropped`'s `ts`) is always read; a kind left
    /// out reads that field alone.
    package typealias Selection = [TraceEventKind: Set<String>]

    /// The version of the tracepoints this reader understands, as `session_trace_tp.h` declares it
    /// in every event class's `model.emf.uri`.
    static let supportedVersion = 2
    static let versionURIPrefix = "urn:sessiontrace:tracepoints:"

    /// One decoded record and what the tracker needs to place it in a run.
    struct Decoded {
        var event: TraceEvent
        /// The id whose upper 32 bits name the run (`Tracer.makeID`), nil for `dropped`.
        var id: Int64?
    }

    enum Failure: Error {
        /// An event class declares a newer tracepoint version.
        case newerVersion(Int)
        /// A `session_trace` event lacks a field without which it means nothing.
        case missingField(event: String, field: String)
    }

    /// Where each field of one event class sits in its payload (-1 where the class lacks it), and
    /// the values each integer field may plausibly hold, as the store's column of that name.
    fileprivate struct Layout {
        var kind: TraceEventKind?
        var positions: [Int]
        var names: [String] = []
        var ranges: [ClosedRange<Int64>] = []
    }

    /// Layouts by ``st_ctf_class/index``.
    private var layouts: [Layout?] = []
    /// The fields read; nil for every field.
    let selection: Selection?
    /// Records of other providers seen, which this reader skips.
    private(set) var foreignRecords = 0
    /// Fields this version writes that some event class of the trace lacks, as `event.field`.
    private(set) var absentFields: Set<String> = []
    /// Numbers no recording writes, each read as the nearest plausible value.
    let implausibleFields = ImplausibleFields()

    /// - Parameter selection: the fields to read; nil (the default) for every field.
    init(selection: Selection? = nil) {
        self.selection = selection
    }

    /// Decodes the reader's current record; nil for a record of another provider.
    mutating func decode(_ reader: CTFReader) throws(Failure) -> Decoded? {
        let eventClass = reader.eventClass
        let index = Int(eventClass.pointee.index)
        if index >= layouts.count { layouts.append(contentsOf: repeatElement(nil, count: index + 1 - layouts.count)) }
        let layout: Layout
        if let known = layouts[index] {
            layout = known
        } else {
            layout = try Self.layout(of: eventClass, selection: selection, absentFields: &absentFields)
            layouts[index] = layout
            var wanted = [Bool](repeating: false, count: Int(eventClass.pointee.field_count))
            for position in layout.positions where position >= 0 { wanted[position] = true }
            reader.selectFields(classIndex: eventClass.pointee.index, wanted: wanted)
        }
        guard let kind = layout.kind else {
            foreignRecords += 1
            return nil
        }
        let f = Fields(
            reader: reader, layout: layout, table: kind.name, implausible: implausibleFields)
        switch kind {
        case .run:
            let run = RunRecord(
                runID: f.int(0), ts: f.int(1), wallClockStart: f.int(2), host: f.text(3),
                commandLine: f.text(4), gitRevision: f.optionalText(5), label: f.optionalText(6),
                toolVersion: f.text(7))
            return Decoded(event: .run(run), id: run.runID)
        case .session:
            let session = SessionRecord(sessionID: f.int(0), ts: f.int(1), dur: f.int(2), label: f.text(3))
            return Decoded(event: .session(session), id: session.sessionID)
        case .request:
            let timings = f.optionalInt(17).map { promptTokens in
                ServerTimings(
                    promptTokens: promptTokens, cachedTokens: f.int(18), promptDuration: f.int(19),
                    predictedTokens: f.int(20), predictedDuration: f.int(21))
            }
            let request = RequestRecord(
                requestID: f.int(0), sessionID: f.optionalInt(1), parentID: f.optionalInt(2), ts: f.int(3),
                dur: f.int(4), timeToFirstToken: f.optionalInt(5), profile: f.text(6), provider: f.text(7),
                model: f.text(8), inputTokens: f.optionalInt(9), cachedInputTokens: f.optionalInt(10),
                outputTokens: f.optionalInt(11), promptBytes: f.int(12), transcriptEntries: f.int(13),
                reusedPrefixEntries: f.int(14), finishReason: f.optionalText(15), error: f.optionalText(16),
                serverTimings: timings, turnID: f.optionalInt(22), instructionsFingerprint: f.optionalText(23),
                toolsFingerprint: f.optionalText(24), cacheWriteTokens: f.optionalInt(25),
                responseID: f.optionalText(26), responseModel: f.optionalText(27),
                serverAddress: f.optionalText(28), serverPort: f.optionalInt(29),
                streamed: f.optionalInt(30).map { $0 != 0 }, maxTokens: f.optionalInt(31),
                temperature: f.optionalReal(32))
            return Decoded(event: .request(request), id: request.requestID)
        case .toolCall:
            let call = ToolCallRecord(
                toolCallID: f.int(0), requestID: f.optionalInt(1), sessionID: f.optionalInt(2), ts: f.int(3),
                dur: f.int(4), name: f.text(5), callID: f.optionalText(6), argumentsFingerprint: f.text(7),
                argumentsBytes: f.int(8), outputBytes: f.int(9), outcome: f.text(10), error: f.optionalText(11),
                outputFingerprint: f.optionalText(12), outputSketch: f.sketch(13))
            return Decoded(event: .toolCall(call), id: call.toolCallID)
        case .handoff:
            let handoff = HandoffRecord(
                handoffID: f.int(0), sessionID: f.optionalInt(1), ts: f.int(2), kind: f.text(3), from: f.text(4),
                to: f.text(5))
            return Decoded(event: .handoff(handoff), id: handoff.handoffID)
        case .interval:
            let interval = IntervalRecord(
                intervalID: f.int(0), parentID: f.optionalInt(1), sessionID: f.optionalInt(2), ts: f.int(3),
                dur: f.int(4), name: f.text(5), metadata: f.metadata(6), error: f.optionalText(7))
            return Decoded(event: .interval(interval), id: interval.intervalID)
        case .instant:
            let instant = InstantRecord(
                instantID: f.int(0), parentID: f.optionalInt(1), ts: f.int(2), name: f.text(3),
                metadata: f.metadata(4))
            return Decoded(event: .instant(instant), id: instant.instantID)
        case .chunk:
            let chunk = ChunkRecord(requestID: f.int(0), ts: f.int(1), tokens: f.int(2))
            return Decoded(event: .chunk(chunk), id: chunk.requestID)
        case .payload:
            let payload = PayloadRecord(
                payloadID: f.int(0), parentID: f.optionalInt(1), ts: f.int(2),
                kind: PayloadRecord.Kind(rawValue: f.text(3)) ?? .prompt, text: f.text(4))
            return Decoded(event: .payload(payload), id: payload.payloadID)
        case .dropped:
            let dropped = DroppedRecord(ts: f.int(0), sink: f.text(1), reason: f.text(2), count: f.int(3))
            return Decoded(event: .dropped(dropped), id: nil)
        }
    }

    /// The fields of each kind, in the order the decoder reads them; the first `required` of
    /// each (its id and time) must be present for a record to mean anything.
    static let fieldNames: [TraceEventKind: (names: [String], required: Int)] = [
        .run: (["run_id", "ts", "wall_clock_start", "host", "command_line", "git_revision", "label",
                "tool_version"], 2),
        .session: (["session_id", "ts", "dur", "label"], 2),
        .request: (["request_id", "session_id", "parent_id", "ts", "dur", "ttft", "profile", "provider", "model",
                    "input_tokens", "cached_input_tokens", "output_tokens", "prompt_bytes", "transcript_entries",
                    "reused_prefix_entries", "finish_reason", "error", "server_prompt_tokens",
                    "server_cached_tokens", "server_prompt_dur", "server_predicted_tokens", "server_predicted_dur",
                    "turn_id", "instructions_fingerprint", "tools_fingerprint", "cache_write_tokens",
                    "response_id", "response_model", "server_address", "server_port", "streamed", "max_tokens",
                    "temperature"], 1),
        .toolCall: (["tool_call_id", "request_id", "session_id", "ts", "dur", "name", "call_id",
                     "arguments_fingerprint", "arguments_bytes", "output_bytes", "outcome", "error",
                     "output_fingerprint", "output_sketch"], 1),
        .handoff: (["handoff_id", "session_id", "ts", "kind", "from", "to"], 1),
        .interval: (["interval_id", "parent_id", "session_id", "ts", "dur", "name", "metadata", "error"], 1),
        .instant: (["instant_id", "parent_id", "ts", "name", "metadata"], 1),
        .chunk: (["request_id", "ts", "tokens"], 2),
        .payload: (["payload_id", "parent_id", "ts", "kind", "text"], 1),
        .dropped: (["ts", "sink", "reason", "count"], 1),
    ]

    private static let kindsByEventName: [String: TraceEventKind] = Dictionary(
        uniqueKeysWithValues: TraceEventKind.allCases.map { ("session_trace:\($0.name)", $0) })

    private static func layout(
        of eventClass: UnsafePointer<st_ctf_class>, selection: Selection?, absentFields: inout Set<String>
    ) throws(Failure) -> Layout {
        let name = String(cString: eventClass.pointee.name)
        guard let kind = kindsByEventName[name], let fields = fieldNames[kind] else {
            return Layout(kind: nil, positions: [])
        }
        if let uri = eventClass.pointee.emf_uri.map({ String(cString: $0) }), uri.hasPrefix(versionURIPrefix),
            let version = Int(uri.dropFirst(versionURIPrefix.count)), version > supportedVersion
        {
            throw .newerVersion(version)
        }
        var positionByName: [String: Int] = [:]
        for index in 0..<Int(eventClass.pointee.field_count) {
            positionByName[String(cString: eventClass.pointee.field_names[index]!)] = index
        }
        var positions = fields.names.map { positionByName[$0] ?? -1 }
        for (offset, position) in positions.enumerated() where position < 0 {
            if offset < fields.required { throw .missingField(event: name, field: fields.names[offset]) }
            absentFields.insert("\(kind.name).\(fields.names[offset])")
        }
        // The ts of every kind is required too, wherever it sits in the list.
        if let ts = fields.names.firstIndex(of: "ts"), positions[ts] < 0 {
            throw .missingField(event: name, field: "ts")
        }
        if let selection {
            let selected = selection[kind] ?? []
            for (offset, name) in fields.names.enumerated() where offset > 0 && !selected.contains(name) {
                positions[offset] = -1
            }
        }
        return Layout(
            kind: kind, positions: positions, names: fields.names,
            ranges: fields.names.map(PlausibleRange.of(column:)))
    }
}

/// One record's fields by their place in a kind's list, with LTTng's unknown values undone and
/// implausible numbers read as the store reads them (see ``ImplausibleFields``).
private struct Fields {
    let reader: CTFReader
    let layout: SessionTraceDecoder.Layout
    let table: String
    let implausible: ImplausibleFields

    /// A field that is always written; 0 if the class lacks it.
    @inline(__always)
    func int(_ field: Int) -> Int64 {
        let position = layout.positions[field]
        guard position >= 0, let value = reader.integer(position) else { return 0 }
        return plausible(value, field)
    }

    /// -1 (the LTTng convention for unknown) and a field the class lacks read as nil.
    @inline(__always)
    func optionalInt(_ field: Int) -> Int64? {
        let position = layout.positions[field]
        guard position >= 0, let value = reader.integer(position), value != -1 else { return nil }
        return plausible(value, field)
    }

    @inline(__always)
    private func plausible(_ value: Int64, _ field: Int) -> Int64 {
        let range = layout.ranges[field]
        if range.contains(value) { return value }
        return implausible.outOfRange(value, range, table: table, column: layout.names[field])
    }

    /// Like ``optionalInt(_:)``; an infinity reads as nil too, and is counted.
    @inline(__always)
    func optionalReal(_ field: Int) -> Double? {
        let position = layout.positions[field]
        guard position >= 0, let value = reader.real(position), value != -1 else { return nil }
        if value.isFinite { return value }
        implausible.notFinite(value, table: table, column: layout.names[field])
        return nil
    }

    @inline(__always)
    func text(_ field: Int) -> String {
        let position = layout.positions[field]
        return position < 0 ? "" : reader.string(position) ?? ""
    }

    /// "" (the LTTng convention for unknown) and a field the class lacks read as nil.
    @inline(__always)
    func optionalText(_ field: Int) -> String? {
        let value = text(field)
        return value.isEmpty ? nil : value
    }

    func metadata(_ field: Int) -> TraceMetadata {
        TraceMetadata(jsonObject: text(field)) ?? [:]
    }

    /// An empty sketch is how LTTng writes "none made".
    func sketch(_ field: Int) -> [UInt32]? {
        let position = layout.positions[field]
        guard position >= 0, let values = reader.integers(position), !values.isEmpty else { return nil }
        return values.map { UInt32(truncatingIfNeeded: $0) }
    }
}
