extension PayloadRecord: TableRecord {
    /// The payload's fields, in the store's column order.
    package static let table = RecordTable<PayloadRecord>(
        .payload, blank: PayloadRecord(payloadID: 0, parentID: nil, ts: 0, kind: .prompt, text: ""),
        fields: [
            .integer(
                "payloadID", "payload_id", unit: .identifier, "the payload's id",
                get: { $0.payloadID }, set: { $0.payloadID = $1 }),
            .optionalInteger(
                "parentID", "parent_id", unit: .identifier, "the request or tool call",
                get: { $0.parentID }, set: { $0.parentID = $1 }),
            .integer("ts", "ts", unit: .timestamp, "when it was captured", get: { $0.ts }, set: { $0.ts = $1 }),
            // An unknown kind (a newer writer's) reads as a prompt.
            .text(
                "kind", "kind", freeText: false,
                "`prompt`, `response`, `reasoning`, `tool_arguments`, `tool_output`, `instructions` or "
                    + "`tool_definitions`",
                get: { $0.kind.rawValue }, set: { $0.kind = Kind(rawValue: $1) ?? .prompt }),
            .text("text", "text", freeText: true, "the redacted text", get: { $0.text }, set: { $0.text = $1 }),
        ])
}
