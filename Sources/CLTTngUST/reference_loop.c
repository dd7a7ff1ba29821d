/*
 * The benchmark's C reference: what a hand-written C program pays to emit the same instant
 * events as `Tracer.instant("bench")`, so trace-bench can judge the Swift path against it.
 */
#include <time.h>

#include "session_trace_tp.h"

#include "CLTTngUST.h"

void st_reference_instant_loop(int64_t n) {
    /* Ids carry a run number in their upper half, like `Tracer.makeID`. */
    const int64_t run_id = (int64_t)0x1234 << 32;
    for (int64_t i = 1; i <= n; i++) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        const int64_t ts = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
        lttng_ust_tracepoint(session_trace, instant, run_id | i, -1, ts, "bench", "{}");
    }
}

void st_reference_request_loop(int64_t n) {
    const int64_t run_id = (int64_t)0x1234 << 32;
    for (int64_t i = 1; i <= n; i++) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        const int64_t ts = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
        /* The same values trace-bench's Swift request records carry. */
        const struct st_request_fields fields = {
            .request_id = run_id | i, .session_id = 7, .parent_id = 7, .ts = ts,
            .dur = 900000000, .ttft = 120000000,
            .profile = "economy", .provider = "llama.cpp", .model = "smollm2-135m",
            .input_tokens = 512, .cached_input_tokens = 384, .output_tokens = 79,
            .prompt_bytes = 2048, .transcript_entries = 6, .reused_prefix_entries = 4,
            .finish_reason = "stop", .error = "",
            .server_prompt_tokens = 128, .server_cached_tokens = 384, .server_prompt_dur = 40000000,
            .server_predicted_tokens = 79, .server_predicted_dur = 760000000,
            .turn_id = 9, .instructions_fingerprint = "3f2a9c0d1e4b5a69", .tools_fingerprint = "",
            .cache_write_tokens = -1, .response_id = "", .response_model = "smollm2-135m",
            .server_address = "127.0.0.1", .server_port = 8080, .streamed = 1, .max_tokens = 256,
            .temperature = -1, .server_queue_dur = -1, .client_first_byte = 2000000, .client_dns = 40000,
            .client_connect = 160000, .client_tls = -1, .client_sent = 300000,
        };
        st_emit_request(&fields);
    }
}
