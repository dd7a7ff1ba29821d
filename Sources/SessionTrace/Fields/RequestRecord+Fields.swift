extension RequestRecord: TableRecord {
    /// The request's fields, in the store's column order. A field added here reaches the store
    /// (a column, added to older stores as they open), JSON Lines, the Perfetto args, redaction,
    /// the size estimate and, with `.otel(name)`, the OTLP export under its semantic-convention
    /// name; the tracepoint and the rest of the OTLP mapping are held against it by tests.
    package static let table = RecordTable<RequestRecord>(
        .request, blank: RequestRecord(requestID: 0, ts: 0, dur: 0),
        fields: [
            .integer(
                "requestID", "request_id", unit: .identifier, "the request's id",
                get: { $0.requestID }, set: { $0.requestID = $1 }),
            .optionalInteger(
                "sessionID", "session_id", unit: .identifier, "the session; NULL outside a session",
                get: { $0.sessionID }, set: { $0.sessionID = $1 }),
            .optionalInteger(
                "parentID", "parent_id", unit: .identifier, "the innermost enclosing interval or session",
                get: { $0.parentID }, set: { $0.parentID = $1 }),
            .integer(
                "ts", "ts", unit: .timestamp, "start, at the client",
                get: { $0.ts }, set: { $0.ts = $1 }),
            .integer(
                "dur", "dur", unit: .nanoseconds, "duration, at the client",
                get: { $0.dur }, set: { $0.dur = $1 }),
            .optionalInteger(
                "timeToFirstToken", "ttft", unit: .nanoseconds,
                "time to first token: from `ts` to the first content delta",
                get: { $0.timeToFirstToken }, set: { $0.timeToFirstToken = $1 }),
            .text(
                "profile", "profile", freeText: true, "the session profile in use",
                get: { $0.profile }, set: { $0.profile = $1 }),
            .text(
                "provider", "provider", freeText: true, "`gen_ai.provider.name`",
                get: { $0.provider }, set: { $0.provider = $1 })
                .otel("gen_ai.provider.name"),
            .text(
                "model", "model", freeText: true, "`gen_ai.request.model`",
                get: { $0.model }, set: { $0.model = $1 })
                .otel("gen_ai.request.model"),
            .optionalInteger(
                "inputTokens", "input_tokens", unit: .tokens, "prompt tokens",
                get: { $0.inputTokens }, set: { $0.inputTokens = $1 })
                .otel("gen_ai.usage.input_tokens"),
            .optionalInteger(
                "cachedInputTokens", "cached_input_tokens", unit: .tokens,
                "prompt tokens the server reports served from its cache",
                get: { $0.cachedInputTokens }, set: { $0.cachedInputTokens = $1 })
                .otel("gen_ai.usage.cache_read.input_tokens"),
            .optionalInteger(
                "outputTokens", "output_tokens", unit: .tokens, "generated tokens",
                get: { $0.outputTokens }, set: { $0.outputTokens = $1 })
                .otel("gen_ai.usage.output_tokens"),
            .integer(
                "promptBytes", "prompt_bytes", unit: .bytes,
                "bytes of the prompt as sent (instructions, transcript, tool definitions)",
                get: { $0.promptBytes }, set: { $0.promptBytes = $1 }),
            .integer(
                "transcriptEntries", "transcript_entries", unit: .count, "entries in the transcript sent",
                get: { $0.transcriptEntries }, set: { $0.transcriptEntries = $1 }),
            .integer(
                "reusedPrefixEntries", "reused_prefix_entries", unit: .count,
                "leading entries byte-identical to the previous request's of the session",
                get: { $0.reusedPrefixEntries }, set: { $0.reusedPrefixEntries = $1 }),
            .optionalText(
                "finishReason", "finish_reason", freeText: true, "`stop`, `length`, `tool_calls`, ...",
                get: { $0.finishReason }, set: { $0.finishReason = $1 }),
            .optionalText(
                "error", "error", freeText: true, "the error that ended the request, if any",
                get: { $0.error }, set: { $0.error = $1 }),
        ] + ServerTimings.requestFields + [
            .optionalInteger(
                "turnID", "turn_id", unit: .identifier,
                "the user turn: one `respond`/`streamResponse` call and the tool rounds it drives share it",
                get: { $0.turnID }, set: { $0.turnID = $1 }),
            .optionalText(
                "instructionsFingerprint", "instructions_fingerprint", freeText: false,
                "64-bit FNV-1a (hex) of the instructions sent; NULL without instructions",
                get: { $0.instructionsFingerprint }, set: { $0.instructionsFingerprint = $1 }),
            .optionalText(
                "toolsFingerprint", "tools_fingerprint", freeText: false,
                "FNV-1a over every tool definition sent (name, description, schema), in order; NULL without tools",
                get: { $0.toolsFingerprint }, set: { $0.toolsFingerprint = $1 }),
            .optionalInteger(
                "cacheWriteTokens", "cache_write_tokens", unit: .tokens,
                "prompt tokens the server reports written to its cache (Anthropic `cache_creation_input_tokens`)",
                get: { $0.cacheWriteTokens }, set: { $0.cacheWriteTokens = $1 })
                .otel("gen_ai.usage.cache_write.input_tokens"),
            .optionalText(
                "responseID", "response_id", freeText: true, "`gen_ai.response.id`",
                get: { $0.responseID }, set: { $0.responseID = $1 })
                .otel("gen_ai.response.id"),
            .optionalText(
                "responseModel", "response_model", freeText: true,
                "`gen_ai.response.model`: the model that answered",
                get: { $0.responseModel }, set: { $0.responseModel = $1 })
                .otel("gen_ai.response.model"),
            .optionalText(
                "serverAddress", "server_address", freeText: true, "`server.address` of the endpoint",
                get: { $0.serverAddress }, set: { $0.serverAddress = $1 })
                .otel("server.address"),
            .optionalInteger(
                "serverPort", "server_port", unit: .port, "`server.port` of the endpoint",
                get: { $0.serverPort }, set: { $0.serverPort = $1 })
                .otel("server.port"),
            .optionalBool(
                "streamed", "streamed", "`gen_ai.request.stream`: 1 streamed, 0 not",
                get: { $0.streamed }, set: { $0.streamed = $1 })
                .otel("gen_ai.request.stream"),
            .optionalInteger(
                "maxTokens", "max_tokens", unit: .tokens,
                "`gen_ai.request.max_tokens`, the output cap the request set",
                get: { $0.maxTokens }, set: { $0.maxTokens = $1 })
                .otel("gen_ai.request.max_tokens"),
            .optionalReal(
                "temperature", "temperature", "`gen_ai.request.temperature`",
                get: { $0.temperature }, set: { $0.temperature = $1 })
                .otel("gen_ai.request.temperature"),
            .optionalInteger(
                "serverQueueDuration", "server_queue_dur", unit: .nanoseconds,
                "time the server held the request before its prompt, as it reports it: its queue (vLLM: "
                    + "`metrics.queue_time_ms`) or loading the model (Ollama: `load_duration`); NULL where it "
                    + "reports none (llama.cpp)",
                get: { $0.serverQueueDuration }, set: { $0.serverQueueDuration = $1 }),
        ] + ClientPhases.requestFields)
}

