/// Passes every free-text field of an event through a redaction before its sink sees it; a
/// ``Tracer`` with a `payloadRedaction` records through one, so labels, names, metadata values,
/// handoff values, errors and payloads are all redacted by the same function, whoever records.
struct RedactingSink: TraceSink {
    let base: any TraceSink
    let redact: @Sendable (String) -> String

    func isEnabled(_ kind: TraceEventKind) -> Bool { base.isEnabled(kind) }

    func record(_ event: TraceEvent) { base.record(redacted(event)) }

    func flush() { base.flush() }

    /// `event` with its text redacted; ids, times, counts, fingerprints and the tracer's own
    /// vocabulary (handoff kinds, tool outcomes, dropped-event reasons) are kept.
    func redacted(_ event: TraceEvent) -> TraceEvent {
        switch event {
        case .run(var run):
            run.host = redact(run.host)
            run.commandLine = redact(run.commandLine)
            run.gitRevision = run.gitRevision.map(redact)
            run.label = run.label.map(redact)
            return .run(run)
        case .session(var session):
            session.label = redact(session.label)
            return .session(session)
        case .request(var request):
            request.profile = redact(request.profile)
            request.provider = redact(request.provider)
            request.model = redact(request.model)
            request.finishReason = request.finishReason.map(redact)
            request.error = request.error.map(redact)
            request.responseID = request.responseID.map(redact)
            request.responseModel = request.responseModel.map(redact)
            request.serverAddress = request.serverAddress.map(redact)
            return .request(request)
        case .toolCall(var call):
            call.name = redact(call.name)
            call.callID = call.callID.map(redact)
            call.error = call.error.map(redact)
            return .toolCall(call)
        case .handoff(var handoff):
            handoff.from = redact(handoff.from)
            handoff.to = redact(handoff.to)
            return .handoff(handoff)
        case .interval(var interval):
            interval.name = redact(interval.name)
            interval.metadata = redacted(interval.metadata)
            interval.error = interval.error.map(redact)
            return .interval(interval)
        case .instant(var instant):
            instant.name = redact(instant.name)
            instant.metadata = redacted(instant.metadata)
            return .instant(instant)
        case .payload(var payload):
            payload.text = redact(payload.text)
            return .payload(payload)
        case .chunk, .dropped:
            return event
        }
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
