#!/bin/bash
# The web viewer at 100,000 requests (10 sessions of 10,000, a tool call after every 3rd request)
# against 10,000 (10 sessions of 1,000, drawn a bar per request) in the same run: the release
# build's `trace-report export --format html`, then the page in headless Chromium, RUNS (3) times
# each, with the same flags and self-test steps as Tests/ViewerTests/ViewerScaleTests.swift.
#
# Stores are generated in SQL into the real schema (copied from a scenario store), as
# summary-vs-sqlite.sh does. Figures: <body data-first-render-ms> (performance.now() at the first
# frame, HTML and JSON parsing included) and the self-test's per-step times (a `+` zoom, a wheel
# zoom, an arrow-key pan, a click with its details).
#
# Usage: benchmarks/viewer-scale.sh
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

swift build -c release --product trace-report >/dev/null
BIN=$(swift build -c release --show-bin-path)/trace-report

# $1 store, $2 requests per session (10 sessions).
generate() {
    sqlite3 tracefiles/scenarios/tool-loop.sqlite .schema | sqlite3 "$1"
    sqlite3 "$1" >/dev/null <<SQL
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
PRAGMA application_id = 1398035011;
PRAGMA user_version = 2;
BEGIN;
INSERT INTO meta (key, value) VALUES ('schema_version', 2), ('tool_version', 'bench'), ('created_at', 0);
INSERT INTO run VALUES (1 << 32, 0, 0, 'bench', 'viewer-scale.sh', NULL, 'bench', 'bench');
WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < 9)
INSERT INTO session SELECT (1 << 32) | (2000000000 + i), 1 << 32, i * $2 * 1000000000,
    $2 * 1000000000, 'agent ' || i FROM s;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 10 * $2 - 1)
INSERT INTO request (request_id, run_id, session_id, parent_id, ts, dur, ttft, profile, provider, model,
    input_tokens, cached_input_tokens, output_tokens, prompt_bytes, transcript_entries, reused_prefix_entries,
    finish_reason, error)
SELECT (1 << 32) | (i + 1), 1 << 32, (1 << 32) | (2000000000 + i / $2), NULL, i * 1000000000,
    300000000 + (i * 7919) % 500000000, 40000000 + (i * 104729) % 250000000, 'default', 'llama.cpp',
    'smollm2-135m', 300 + i % 100 * 20, CASE WHEN i % 7 = 0 THEN 0 ELSE 280 + i % 100 * 20 END,
    1 + i % 200, 4 * (300 + i % 100 * 20), 2 + 2 * (i % $2), 2 * (i % $2), 'stop',
    CASE WHEN i % 997 = 0 THEN 'timeout' END
FROM n;
INSERT INTO tool_call (tool_call_id, run_id, request_id, session_id, ts, dur, name, call_id,
    arguments_fingerprint, arguments_bytes, output_bytes, outcome)
SELECT request_id + (1 << 31), run_id, request_id, session_id, ts + dur + 5000000, 80000000,
    'searchNotes', NULL, printf('%016x', request_id), 40, 300, 'ok'
FROM request WHERE request_id % 3 = 0;
COMMIT;
SQL
}

# $1 store, $2 label, $3 the click step.
measure() {
    local html=$WORK/$2.html
    local start end
    start=$(date +%s.%N)
    "$BIN" export --format html --out "$html" "$1" 2>/dev/null
    end=$(date +%s.%N)
    echo "$2: export $(echo "$end - $start" | bc) s (release), $(du -k "$html" | cut -f1) KiB"
    for _ in $(seq "$RUNS"); do
        local profile=$WORK/profile
        rm -rf "$profile"
        local dom
        dom=$(timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-extensions \
            --user-data-dir="$profile" --window-size=1400,900 --hide-scrollbars --virtual-time-budget=15000 \
            --dump-dom "file://$html#selftest=key:%2B,wheel:-300,key:ArrowRight,$3" 2>/dev/null)
        echo "  first render $(grep -o 'data-first-render-ms="[^"]*"' <<<"$dom" | head -1 | cut -d'"' -f2) ms;" \
            "$(grep -o 'data-steps="[^"]*"' <<<"$dom" | head -1 | cut -d'"' -f2)"
    done
}

generate "$WORK/ten.sqlite" 1000
generate "$WORK/hundred.sqlite" 10000
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
measure "$WORK/ten.sqlite" 10k click:request:5000
measure "$WORK/hundred.sqlite" 100k click:band:300
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
