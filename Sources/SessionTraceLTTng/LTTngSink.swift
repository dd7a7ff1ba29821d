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
        withCStrings(
            r.profile, r.provider, r.model, r.finishReason ?? "", r.error ?? "", r.instructionsFingerprint ?? "",
            r.toolsFingerprint ?? "", r.responseID ?? "", r.responseModel ?? "", r.serverAddress ?? ""
        ) { text in
            var fields = st_request_fields(
                request_id: r.requestID, session_id: r.sessionID ?? -1, parent_id: r.parentID ?? -1, ts: r.ts,
                dur: r.dur, ttft: r.timeToFirstToken ?? -1, profile: text[0], provider: text[1], model: text[2],
                input_tokens: r.inputTokens ?? -1, cached_input_tokens: r.cachedInputTokens ?? -1,
                output_tokens: r.outputTokens ?? -1, prompt_bytes: r.promptBytes,
                transcript_entries: r.transcriptEntries, reused_prefix_entries: r.reusedPrefixEntries,
                finish_reason: text[3], error: text[4],
                server_prompt_tokens: server?.promptTokens ?? -1, server_cached_tokens: server?.cachedTokens ?? -1,
                server_prompt_dur: server?.promptDuration ?? -1,
                server_predicted_tokens: server?.predictedTokens ?? -1,
                server_predicted_dur: server?.predictedDuration ?? -1, turn_id: r.turnID ?? -1,
                instructions_fingerprint: text[5], tools_fingerprint: text[6],
                cache_write_tokens: r.cacheWriteTokens ?? -1, response_id: text[7], response_model: text[8],
                server_address: text[9], server_port: r.serverPort ?? -1,
                streamed: r.streamed.map { $0 ? 1 : 0 } ?? -1, max_tokens: r.maxTokens ?? -1,
                temperature: r.temperature ?? -1)
            st_emit_request(&fields)
        }
    }

    private static func emit(_ t: ToolCallRecord) {
        withCStrings(
            t.name, t.callID ?? "", t.argumentsFingerprint, t.outcome.rawValue, t.error ?? "", t.outputFingerprint ?? ""
        ) { text in
            (t.argumentsSketch ?? []).withUnsafeBufferPointer { arguments in
                (t.outputSketch ?? []).withUnsafeBufferPointer { sketch in
                    var fields = st_tool_call_fields(
                        tool_call_id: t.toolCallID, request_id: t.requestID ?? -1, session_id: t.sessionID ?? -1,
                        ts: t.ts, dur: t.dur, name: text[0], call_id: text[1], arguments_fingerprint: text[2],
                        arguments_bytes: t.argumentsBytes, arguments_sketch: arguments.baseAddress,
                        arguments_sketch_length: UInt32(arguments.count), output_bytes: t.outputBytes,
                        outcome: text[3], error: text[4], output_fingerprint: text[5], output_sketch: sketch.baseAddress,
                        output_sketch_length: UInt32(sketch.count))
                    st_emit_tool_call(&fields)
                }
            }
        }
    }

    /// Calls `body` with a NUL-terminated C string for each of `strings`, all in one buffer: an
    /// event with many text fields costs one allocation rather than a closure per field.
    private static func withCStrings<Result>(
        _ strings: String..., body: ([UnsafePointer<CChar>]) -> Result
    ) -> Result {
        var bytes: [CChar] = []
        bytes.reserveCapacity(strings.reduce(0) { $0 + $1.utf8.count + 1 })
        var offsets: [Int] = []
        offsets.reserveCapacity(strings.count)
        for string in strings {
            offsets.append(bytes.count)
            for byte in string.utf8 { bytes.append(CChar(bitPattern: byte == 0 ? 0x20 : byte)) }
            bytes.append(0)
        }
        return bytes.withUnsafeBufferPointer { buffer in
            body(offsets.map { buffer.baseAddress! + $0 })
        }
    }

    private static func emit(_ h: HandoffRecord) {
        h.kind.rawValue.withCString { kind in
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
        d.sinkName.withCString { sink in
            d.reason.rawValue.withCString { reason in
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
