/*
 * CLTTngUST: plain C functions over the `session_trace` LTTng-UST tracepoint provider.
 *
 * Swift sees only these functions and never the LTTng macros. One `st_emit_<kind>` per event
 * kind of the SessionTrace vocabulary, and one `st_tracepoint_state_<kind>` word that is set while
 * an LTTng session wants that tracepoint: check it first, so a disabled event costs about a
 * nanosecond and nothing is formatted.
 *
 * Absent optionals: pass -1 for an absent integer and "" for an absent string (see
 * session_trace_tp.h). Strings must be NUL-terminated UTF-8; they are copied before return.
 */
#ifndef CLTTNGUST_H
#define CLTTNGUST_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The `state` word of each tracepoint, which LTTng-UST sets while a session enables it.
 * Exported by address, so Swift checks a tracepoint with one relaxed load of it (`EnabledWord`)
 * and no call into the probe library.
 */
extern const int *const st_tracepoint_state_run;
extern const int *const st_tracepoint_state_session;
extern const int *const st_tracepoint_state_request;
extern const int *const st_tracepoint_state_tool_call;
extern const int *const st_tracepoint_state_handoff;
extern const int *const st_tracepoint_state_interval;
extern const int *const st_tracepoint_state_instant;
extern const int *const st_tracepoint_state_chunk;
extern const int *const st_tracepoint_state_payload;
extern const int *const st_tracepoint_state_dropped;

void st_emit_run(int64_t run_id, int64_t ts, int64_t wall_clock_start, const char *host,
                 const char *command_line, const char *git_revision, const char *label,
                 const char *tool_version);

void st_emit_session(int64_t session_id, int64_t ts, int64_t dur, const char *label);

/* The fields of a `request` event, one per column of the store's `request` table. The
 * server_* fields are -1 when the server reported no timings; `streamed` is -1 unknown, 0 or 1;
 * `temperature` is -1 when the request set none. */
struct st_request_fields {
    int64_t request_id, session_id, parent_id, ts, dur, ttft;
    const char *profile, *provider, *model;
    int64_t input_tokens, cached_input_tokens, output_tokens;
    int64_t prompt_bytes, transcript_entries, reused_prefix_entries;
    const char *finish_reason, *error;
    int64_t server_prompt_tokens, server_cached_tokens, server_prompt_dur;
    int64_t server_predicted_tokens, server_predicted_dur;
    int64_t turn_id;
    const char *instructions_fingerprint, *tools_fingerprint;
    int64_t cache_write_tokens;
    const char *response_id, *response_model, *server_address;
    int64_t server_port;
    int8_t streamed;
    int64_t max_tokens;
    double temperature;
    int64_t server_queue_dur;
    int64_t client_first_byte, client_dns, client_connect, client_tls, client_sent;
};

void st_emit_request(const struct st_request_fields *fields);

/* The fields of a `tool_call` event. Each sketch holds its `_length` values (0 when no sketch
 * was made). */
struct st_tool_call_fields {
    int64_t tool_call_id, request_id, session_id, ts, dur;
    const char *name, *call_id, *arguments_fingerprint;
    int64_t arguments_bytes;
    const uint32_t *arguments_sketch;
    uint32_t arguments_sketch_length;
    int64_t output_bytes;
    const char *outcome, *error, *output_fingerprint;
    const uint32_t *output_sketch;
    uint32_t output_sketch_length;
};

void st_emit_tool_call(const struct st_tool_call_fields *fields);

void st_emit_handoff(int64_t handoff_id, int64_t session_id, int64_t ts, const char *kind,
                     const char *from, const char *to);

/* `metadata` is one compact JSON object, "{}" when there is none. */
void st_emit_interval(int64_t interval_id, int64_t parent_id, int64_t session_id, int64_t ts,
                      int64_t dur, const char *name, const char *metadata, const char *error);

void st_emit_instant(int64_t instant_id, int64_t parent_id, int64_t ts, const char *name,
                     const char *metadata);

void st_emit_chunk(int64_t request_id, int64_t ts, int64_t tokens);

void st_emit_payload(int64_t payload_id, int64_t parent_id, int64_t ts, const char *kind,
                     const char *text);

void st_emit_dropped(int64_t ts, const char *sink, const char *reason, int64_t count);

/*
 * For trace-bench only: `n` raw `lttng_ust_tracepoint(session_trace, instant, ...)` calls in
 * C, with the fields `Tracer.instant("bench")` writes (a fresh id, no parent, a monotonic
 * `ts`, name "bench", metadata "{}"): the floor the Swift path is judged against.
 */
void st_reference_instant_loop(int64_t n);
/* n request events through st_emit_request, as a C program would emit them. */
void st_reference_request_loop(int64_t n);

#ifdef __cplusplus
}
#endif

#endif /* CLTTNGUST_H */
