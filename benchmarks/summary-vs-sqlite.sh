#!/bin/bash
# trace-report summary against the sqlite3 CLI running the same aggregates, on one store of
# REQUESTS requests (default 1,000,000) in SESSIONS sessions (default 1,000) at once, over 3
# profiles and 2 models, a tool call on every 4th request.
#
# The store is generated in SQL into the real schema by benchmarks/lib/generate-store.sh. The
# SQL side computes per run, per session and per profile/model: count, ttft p50/p95/max, tokens/s
# p50, latency p50/p95/sum, tool time, cache hit rate and errors, percentiles by nearest rank
# through window functions: the definitions `trace-report summary` documents. Each side runs RUNS
# (3) times; the best time counts.
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

source benchmarks/lib/release-binary.sh
BIN=$(release_binary trace-report)
source benchmarks/lib/generate-store.sh

now() { date +%s.%N; }
start=$(now)
generate_store "$STORE" "$REQUESTS" "$SESSIONS" interleaved 4 1
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
