/*
 * The LTTng-UST tracepoint provider `session_trace`: one tracepoint per event kind of the
 * SessionTrace vocabulary (Sources/SessionTrace/TraceRecords.swift).
 *
 * Private to CLTTngUST: Swift calls the plain functions of include/CLTTngUST.h and never sees
 * these macros. Field names are the snake_case names of the record properties, so a trace read
 * with babeltrace2 lines up with the SQLite store's columns: each tracepoint carries its record's
 * field table (Sources/SessionTrace/Fields/), in order, and TracepointHeaderTests fails when a
 * field is added to one and not the other.
 *
 * Absent optionals: an absent integer (`Int64?` nil) is written as -1, an absent string
 * (`String?` nil) as "". Every id, time and count of the vocabulary is non-negative, so -1 is
 * never a real value; "" is never a real finish reason, error, label, revision or call id.
 *
 * Times are nanoseconds on the tracer's clock (`ts`) or durations (`dur`, `ttft`,
 * `server_prompt_dur`, `server_predicted_dur`, `server_queue_dur`, and the `client_*` phases,
 * which count from `ts`); LTTng's own event timestamp is kept as well.
 * An event is emitted when its record is complete, so LTTng stamps it at the interval's end
 * (`ts + dur`); the `session` event is emitted again each time the session grows, and the last
 * one per `session_id` is the whole session. docs/lttng.md documents every field.
 *
 * Every event class carries the version of these tracepoints in its `model.emf.uri`, which a
 * reader finds in the trace's metadata: SessionTrace's reader refuses a version newer than it
 * knows (TraceAnalysis's SessionTraceDecoder.supportedVersion). Raise it when a field changes
 * meaning or a required field goes; adding a field needs no new version.
 */
#define SESSION_TRACE_TRACEPOINTS_URI "urn:sessiontrace:tracepoints:2"

#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER session_trace

/*
 * LTTng's headers include this file again by this name. SwiftPM puts only include/ on the
 * search path, so the name steps out of it; that keeps the header private without a
 * headerSearchPath setting in Package.swift.
 */
#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "../session_trace_tp.h"

/*
 * A tracepoint takes at most ten arguments; `request` and `tool_call` have more fields, so
 * they take one pointer to the field structs of include/CLTTngUST.h.
 */
#include "include/CLTTngUST.h"

#if !defined(SESSION_TRACE_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define SESSION_TRACE_TP_H

#include <lttng/tracepoint.h>

LTTNG_UST_TRACEPOINT_EVENT(session_trace, run,
    LTTNG_UST_TP_ARGS(int64_t, run_id, int64_t, ts, int64_t, wall_clock_start,
        const char *, host, const char *, command_line, const char *, git_revision,
        const char *, label, const char *, tool_version),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_integer(int64_t, run_id, run_id)
        lttng_ust_field_integer(int64_t, ts, ts)
        lttng_ust_field_integer(int64_t, wall_clock_start, wall_clock_start)
        lttng_ust_field_string(host, host)
        lttng_ust_field_string(command_line, command_line)
        lttng_ust_field_string(git_revision, git_revision)
        lttng_ust_field_string(label, label)
        lttng_ust_field_string(tool_version, tool_version)
    )
)
LTTNG_UST_TRACEPOINT_MODEL_EMF_URI(session_trace, run, SESSION_TRACE_TRACEPOINTS_URI)

LTTNG_UST_TRACEPOINT_EVENT(session_trace, session,
    LTTNG_UST_TP_ARGS(int64_t, session_id, int64_t, ts, int64_t, dur, const char *, label),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_integer(int64_t, session_id, session_id)
        lttng_ust_field_integer(int64_t, ts, ts)
        lttng_ust_field_integer(int64_t, dur, dur)
        lttng_ust_field_string(label, label)
    )
)
LTTNG_UST_TRACEPOINT_MODEL_EMF_URI(session_trace, session, SESSION_TRACE_TRACEPOINTS_URI)

