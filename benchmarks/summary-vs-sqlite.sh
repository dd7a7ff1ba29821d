#!/bin/bash
# trace-report summary against the sqlite3 CLI running the same aggregates, on one store of
# REQUESTS requests (default 1,000,000) in SESSIONS sessions (default 1,000), a tool call on
# every 4th request.
#
# The store is generated in SQL (WITH RECURSIVE) into the real schema, copied from a scenario
# store, so it is what StoreSink creates. The SQL side computes per run, per session and per
# profile/model: count, ttft p50/p95/max, tokens/s p50, latency p50/p95/sum, tool time, cache
# hit rate and errors, percentiles by nearest rank through window functions: the definitions
# `trace-report summary` documents. Each side runs RUNS (3) times; the best time counts.
#
# Usage: benchmarks/summary-vs-sqlite.sh [REQUESTS] [SESSIONS]
set -euo pipefail
cd "$(dirname "$0")/.."
REQUESTS=${1:-1000000}
SESSIONS=${2:-1000}
RUNS=${RUNS:-3}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
STORE=$WORK/bench.sqlite

swift build -c release --product trace-report >/dev/null
BIN=$(swift build -c release --show-bin-path)/trace-report

now() { date +%s.%N; }
start=$(now)
sqlite3 tracefiles/scenarios/tool-loop.sqlite .schema | sqlite3 "$STORE"
sqlite3 "$STORE" >/dev/null <<SQL
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
PRAGMA application_id = 1398035011;
PRAGMA user_version = 1;
BEGIN;
INSERT INTO meta (key, value) VALUES ('schema_version', 1), ('tool_version', 'bench'), ('created_at', 0);
INSERT INTO run VALUES (1 << 32, 0, 0, 'bench', 'summary-vs-sqlite.sh', NULL, 'bench', 'bench');
WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < $SESSIONS - 1)
INSERT INTO session SELECT (1 << 32) | (2000000000 + i), 1 << 32, i * 1000, 1000000000000, 'session-' || i FROM s;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < $REQUESTS - 1)
INSERT INTO request (request_id, run_id, session_id, parent_id, ts, dur, ttft, profile, provider, model,
    input_tokens, cached_input_tokens, output_tokens, prompt_bytes, transcript_entries, reused_prefix_entries,
    finish_reason, error)
SELECT (1 << 32) | (i + 1), 1 << 32, (1 << 32) | (2000000000 + i % $SESSIONS), NULL, i * 1000000,
    200000000 + (i * 7919) % 800000000,
    CASE WHEN i % 101 = 0 THEN NULL ELSE 20000000 + (i * 104729) % 150000000 END,
    CASE i % 3 WHEN 0 THEN 'economy' WHEN 1 THEN 'quality' ELSE 'fast' END, 'llama.cpp',
    CASE i % 2 WHEN 0 THEN 'smollm2-135m' ELSE 'smollm2-360m' END,
    500 + i % 3000, (500 + i % 3000) * (i % 10) / 10, 1 + i % 200, 4 * (500 + i % 3000),
    2 + 2 * ((i / $SESSIONS) % 50), 2 * ((i / $SESSIONS) % 50), 'stop',
    CASE WHEN i % 997 = 0 THEN 'timeout' END
FROM n;
INSERT INTO tool_call (tool_call_id, run_id, request_id, session_id, ts, dur, name, call_id,
    arguments_fingerprint, arguments_bytes, output_bytes, outcome)
SELECT request_id + (1 << 31), run_id, request_id, session_id, ts + dur, 5000000 + (request_id % 97) * 1000000,
    'searchNotes', NULL, printf('%016x', request_id % 5000), 40, 300, 'ok'
FROM request WHERE request_id % 4 = 0;
COMMIT;
SQL
echo "generated $(sqlite3 "$STORE" 'SELECT count(*) FROM request') requests," \
    "$(sqlite3 "$STORE" 'SELECT count(*) FROM tool_call') tool calls, $SESSIONS sessions" \
    "in $(echo "$(now) - $start" | bc) s ($(du -h "$STORE" | cut -f1))"

