extension InstantRecord: TableRecord {
    /// The instant's fields, in the store's column order.
    package static let table = RecordTable<InstantRecord>(
        .instant, blank: InstantRecord(instantID: 0, ts: 0, name: ""),
        fields: [
            .integer(
                "instantID", "instant_id", unit: .identifier, "the instant's id",
                get: { $0.instantID }, set: { $0.instantID = $1 }),
            .optionalInteger(
                "parentID", "parent_id", unit: .identifier, "the enclosing interval, session, request or tool call",
                get: { $0.parentID }, set: { $0.parentID = $1 }),
            .integer("ts", "ts", unit: .timestamp, "when it happened", get: { $0.ts }, set: { $0.ts = $1 }),
            .text("name", "name", freeText: true, "the instant's name", get: { $0.name }, set: { $0.name = $1 }),
            .metadata(
                "metadata", "metadata", "JSON object, as in `interval`",
                get: { $0.metadata }, set: { $0.metadata = $1 }),
        ])
}
