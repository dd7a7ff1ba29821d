/*
 * The one translation unit that creates the `session_trace` probes and defines its
 * tracepoints; every other file only calls them.
 */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "session_trace_tp.h"

#include "CLTTngUST.h"

const int *const st_tracepoint_state_run = &lttng_ust_tracepoint_session_trace___run.state;
const int *const st_tracepoint_state_session = &lttng_ust_tracepoint_session_trace___session.state;
const int *const st_tracepoint_state_request = &lttng_ust_tracepoint_session_trace___request.state;
const int *const st_tracepoint_state_tool_call =
    &lttng_ust_tracepoint_session_trace___tool_call.state;
const int *const st_tracepoint_state_handoff = &lttng_ust_tracepoint_session_trace___handoff.state;
const int *const st_tracepoint_state_interval =
    &lttng_ust_tracepoint_session_trace___interval.state;
const int *const st_tracepoint_state_instant = &lttng_ust_tracepoint_session_trace___instant.state;
const int *const st_tracepoint_state_chunk = &lttng_ust_tracepoint_session_trace___chunk.state;
const int *const st_tracepoint_state_payload = &lttng_ust_tracepoint_session_trace___payload.state;
const int *const st_tracepoint_state_dropped = &lttng_ust_tracepoint_session_trace___dropped.state;

void st_emit_run(int64_t run_id, int64_t ts, int64_t wall_clock_start, const char *host,
                 const char *command_line, const char *git_revision, const char *label,
                 const char *tool_version) {
    lttng_ust_tracepoint(session_trace, run, run_id, ts, wall_clock_start, host, command_line,
                         git_revision, label, tool_version);
}

void st_emit_session(int64_t session_id, int64_t ts, int64_t dur, const char *label) {
    lttng_ust_tracepoint(session_trace, session, session_id, ts, dur, label);
}

void st_emit_request(int64_t request_id, int64_t session_id, int64_t parent_id, int64_t ts,
                     int64_t dur, int64_t ttft, const char *profile, const char *provider,
                     const char *model, int64_t input_tokens, int64_t cached_input_tokens,
                     int64_t output_tokens, int64_t prompt_bytes, int64_t transcript_entries,
                     int64_t reused_prefix_entries, const char *finish_reason, const char *error,
                     int64_t server_prompt_tokens, int64_t server_cached_tokens,
                     int64_t server_prompt_dur, int64_t server_predicted_tokens,
                     int64_t server_predicted_dur) {
    const struct st_request_args args = {
        .request_id = request_id, .session_id = session_id, .parent_id = parent_id,
        .ts = ts, .dur = dur, .ttft = ttft,
        .profile = profile, .provider = provider, .model = model,
        .input_tokens = input_tokens, .cached_input_tokens = cached_input_tokens,
        .output_tokens = output_tokens, .prompt_bytes = prompt_bytes,
        .transcript_entries = transcript_entries, .reused_prefix_entries = reused_prefix_entries,
        .finish_reason = finish_reason, .error = error,
        .server_prompt_tokens = server_prompt_tokens, .server_cached_tokens = server_cached_tokens,
        .server_prompt_dur = server_prompt_dur, .server_predicted_tokens = server_predicted_tokens,
        .server_predicted_dur = server_predicted_dur,
    };
    lttng_ust_tracepoint(session_trace, request, &args);
}

void st_emit_tool_call(int64_t tool_call_id, int64_t request_id, int64_t session_id, int64_t ts,
                       int64_t dur, const char *name, const char *call_id,
                       const char *arguments_fingerprint, int64_t arguments_bytes,
                       int64_t output_bytes, const char *outcome, const char *error) {
    const struct st_tool_call_args args = {
        .tool_call_id = tool_call_id, .request_id = request_id, .session_id = session_id,
        .ts = ts, .dur = dur, .name = name, .call_id = call_id,
        .arguments_fingerprint = arguments_fingerprint, .arguments_bytes = arguments_bytes,
        .output_bytes = output_bytes, .outcome = outcome, .error = error,
    };
    lttng_ust_tracepoint(session_trace, tool_call, &args);
}

void st_emit_handoff(int64_t handoff_id, int64_t session_id, int64_t ts, const char *kind,
                     const char *from, const char *to) {
    lttng_ust_tracepoint(session_trace, handoff, handoff_id, session_id, ts, kind, from, to);
}

void st_emit_interval(int64_t interval_id, int64_t parent_id, int64_t session_id, int64_t ts,
                      int64_t dur, const char *name, const char *metadata, const char *error) {
    lttng_ust_tracepoint(session_trace, interval, interval_id, parent_id, session_id, ts, dur,
                         name, metadata, error);
}

void st_emit_instant(int64_t instant_id, int64_t parent_id, int64_t ts, const char *name,
                     const char *metadata) {
    lttng_ust_tracepoint(session_trace, instant, instant_id, parent_id, ts, name, metadata);
}

void st_emit_chunk(int64_t request_id, int64_t ts, int64_t tokens) {
    lttng_ust_tracepoint(session_trace, chunk, request_id, ts, tokens);
}

void st_emit_payload(int64_t payload_id, int64_t parent_id, int64_t ts, const char *kind,
                     const char *text) {
    lttng_ust_tracepoint(session_trace, payload, payload_id, parent_id, ts, kind, text);
}

void st_emit_dropped(int64_t ts, const char *sink, const char *reason, int64_t count) {
    lttng_ust_tracepoint(session_trace, dropped, ts, sink, reason, count);
}
