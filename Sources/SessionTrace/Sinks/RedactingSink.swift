/// Passes every free-text field of an event through a redaction before its sink sees it; a
/// ``Tracer`` with a `payloadRedaction` records through one, so labels, names, metadata values,
/// handoff values, errors and payloads are all redacted by the same function, whoever records.
struct RedactingSink: TraceSink {
    let base: any TraceSink
    let redact: @Sendable (String) -> String

    func isEnabled(_ kind: TraceEventKind) -> Bool { base.isEnabled(kind) }

    func record(_ event: TraceEvent) { base.record(redacted(event)) }

    func flush() { base.flush() }

    /// `event` with its free text redacted: the fields its record's table marks `isFreeText`.
    /// Ids, times, counts, fingerprints and the tracer's own vocabulary (handoff kinds, tool
    /// outcomes, dropped-event reasons) are kept.
    func redacted(_ event: TraceEvent) -> TraceEvent {
        switch event {
        case .run(let record): .run(redacted(record))
        case .session(let record): .session(redacted(record))
        case .request(let record): .request(redacted(record))
        case .toolCall(let record): .toolCall(redacted(record))
        case .handoff(let record): .handoff(redacted(record))
        case .interval(let record): .interval(redacted(record))
        case .instant(let record): .instant(redacted(record))
        case .chunk(let record): .chunk(redacted(record))
        case .payload(let record): .payload(redacted(record))
        case .dropped(let record): .dropped(redacted(record))
        }
    }

    private func redacted<Record: TableRecord>(_ record: Record) -> Record {
        var record = record
        for field in Record.table.freeTextFields {
            switch field.get(record) {
            case .text(let text): field.set(&record, .text(redact(text)))
            case .metadata(let metadata): field.set(&record, .metadata(redacted(metadata)))
            default: break
            }
        }
        return record
    }

    /// Each value is redacted as `key=value`, so that its key tells as it would in a config line
    /// (`password=hunter2`); a value that changes becomes a string, as a number that is a card
    /// number must.
    func redacted(_ metadata: TraceMetadata) -> TraceMetadata {
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
