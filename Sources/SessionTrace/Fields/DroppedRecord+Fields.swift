extension DroppedRecord: TableRecord {
    /// The count's fields, in the store's column order; a count has no id of its own (the store
    /// numbers its rows `dropped_id`).
    package static let table = RecordTable<DroppedRecord>(
        .dropped, blank: DroppedRecord(ts: 0, sinkName: "", reason: "", count: 0),
        fields: [
            .integer("ts", "ts", unit: .timestamp, "when the count was written", get: { $0.ts }, set: { $0.ts = $1 }),
            .text(
                "sink", "sink", freeText: false, "the sink (`store`, `lttng`) or the `proxy` that lost the events",
                get: { $0.sinkName }, set: { $0.sinkName = $1 }),
            .text(
                "reason", "reason", freeText: false, "`queue_full`, `sqlite_error`, `busy`, `closed`, ...",
                get: { $0.reason.rawValue }, set: { $0.reason = .init(rawValue: $1) }),
            .integer(
                "count", "count", unit: .count, "events lost since the previous count of the same sink and reason",
                get: { $0.count }, set: { $0.count = $1 }),
        ])
}