LTTNG_UST_TRACEPOINT_EVENT(session_trace, request,
    LTTNG_UST_TP_ARGS(const struct st_request_fields *, r),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_integer(int64_t, request_id, r->request_id)
        lttng_ust_field_integer(int64_t, session_id, r->session_id)
        lttng_ust_field_integer(int64_t, parent_id, r->parent_id)
        lttng_ust_field_integer(int64_t, ts, r->ts)
        lttng_ust_field_integer(int64_t, dur, r->dur)
        lttng_ust_field_integer(int64_t, ttft, r->ttft)
        lttng_ust_field_string(profile, r->profile)
        lttng_ust_field_string(provider, r->provider)
        lttng_ust_field_string(model, r->model)
        lttng_ust_field_integer(int64_t, input_tokens, r->input_tokens)
        lttng_ust_field_integer(int64_t, cached_input_tokens, r->cached_input_tokens)
        lttng_ust_field_integer(int64_t, output_tokens, r->output_tokens)
        lttng_ust_field_integer(int64_t, prompt_bytes, r->prompt_bytes)
        lttng_ust_field_integer(int64_t, transcript_entries, r->transcript_entries)
        lttng_ust_field_integer(int64_t, reused_prefix_entries, r->reused_prefix_entries)
        lttng_ust_field_string(finish_reason, r->finish_reason)
        lttng_ust_field_string(error, r->error)
        lttng_ust_field_integer(int64_t, server_prompt_tokens, r->server_prompt_tokens)
        lttng_ust_field_integer(int64_t, server_cached_tokens, r->server_cached_tokens)
        lttng_ust_field_integer(int64_t, server_prompt_dur, r->server_prompt_dur)
        lttng_ust_field_integer(int64_t, server_predicted_tokens, r->server_predicted_tokens)
        lttng_ust_field_integer(int64_t, server_predicted_dur, r->server_predicted_dur)
        lttng_ust_field_integer(int64_t, turn_id, r->turn_id)
        lttng_ust_field_string(instructions_fingerprint, r->instructions_fingerprint)
        lttng_ust_field_string(tools_fingerprint, r->tools_fingerprint)
        lttng_ust_field_integer(int64_t, cache_write_tokens, r->cache_write_tokens)
        lttng_ust_field_string(response_id, r->response_id)
        lttng_ust_field_string(response_model, r->response_model)
        lttng_ust_field_string(server_address, r->server_address)
        lttng_ust_field_integer(int64_t, server_port, r->server_port)
        lttng_ust_field_integer(int8_t, streamed, r->streamed)
        lttng_ust_field_integer(int64_t, max_tokens, r->max_tokens)
        lttng_ust_field_float(double, temperature, r->temperature)
        lttng_ust_field_integer(int64_t, server_queue_dur, r->server_queue_dur)
        lttng_ust_field_integer(int64_t, client_first_byte, r->client_first_byte)
        lttng_ust_field_integer(int64_t, client_dns, r->client_dns)
        lttng_ust_field_integer(int64_t, client_connect, r->client_connect)
        lttng_ust_field_integer(int64_t, client_tls, r->client_tls)
        lttng_ust_field_integer(int64_t, client_sent, r->client_sent)
    )
)
LTTNG_UST_TRACEPOINT_MODEL_EMF_URI(session_trace, request, SESSION_TRACE_TRACEPOINTS_URI)

LTTNG_UST_TRACEPOINT_EVENT(session_trace, tool_call,
    LTTNG_UST_TP_ARGS(const struct st_tool_call_fields *, t),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_integer(int64_t, tool_call_id, t->tool_call_id)
        lttng_ust_field_integer(int64_t, request_id, t->request_id)
        lttng_ust_field_integer(int64_t, session_id, t->session_id)
        lttng_ust_field_integer(int64_t, ts, t->ts)
        lttng_ust_field_integer(int64_t, dur, t->dur)
        lttng_ust_field_string(name, t->name)
        lttng_ust_field_string(call_id, t->call_id)
        lttng_ust_field_string(arguments_fingerprint, t->arguments_fingerprint)
        lttng_ust_field_integer(int64_t, arguments_bytes, t->arguments_bytes)
        lttng_ust_field_sequence(uint32_t, arguments_sketch, t->arguments_sketch, uint32_t,
            t->arguments_sketch_length)
        lttng_ust_field_integer(int64_t, output_bytes, t->output_bytes)
        lttng_ust_field_string(outcome, t->outcome)
        lttng_ust_field_string(error, t->error)
        lttng_ust_field_string(output_fingerprint, t->output_fingerprint)
        lttng_ust_field_sequence(uint32_t, output_sketch, t->output_sketch, uint32_t,
            t->output_sketch_length)
    )
)
LTTNG_UST_TRACEPOINT_MODEL_EMF_URI(session_trace, tool_call, SESSION_TRACE_TRACEPOINTS_URI)