extension ClientPhases {
    /// The client's phases as five request fields, NULL together when the transport measured none.
    ///
    /// Read in order: `client_first_byte` makes the phases (NULL leaves them nil), and the others
    /// fill in phases that exist.
    static let requestFields: [RecordField<RequestRecord>] = [
        .optionalInteger(
            "clientPhases.firstByte", "client_first_byte", unit: .nanoseconds,
            "ns from `ts` to the response's first byte at the client (libcurl `STARTTRANSFER`); "
                + "NULL where the transport measured no phases",
            get: { $0.clientPhases?.firstByte },
            set: { record, value in
                guard let value else { return record.clientPhases = nil }
                if record.clientPhases == nil {
                    record.clientPhases = ClientPhases(nameResolved: 0, connected: 0, requestSent: 0, firstByte: value)
                }
                record.clientPhases?.firstByte = value
            }),
        .optionalInteger(
            "clientPhases.nameResolved", "client_dns", unit: .nanoseconds,
            "ns from `ts` to the server's name resolved (libcurl `NAMELOOKUP`)",
            get: { $0.clientPhases?.nameResolved }, set: { $0.clientPhases?.nameResolved = $1 ?? 0 }),
        .optionalInteger(
            "clientPhases.connected", "client_connect", unit: .nanoseconds,
            "ns from `ts` to the TCP connection made (libcurl `CONNECT`)",
            get: { $0.clientPhases?.connected }, set: { $0.clientPhases?.connected = $1 ?? 0 }),
        .optionalInteger(
            "clientPhases.tlsDone", "client_tls", unit: .nanoseconds,
            "ns from `ts` to the TLS handshake done (libcurl `APPCONNECT`); NULL without TLS",
            get: { $0.clientPhases?.tlsDone }, set: { $0.clientPhases?.tlsDone = $1 }),
        .optionalInteger(
            "clientPhases.requestSent", "client_sent", unit: .nanoseconds,
            "ns from `ts` to the request about to be sent on a ready connection (libcurl `PRETRANSFER`)",
            get: { $0.clientPhases?.requestSent }, set: { $0.clientPhases?.requestSent = $1 ?? 0 }),
    ]
}

