extension ChunkRecord: TableRecord {
    /// The chunk's fields, in the store's column order; a chunk has no id of its own (the store
    /// numbers its rows `chunk_id`).
    package static let table = RecordTable<ChunkRecord>(
        .chunk, blank: ChunkRecord(requestID: 0, ts: 0, tokens: 0),
        fields: [
            .integer(
                "requestID", "request_id", unit: .identifier, "the request whose stream it arrived on",
                get: { $0.requestID }, set: { $0.requestID = $1 }),
            .integer("ts", "ts", unit: .timestamp, "arrival time", get: { $0.ts }, set: { $0.ts = $1 }),
            .integer(
                "tokens", "tokens", unit: .tokens, "tokens in the chunk",
                get: { $0.tokens }, set: { $0.tokens = $1 }),
        ])
}
