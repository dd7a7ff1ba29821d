import SessionTrace

extension TraceEvent {
    /// About how many bytes the event holds in memory: its inline size and the bytes of its
    /// strings, arrays and metadata, so that ``StoreSink`` bounds its queue in bytes as well as
    /// in events. Counts UTF-8 lengths, which native strings know without a scan.
    ///
    /// Written out per kind rather than walked through the field tables: this runs on the
    /// caller's thread for every event, and a walk (a closure call and a retained value per
    /// field) cost a request record about twice `emit.store`. `ApproximateBytesTests` holds it
    /// to the tables instead: every text, metadata and sketch field must count.
    public var approximateBytes: Int {
        MemoryLayout<TraceEvent>.stride + outOfLineBytes
    }

    private var outOfLineBytes: Int {
        switch self {
        case .run(let record):
            size(record.host) + size(record.commandLine) + size(record.gitRevision) + size(record.label)
                + size(record.toolVersion)
        case .session(let record):
            size(record.label)
        case .request(let record):
            record.outOfLineBytes
        case .toolCall(let record):
            size(record.name) + size(record.callID) + size(record.argumentsFingerprint) + size(record.outcome.rawValue)
                + size(record.error) + size(record.outputFingerprint)
                + ((record.argumentsSketch?.count ?? 0) + (record.outputSketch?.count ?? 0))
                * MemoryLayout<UInt32>.stride
        case .handoff(let record):
            size(record.kind.rawValue) + size(record.from) + size(record.to)
        case .interval(let record):
            size(record.name) + size(record.error) + size(record.metadata)
        case .instant(let record):
            size(record.name) + size(record.metadata)
        case .chunk:
            0
        case .payload(let record):
            size(record.text)
        case .dropped(let record):
            size(record.sinkName) + size(record.reason.rawValue)
        }
    }
}

extension RequestRecord {
    /// About how many bytes the record holds in memory, as ``TraceEvent/approximateBytes`` counts
    /// them: what ``StoreSink`` counts for a request it queues unboxed.
    var approximateBytes: Int {
        MemoryLayout<RequestRecord>.stride + outOfLineBytes
    }

    fileprivate var outOfLineBytes: Int {
        size(profile) + size(provider) + size(model) + size(finishReason) + size(error)
            + size(instructionsFingerprint) + size(toolsFingerprint) + size(responseID) + size(responseModel)
            + size(serverAddress)
    }
}

@inline(__always)
private func size(_ text: String?) -> Int {
    text?.utf8.count ?? 0
}

/// A dictionary entry costs its key, its value and about a hash slot's bookkeeping.
private func size(_ metadata: TraceMetadata) -> Int {
    metadata.reduce(0) { total, entry in
        let value = if case .string(let text) = entry.value { text.utf8.count } else { 8 }
        return total + entry.key.utf8.count + value + MemoryLayout<TraceMetadataValue>.stride + 16
    }
}
