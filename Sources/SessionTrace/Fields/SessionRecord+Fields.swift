extension SessionRecord: TableRecord {
    /// The session's fields, in the store's column order.
    package static let table = RecordTable<SessionRecord>(
        .session, blank: SessionRecord(sessionID: 0, ts: 0, dur: 0, label: ""),
        fields: [
            .integer(
                "sessionID", "session_id", unit: .identifier, "the session's id",
                get: { $0.sessionID }, set: { $0.sessionID = $1 }),
            .integer("ts", "ts", unit: .timestamp, "start", get: { $0.ts }, set: { $0.ts = $1 }),
            .integer("dur", "dur", unit: .nanoseconds, "duration", get: { $0.dur }, set: { $0.dur = $1 }),
            .text("label", "label", freeText: true, "the session's label", get: { $0.label }, set: { $0.label = $1 }),
        ])
}