extension ServerTimings {
    /// The server's timings as five request fields, NULL together when it reported none.
    ///
    /// Read in order: `server_prompt_tokens` makes the timings (NULL leaves them nil), and the
    /// other four fill in timings that exist, as a store row or a tracepoint holds all five or none.
    static let requestFields: [RecordField<RequestRecord>] = [
        .optionalInteger(
            "serverTimings.promptTokens", "server_prompt_tokens", unit: .tokens,
            "prompt tokens the server processed (llama.cpp: `timings.prompt_n`); NULL if it reports no timings",
            get: { $0.serverTimings?.promptTokens },
            set: { record, value in
                guard let value else { return record.serverTimings = nil }
                if record.serverTimings == nil {
                    record.serverTimings = ServerTimings(
                        promptTokens: value, cachedTokens: 0, promptDuration: 0, predictedTokens: 0,
                        predictedDuration: 0)
                }
                record.serverTimings?.promptTokens = value
            }),
        .optionalInteger(
            "serverTimings.cachedTokens", "server_cached_tokens", unit: .tokens,
            "prompt tokens the server took from its cache (llama.cpp: `timings.cache_n`)",
            get: { $0.serverTimings?.cachedTokens }, set: { $0.serverTimings?.cachedTokens = $1 ?? 0 }),
        .optionalInteger(
            "serverTimings.promptDuration", "server_prompt_dur", unit: .nanoseconds,
            "the server's time on the prompt (llama.cpp: `timings.prompt_ms`)",
            get: { $0.serverTimings?.promptDuration }, set: { $0.serverTimings?.promptDuration = $1 ?? 0 }),
        .optionalInteger(
            "serverTimings.predictedTokens", "server_predicted_tokens", unit: .tokens,
            "tokens the server generated (llama.cpp: `timings.predicted_n`)",
            get: { $0.serverTimings?.predictedTokens }, set: { $0.serverTimings?.predictedTokens = $1 ?? 0 }),
        .optionalInteger(
            "serverTimings.predictedDuration", "server_predicted_dur", unit: .nanoseconds,
            "the server's time generating (llama.cpp: `timings.predicted_ms`)",
            get: { $0.serverTimings?.predictedDuration },
            set: { $0.serverTimings?.predictedDuration = $1 ?? 0 }),
    ]
}
