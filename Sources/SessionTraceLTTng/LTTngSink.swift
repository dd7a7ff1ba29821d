import CLTTngUST
import SessionTrace

/// Emits every event as an LTTng-UST tracepoint of the provider `session_trace`.
///
/// A tracepoint is enabled only while an LTTng session enables it (for example
/// `lttng enable-event -u 'session_trace:*'`); until then ``isEnabled(_:)`` is one load of the
/// tracepoint's state word, and ``record(_:)`` returns before formatting anything. Nothing is
/// allocated on the emit path except the metadata JSON of intervals and instants that carry
/// metadata.
///
/// Absent optionals are written as -1 (integers) and "" (strings); see `session_trace_tp.h`.
/// LTTng itself counts the events its ring buffer had to discard and reports them in the
/// trace, so this sink keeps no counter of its own; it has nothing to flush either: data sits
/// in LTTng's buffers and `lttng stop` makes it durable.
///
/// ```swift
/// let tracer = Tracer(sink: MultiplexSink([LTTngSink(), storeSink]))
/// ```
public struct LTTngSink: TraceSink {
    public init() {}

    // Not `@inline(__always)`: inlined into the protocol witness, the C checks were called
    // there instead of inlined; on its own it compiles to a table lookup and two loads.
    public func isEnabled(_ kind: TraceEventKind) -> Bool {
        switch kind {
        case .run: st_run_enabled()
        case .session: st_session_enabled()
        case .request: st_request_enabled()
        case .toolCall: st_tool_call_enabled()
        case .handoff: st_handoff_enabled()
        case .interval: st_interval_enabled()
        case .instant: st_instant_enabled()
        case .chunk: st_chunk_enabled()
        case .payload: st_payload_enabled()
        case .dropped: st_dropped_enabled()
        }
    }

    public func record(_ event: TraceEvent) {
        switch event {
        case .run(let run): if st_run_enabled() { Self.emit(run) }
        case .session(let session): if st_session_enabled() { Self.emit(session) }
        case .request(let request): if st_request_enabled() { Self.emit(request) }
        case .toolCall(let toolCall): if st_tool_call_enabled() { Self.emit(toolCall) }
        case .handoff(let handoff): if st_handoff_enabled() { Self.emit(handoff) }
        case .interval(let interval): if st_interval_enabled() { Self.emit(interval) }
        case .instant(let instant): if st_instant_enabled() { Self.emit(instant) }
        case .chunk(let chunk): if st_chunk_enabled() { st_emit_chunk(chunk.requestID, chunk.ts, chunk.tokens) }
        case .payload(let payload): if st_payload_enabled() { Self.emit(payload) }
        case .dropped(let dropped): if st_dropped_enabled() { Self.emit(dropped) }
        }
    }

    /// Nothing to do: LTTng's consumer daemon drains the buffers, `lttng stop` flushes them.
    public func flush() {}

    // MARK: - One emitter per kind, called only when its tracepoint is enabled

    private static func emit(_ r: RunRecord) {
        r.host.withCString { host in
            r.commandLine.withCString { commandLine in
                (r.gitRevision ?? "").withCString { gitRevision in
                    (r.label ?? "").withCString { label in
                        r.toolVersion.withCString { toolVersion in
                            st_emit_run(
                                r.runID, r.ts, r.wallClockStart, host, commandLine, gitRevision, label,
                                toolVersion)
                        }
                    }
                }
            }
        }
    }

    private static func emit(_ s: SessionRecord) {
        s.label.withCString { st_emit_session(s.sessionID, s.ts, s.dur, $0) }
    }

    private static func emit(_ r: RequestRecord) {
        let server = r.serverTimings
        r.profile.withCString { profile in
            r.provider.withCString { provider in
                r.model.withCString { model in
                    (r.finishReason ?? "").withCString { finishReason in
                        (r.error ?? "").withCString { error in
                            st_emit_request(
                                r.requestID, r.sessionID ?? -1, r.parentID ?? -1, r.ts, r.dur,
                                r.timeToFirstToken ?? -1, profile, provider, model,
                                r.inputTokens ?? -1, r.cachedInputTokens ?? -1, r.outputTokens ?? -1,
                                r.promptBytes, r.transcriptEntries, r.reusedPrefixEntries,
                                finishReason, error,
                                server?.promptTokens ?? -1, server?.cachedTokens ?? -1,
                                server?.promptDuration ?? -1, server?.predictedTokens ?? -1,
                                server?.predictedDuration ?? -1)
                        }
                    }
                }
            }
        }
    }

    private static func emit(_ t: ToolCallRecord) {
        t.name.withCString { name in
            (t.callID ?? "").withCString { callID in
                t.argumentsFingerprint.withCString { fingerprint in
                    t.outcome.withCString { outcome in
                        (t.error ?? "").withCString { error in
                            st_emit_tool_call(
                                t.toolCallID, t.requestID ?? -1, t.sessionID ?? -1, t.ts, t.dur,
                                name, callID, fingerprint, t.argumentsBytes, t.outputBytes, outcome,
                                error)
                        }
                    }
                }
            }
        }
    }

    private static func emit(_ h: HandoffRecord) {
        h.kind.withCString { kind in
            h.from.withCString { from in
                h.to.withCString { to in
                    st_emit_handoff(h.handoffID, h.sessionID ?? -1, h.ts, kind, from, to)
                }
            }
        }
    }

    private static func emit(_ i: IntervalRecord) {
        i.name.withCString { name in
            metadataJSON(i.metadata).withCString { metadata in
                (i.error ?? "").withCString { error in
                    st_emit_interval(
                        i.intervalID, i.parentID ?? -1, i.sessionID ?? -1, i.ts, i.dur, name, metadata,
                        error)
                }
            }
        }
    }

    private static func emit(_ i: InstantRecord) {
        i.name.withCString { name in
            metadataJSON(i.metadata).withCString { metadata in
                st_emit_instant(i.instantID, i.parentID ?? -1, i.ts, name, metadata)
            }
        }
    }

    private static func emit(_ p: PayloadRecord) {
        p.kind.rawValue.withCString { kind in
            p.text.withCString { text in
                st_emit_payload(p.payloadID, p.parentID ?? -1, p.ts, kind, text)
            }
        }
    }

    private static func emit(_ d: DroppedRecord) {
        d.sink.withCString { sink in
            d.reason.withCString { reason in
                st_emit_dropped(d.ts, sink, reason, d.count)
            }
        }
    }

    /// The metadata as JSON; the common empty case is a literal, so it costs no allocation.
    @inline(__always)
    private static func metadataJSON(_ metadata: TraceMetadata) -> String {
        metadata.isEmpty ? "{}" : metadata.jsonObject
    }
}
