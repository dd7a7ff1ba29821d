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

void st_emit_request(const struct st_request_fields *fields) {
    lttng_ust_tracepoint(session_trace, request, fields);
}

void st_emit_tool_call(const struct st_tool_call_fields *fields) {
    lttng_ust_tracepoint(session_trace, tool_call, fields);
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
