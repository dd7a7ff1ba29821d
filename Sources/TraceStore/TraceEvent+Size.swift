import SessionTrace

extension TraceEvent {
    /// About how many bytes the event holds in memory: its inline size and the bytes of its
    /// strings, arrays and metadata, so that ``StoreSink`` bounds its queue in bytes as well as
    /// in events. Counts UTF-8 lengths, which native strings know without a scan.
    public var approximateBytes: Int {
        MemoryLayout<TraceEvent>.stride + outOfLineBytes
    }

    private var outOfLineBytes: Int {
        switch self {
        case .run(let record): outOfLineBytes(record)
        case .session(let record): outOfLineBytes(record)
        case .request(let record): outOfLineBytes(record)
        case .toolCall(let record): outOfLineBytes(record)
        case .handoff(let record): outOfLineBytes(record)
        case .interval(let record): outOfLineBytes(record)
        case .instant(let record): outOfLineBytes(record)
        case .chunk(let record): outOfLineBytes(record)
        case .payload(let record): outOfLineBytes(record)
        case .dropped(let record): outOfLineBytes(record)
        }
    }

    /// The bytes of the record's text, metadata and sketch fields, as its table lists them.
    @inline(__always)
    private func outOfLineBytes<Record: TableRecord>(_ record: Record) -> Int {
        var total = 0
        for field in Record.table.outOfLineFields {
            switch field.get(record) {
            case .text(let text): total += text.utf8.count
            case .metadata(let metadata): total += size(metadata)
            case .sketch(let sketch): total += sketch.count * MemoryLayout<UInt32>.stride
            default: break
            }
        }
        return total
    }

    /// A dictionary entry costs its key, its value and about a hash slot's bookkeeping.
    private func size(_ metadata: TraceMetadata) -> Int {
        metadata.reduce(0) { total, entry in
            let value = if case .string(let text) = entry.value { text.utf8.count } else { 8 }
            return total + entry.key.utf8.count + value + MemoryLayout<TraceMetadataValue>.stride + 16
        }
    }
}
