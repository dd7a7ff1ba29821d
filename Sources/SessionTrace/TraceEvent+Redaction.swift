extension TraceEvent {
    /// This event with its free text redacted by `redact`: the fields its record's table marks
    /// `isFreeText` (labels, names, metadata values, handoff values, errors, payloads). Ids, times,
    /// counts, fingerprints and the tracer's own vocabulary (handoff kinds, tool outcomes,
    /// dropped-event reasons) are kept.
    ///
    /// What a ``Tracer`` with a ``Tracer/payloadRedaction`` applies to every event before a sink
    /// keeps it; a sink that redacts off the caller's thread (``TraceSink/redacting(_:)``) calls it
    /// where it writes.
    public func redacted(by redact: (String) -> String) -> TraceEvent {
        switch self {
        case .run(let record): .run(record.redacted(by: redact))
        case .session(let record): .session(record.redacted(by: redact))
        case .request(let record): .request(record.redacted(by: redact))
        case .toolCall(let record): .toolCall(record.redacted(by: redact))
        case .handoff(let record): .handoff(record.redacted(by: redact))
        case .interval(let record): .interval(record.redacted(by: redact))
        case .instant(let record): .instant(record.redacted(by: redact))
        case .chunk(let record): .chunk(record.redacted(by: redact))
        case .payload(let record): .payload(record.redacted(by: redact))
        case .dropped(let record): .dropped(record.redacted(by: redact))
        }
    }

    /// Each value is redacted as `key=value`, so that its key tells as it would in a config line
    /// (`password=hunter2`); a value that changes becomes a string, as a number that is a card
    /// number must.
    static func redacted(_ metadata: TraceMetadata, by redact: (String) -> String) -> TraceMetadata {
        var out: TraceMetadata = [:]
        for (key, value) in metadata {
            let text = value.description
            let prefix = key + "="
            let line = redact(prefix + text)
            let redacted = line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)) : redact(text)
            out[key] = redacted == text ? value : .string(redacted)
        }
        return out
    }
}

extension TableRecord {
    /// This record with its free text redacted by `redact`, as ``TraceEvent/redacted(by:)`` does.
    package func redacted(by redact: (String) -> String) -> Self {
        var record = self
        for field in Self.table.freeTextFields {
            switch field.get(record) {
            case .text(let text): field.set(&record, .text(redact(text)))
            case .metadata(let metadata): field.set(&record, .metadata(TraceEvent.redacted(metadata, by: redact)))
            default: break
            }
        }
        return record
    }
}
