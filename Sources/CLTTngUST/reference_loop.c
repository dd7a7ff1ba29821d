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
        st_emit_request(run_id | i, 7, 7, ts, 900000000, 120000000, "economy", "llama.cpp", "smollm2-135m",
                        512, 384, 79, 2048, 6, 4, "stop", "", 128, 384, 40000000, 79, 760000000);
    }
}