LTTNG_UST_TRACEPOINT_EVENT(session_trace, handoff,
    LTTNG_UST_TP_ARGS(int64_t, handoff_id, int64_t, session_id, int64_t, ts,
        const char *, kind, const char *, from, const char *, to),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_integer(int64_t, handoff_id, handoff_id)
        lttng_ust_field_integer(int64_t, session_id, session_id)
        lttng_ust_field_integer(int64_t, ts, ts)
        lttng_ust_field_string(kind, kind)
        lttng_ust_field_string(from, from)
        lttng_ust_field_string(to, to)
    )
)
LTTNG_UST_TRACEPOINT_MODEL_EMF_URI(session_trace, handoff, SESSION_TRACE_TRACEPOINTS_URI)

/* `metadata` is the record's metadata as one compact JSON object with sorted keys. */
LTTNG_UST_TRACEPOINT_EVENT(session_trace, interval,
    LTTNG_UST_TP_ARGS(int64_t, interval_id, int64_t, parent_id, int64_t, session_id,
        int64_t, ts, int64_t, dur, const char *, name, const char *, metadata,
        const char *, error),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_integer(int64_t, interval_id, interval_id)
        lttng_ust_field_integer(int64_t, parent_id, parent_id)
        lttng_ust_field_integer(int64_t, session_id, session_id)
        lttng_ust_field_integer(int64_t, ts, ts)
        lttng_ust_field_integer(int64_t, dur, dur)
        lttng_ust_field_string(name, name)
        lttng_ust_field_string(metadata, metadata)
        lttng_ust_field_string(error, error)
    )
)
LTTNG_UST_TRACEPOINT_MODEL_EMF_URI(session_trace, interval, SESSION_TRACE_TRACEPOINTS_URI)

LTTNG_UST_TRACEPOINT_EVENT(session_trace, instant,
    LTTNG_UST_TP_ARGS(int64_t, instant_id, int64_t, parent_id, int64_t, ts,
        const char *, name, const char *, metadata),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_integer(int64_t, instant_id, instant_id)
        lttng_ust_field_integer(int64_t, parent_id, parent_id)
        lttng_ust_field_integer(int64_t, ts, ts)
        lttng_ust_field_string(name, name)
        lttng_ust_field_string(metadata, metadata)
    )
)
LTTNG_UST_TRACEPOINT_MODEL_EMF_URI(session_trace, instant, SESSION_TRACE_TRACEPOINTS_URI)

LTTNG_UST_TRACEPOINT_EVENT(session_trace, chunk,
    LTTNG_UST_TP_ARGS(int64_t, request_id, int64_t, ts, int64_t, tokens),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_integer(int64_t, request_id, request_id)
        lttng_ust_field_integer(int64_t, ts, ts)
        lttng_ust_field_integer(int64_t, tokens, tokens)
    )
)
LTTNG_UST_TRACEPOINT_MODEL_EMF_URI(session_trace, chunk, SESSION_TRACE_TRACEPOINTS_URI)

/* `kind` is `prompt`, `response`, `tool_arguments` or `tool_output`; `text` is redacted. */
LTTNG_UST_TRACEPOINT_EVENT(session_trace, payload,
    LTTNG_UST_TP_ARGS(int64_t, payload_id, int64_t, parent_id, int64_t, ts,
        const char *, kind, const char *, text),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_integer(int64_t, payload_id, payload_id)
        lttng_ust_field_integer(int64_t, parent_id, parent_id)
        lttng_ust_field_integer(int64_t, ts, ts)
        lttng_ust_field_string(kind, kind)
        lttng_ust_field_string(text, text)
    )
)
LTTNG_UST_TRACEPOINT_MODEL_EMF_URI(session_trace, payload, SESSION_TRACE_TRACEPOINTS_URI)

LTTNG_UST_TRACEPOINT_EVENT(session_trace, dropped,
    LTTNG_UST_TP_ARGS(int64_t, ts, const char *, sink, const char *, reason, int64_t, count),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_integer(int64_t, ts, ts)
        lttng_ust_field_string(sink, sink)
        lttng_ust_field_string(reason, reason)
        lttng_ust_field_integer(int64_t, count, count)
    )
)
LTTNG_UST_TRACEPOINT_MODEL_EMF_URI(session_trace, dropped, SESSION_TRACE_TRACEPOINTS_URI)

#endif /* SESSION_TRACE_TP_H */

#include <lttng/tracepoint-event.h>