# The aggregates of one grouping: $1 the key over `request`, $2 the same key over the join alias r.
grouping() {
    cat <<SQL
WITH base AS (SELECT $1 AS k, * FROM request),
groups AS (
    SELECT k, count(*) AS requests, max(ttft) AS ttft_max, sum(dur) AS model_time, count(error) AS errors,
        sum(CASE WHEN cached_input_tokens IS NOT NULL THEN cached_input_tokens END) AS cached,
        sum(CASE WHEN cached_input_tokens IS NOT NULL THEN input_tokens END) AS input
    FROM base GROUP BY k),
ttft AS (
    SELECT k, max(CASE WHEN rn = (50 * n + 99) / 100 THEN v END) AS p50,
        max(CASE WHEN rn = (95 * n + 99) / 100 THEN v END) AS p95
    FROM (SELECT k, ttft AS v, row_number() OVER (PARTITION BY k ORDER BY ttft) AS rn,
              count(*) OVER (PARTITION BY k) AS n
          FROM base WHERE ttft IS NOT NULL) GROUP BY k),
rate AS (
    SELECT k, max(CASE WHEN rn = (50 * n + 99) / 100 THEN v END) AS p50
    FROM (SELECT k, v, row_number() OVER (PARTITION BY k ORDER BY v) AS rn, count(*) OVER (PARTITION BY k) AS n
          FROM (SELECT k, (output_tokens - 1) / ((dur - ttft) / 1e9) AS v FROM base
                WHERE output_tokens > 1 AND ttft IS NOT NULL AND dur > ttft)) GROUP BY k),
latency AS (
    SELECT k, max(CASE WHEN rn = (50 * n + 99) / 100 THEN v END) AS p50,
        max(CASE WHEN rn = (95 * n + 99) / 100 THEN v END) AS p95
    FROM (SELECT k, dur AS v, row_number() OVER (PARTITION BY k ORDER BY dur) AS rn,
              count(*) OVER (PARTITION BY k) AS n FROM base) GROUP BY k),
tools AS (
    SELECT $2 AS k, sum(t.dur) AS tool_time
    FROM tool_call AS t LEFT JOIN request AS r ON r.request_id = t.request_id GROUP BY 1)
SELECT groups.k, requests, ttft.p50, ttft.p95, ttft_max, round(rate.p50, 1), latency.p50, latency.p95,
    model_time, coalesce(tool_time, 0), round(cached * 1.0 / input, 3), errors
FROM groups LEFT JOIN ttft USING (k) LEFT JOIN rate USING (k) LEFT JOIN latency USING (k)
    LEFT JOIN tools USING (k)
ORDER BY groups.k;
SQL
}
{
    grouping "run_id" "t.run_id"
    grouping "session_id" "t.session_id"
    grouping "profile || char(31) || model" "r.profile || char(31) || r.model"
    echo "SELECT run_id, sum(count) FROM dropped GROUP BY run_id;"
} > "$WORK/aggregates.sql"

best() {  # the best wall time of RUNS runs of "$@", in seconds
    local best="" t0 elapsed
    for _ in $(seq "$RUNS"); do
        t0=$(now)
        "$@" > /dev/null
        elapsed=$(echo "$(now) - $t0" | bc)
        if [ -z "$best" ] || [ "$(echo "$elapsed < $best" | bc)" = 1 ]; then best=$elapsed; fi
    done
    echo "$best"
}

best "$BIN" summary "$STORE" > /dev/null  # warm the page cache
swift_time=$(best "$BIN" summary "$STORE")
json_time=$(best "$BIN" summary --json "$STORE")
sql_time=$(best sqlite3 "$STORE" ".read $WORK/aggregates.sql")

echo "run, trace-report --json: $("$BIN" summary --json "$STORE" | tr -d ' \n' | grep -o '"runs":\[{[^]]*' | cut -c1-420)"
echo "run, sqlite3:             $(sqlite3 "$STORE" ".read $WORK/aggregates.sql" | head -1)"
printf 'trace-report summary:         %6.2f s\n' "$swift_time"
printf 'trace-report summary --json:  %6.2f s\n' "$json_time"
printf 'sqlite3 aggregate SQL:        %6.2f s\n' "$sql_time"
printf 'trace-report / sqlite3:       %6.2f (target <= 1.5)\n' "$(echo "$swift_time / $sql_time" | bc -l)"
