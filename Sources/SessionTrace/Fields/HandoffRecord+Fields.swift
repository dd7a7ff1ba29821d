extension HandoffRecord: TableRecord {
    /// The handoff's fields, in the store's column order. The store and JSON call the values
    /// `from_value` and `to_value` (`from` and `to` are SQL keywords); the tracepoint `from`, `to`.
    package static let table = RecordTable<HandoffRecord>(
        .handoff, blank: HandoffRecord(handoffID: 0, sessionID: nil, ts: 0, kind: "", from: "", to: ""),
        fields: [
            .integer(
                "handoffID", "handoff_id", unit: .identifier, "the handoff's id",
                get: { $0.handoffID }, set: { $0.handoffID = $1 }),
            .optionalInteger(
                "sessionID", "session_id", unit: .identifier, "the session whose requests differed",
                get: { $0.sessionID }, set: { $0.sessionID = $1 }),
            .integer("ts", "ts", unit: .timestamp, "when the change was seen", get: { $0.ts }, set: { $0.ts = $1 }),
            .text(
                "kind", "kind", freeText: false, "`profile`, `model`, `instructions` or `tools`",
                get: { $0.kind.rawValue }, set: { $0.kind = .init(rawValue: $1) }),
            .text(
                "from", "from_value", freeText: true, tracepoint: "from", "before",
                get: { $0.from }, set: { $0.from = $1 }),
            .text(
                "to", "to_value", freeText: true, tracepoint: "to", "after",
                get: { $0.to }, set: { $0.to = $1 }),
        ])
}
