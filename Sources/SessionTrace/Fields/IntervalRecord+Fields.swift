extension IntervalRecord: TableRecord {
    /// The interval's fields, in the store's column order.
    package static let table = RecordTable<IntervalRecord>(
        .interval, blank: IntervalRecord(intervalID: 0, ts: 0, dur: 0, name: ""),
        fields: [
            .integer(
                "intervalID", "interval_id", unit: .identifier, "the interval's id",
                get: { $0.intervalID }, set: { $0.intervalID = $1 }),
            .optionalInteger(
                "parentID", "parent_id", unit: .identifier, "the enclosing interval, session, request or tool call",
                get: { $0.parentID }, set: { $0.parentID = $1 }),
            .optionalInteger(
                "sessionID", "session_id", unit: .identifier, "the session it began in",
                get: { $0.sessionID }, set: { $0.sessionID = $1 }),
            .integer("ts", "ts", unit: .timestamp, "start", get: { $0.ts }, set: { $0.ts = $1 }),
            .integer("dur", "dur", unit: .nanoseconds, "duration", get: { $0.dur }, set: { $0.dur = $1 }),
            .text("name", "name", freeText: true, "the interval's name", get: { $0.name }, set: { $0.name = $1 }),
            .metadata(
                "metadata", "metadata", "a compact JSON object with sorted keys, for `json_extract`",
                get: { $0.metadata }, set: { $0.metadata = $1 }),
            .optionalText(
                "error", "error", freeText: true, "the error that ended the interval, if any",
                get: { $0.error }, set: { $0.error = $1 }),
        ])
}
