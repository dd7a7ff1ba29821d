#!/bin/bash
# Pushing a store of REQUESTS requests (default 10,000) in SESSIONS sessions (default 100) to a real
# Arize Phoenix on loopback (`export --format otlp --endpoint`), against writing the same spans as
# an OTLP/JSON file (`export --format otlp --out`) in the same run. A tool call follows every 4th
# request. Each side runs RUNS (3) times; the best time counts. Prints both and their ratio.
#
# Usage: benchmarks/otlp-push.sh [REQUESTS] [SESSIONS]     (scripts/phoenix.sh install first)
set -euo pipefail
cd "$(dirname "$0")/.."
REQUESTS=${1:-10000}
SESSIONS=${2:-100}
RUNS=${RUNS:-3}
WORK=$(mktemp -d)
trap 'scripts/phoenix.sh stop "$WORK/phoenix"; rm -rf "$WORK"' EXIT
STORE=$WORK/push.sqlite

swift build -c release --product trace-report >/dev/null
BIN=$(swift build -c release --show-bin-path)/trace-report

sqlite3 tracefiles/scenarios/tool-loop.sqlite .schema | sqlite3 "$STORE"
sqlite3 "$STORE" <<SQL
PRAGMA application_id = 1398035011;
PRAGMA user_version = 1;
BEGIN;
INSERT INTO meta (key, value) VALUES ('schema_version', 1), ('tool_version', 'bench'), ('created_at', 0);
INSERT INTO run VALUES (1 << 32, 0, 1780000000000000000, 'bench', 'otlp-push.sh', NULL, 'push', 'bench');
WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < $SESSIONS - 1)
INSERT INTO session SELECT (1 << 32) | (2000000000 + i), 1 << 32, 0, 0, 'agent-' || i FROM s;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < $REQUESTS - 1)
INSERT INTO request (request_id, run_id, session_id, ts, dur, ttft, profile, provider, model, input_tokens,
    cached_input_tokens, output_tokens, prompt_bytes, transcript_entries, reused_prefix_entries,
    finish_reason)
SELECT (1 << 32) | (i + 1), 1 << 32, (1 << 32) | (2000000000 + i % $SESSIONS), i * 1000000000, 400000000,
    50000000, 'default', 'llama.cpp', 'smollm2-135m', 500 + i % 300, 400, 1 + i % 60, 2000, 2 + i / $SESSIONS,
    i / $SESSIONS, CASE WHEN i % 4 = 0 THEN 'tool_calls' ELSE 'stop' END
FROM n;
INSERT INTO tool_call (tool_call_id, run_id, request_id, session_id, ts, dur, name, arguments_fingerprint,
    arguments_bytes, output_bytes, outcome)
SELECT request_id + (1 << 31), run_id, request_id, session_id, ts + dur + 1000, 5000000, 'searchNotes',
    printf('%016x', request_id % 5000), 40, 300, 'ok'
FROM request WHERE (request_id - 1) % 4 = 0;
COMMIT;
SQL

port=$(scripts/phoenix.sh start "$WORK/phoenix")
best() { # the best wall time in seconds of RUNS runs of "$@"
    for _ in $(seq "$RUNS"); do
        local start end
        start=$(date +%s.%N)
        "$@" >/dev/null 2>"$WORK/err" || { cat "$WORK/err" >&2; exit 1; }
        end=$(date +%s.%N)
        echo "$end - $start" | bc
    done | sort -g | head -1
}
file=$(best "$BIN" export --format otlp --out "$WORK/x.json" "$STORE")
push=$(best "$BIN" export --format otlp --endpoint "http://127.0.0.1:$port" "$STORE")
calls=$(sqlite3 "$STORE" 'SELECT count(*) FROM tool_call')
echo "store: $REQUESTS requests, $calls tool calls, $SESSIONS sessions"
echo "push: $(head -1 "$WORK/err")"
printf 'file %.2f s, push %.2f s, push/file %.2fx\n' "$file" "$push" "$(echo "$push / $file" | bc -l)"
