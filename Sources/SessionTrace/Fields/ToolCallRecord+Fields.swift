extension ToolCallRecord: TableRecord {
    /// The tool call's fields, in the store's column order.
    package static let table = RecordTable<ToolCallRecord>(
        .toolCall,
        blank: ToolCallRecord(toolCallID: 0, ts: 0, dur: 0, name: "", argumentsFingerprint: "", argumentsBytes: 0, outputBytes: 0),
        fields: [
            .integer(
                "toolCallID", "tool_call_id", unit: .identifier, "the call's id",
                get: { $0.toolCallID }, set: { $0.toolCallID = $1 }),
            .optionalInteger(
                "requestID", "request_id", unit: .identifier, "the request that asked for the call",
                get: { $0.requestID }, set: { $0.requestID = $1 }),
            .optionalInteger(
                "sessionID", "session_id", unit: .identifier, "the session; NULL outside a session",
                get: { $0.sessionID }, set: { $0.sessionID = $1 }),
            .integer("ts", "ts", unit: .timestamp, "start", get: { $0.ts }, set: { $0.ts = $1 }),
            .integer("dur", "dur", unit: .nanoseconds, "duration", get: { $0.dur }, set: { $0.dur = $1 }),
            .text(
                "name", "name", freeText: true, "`gen_ai.tool.name`",
                get: { $0.name }, set: { $0.name = $1 }),
            .optionalText(
                "callID", "call_id", freeText: true, "`gen_ai.tool.call.id`, as the model or server named the call",
                get: { $0.callID }, set: { $0.callID = $1 }),
            .text(
                "argumentsFingerprint", "arguments_fingerprint", freeText: false,
                "hash of the normalized arguments: equal fingerprints, equal arguments",
                get: { $0.argumentsFingerprint }, set: { $0.argumentsFingerprint = $1 }),
            .integer(
                "argumentsBytes", "arguments_bytes", unit: .bytes, "size of the arguments, as JSON with sorted keys",
                get: { $0.argumentsBytes }, set: { $0.argumentsBytes = $1 }),
            .optionalSketch(
                "argumentsSketch", "arguments_sketch",
                "the least 32 hashed terms of the arguments (entity fields, words), eight hex digits per term; NULL when not made",
                get: { $0.argumentsSketch }, set: { $0.argumentsSketch = $1 }),
            .integer(
                "outputBytes", "output_bytes", unit: .bytes, "size of the output; 0 when the call failed",
                get: { $0.outputBytes }, set: { $0.outputBytes = $1 }),
            .text(
                "outcome", "outcome", freeText: false, "`ok` or `error`",
                get: { $0.outcome.rawValue }, set: { $0.outcome = .init(rawValue: $1) }),
            .optionalText(
                "error", "error", freeText: true, "the error, if any",
                get: { $0.error }, set: { $0.error = $1 }),
            .optionalText(
                "outputFingerprint", "output_fingerprint", freeText: false,
                "FNV-1a (hex) of the output text; NULL for a failed call",
                get: { $0.outputFingerprint }, set: { $0.outputFingerprint = $1 }),
            .optionalSketch(
                "outputSketch", "output_sketch",
                "a MinHash sketch of the output's words, eight hex digits per value; NULL when not made",
                get: { $0.outputSketch }, set: { $0.outputSketch = $1 }),
        ])
}
