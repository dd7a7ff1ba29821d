# Sourced by the benchmarks: generate_store writes a store in SQL (WITH RECURSIVE) into the real
# schema, copied from a scenario store, so it is what StoreSink creates, in seconds even for
# 1,000,000 requests. Run from the repository's root.
#
#   generate_store STORE REQUESTS SESSIONS LAYOUT TOOL_EVERY VARIED
#
# - SESSIONS sessions named `agent N`, each making a request every second: LAYOUT `blocks` runs the
#   sessions one after the other (REQUESTS / SESSIONS each), `interleaved` all at once, taking
#   turns request by request.
# - Requests last 0.3–0.8 s, with a time to first token of 40–290 ms, 300–2,280 input tokens
#   (none cached on every 7th), 1–200 output tokens, and the `timeout` error on every 997th.
#   VARIED 1 spreads them over 3 profiles and 2 models and leaves every 101st without a time to
#   first token; VARIED 0 keeps one profile and one model.
# - A tool call of 80 ms after every TOOL_EVERY-th request, each with its own arguments.
generate_store() {
    local store=$1 requests=$2 sessions=$3 layout=$4 tool_every=$5 varied=$6
    local session position start
    case $layout in
        blocks)
            session="i / ($requests / $sessions)"
            position="i % ($requests / $sessions)"
            start="i * 1000000000"
            ;;
        interleaved)
            session="i % $sessions"
            position="i / $sessions"
            start="i * (1000000000 / $sessions)"
            ;;
        *) echo "generate_store: LAYOUT is blocks or interleaved, not $layout" >&2; return 2 ;;
    esac
    sqlite3 tracefiles/scenarios/tool-loop.sqlite .schema | sqlite3 "$store"
    sqlite3 "$store" >/dev/null <<SQL
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
PRAGMA application_id = 1398035011;
PRAGMA user_version = 2;
BEGIN;
INSERT INTO meta (key, value) VALUES ('schema_version', 2), ('tool_version', 'bench'), ('created_at', 0);
INSERT INTO run VALUES (1 << 32, 0, 1780000000000000000, 'bench', 'benchmarks', NULL, 'bench', 'bench');
WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < $sessions - 1)
INSERT INTO session SELECT (1 << 32) | (2000000000 + i), 1 << 32,
    CASE '$layout' WHEN 'blocks' THEN i * ($requests / $sessions) * 1000000000
        ELSE i * (1000000000 / $sessions) END,
    ($requests / $sessions) * 1000000000, 'agent ' || i FROM s;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < $requests - 1),
r AS (SELECT i, $session AS s, $position AS p, $start AS t FROM n)
INSERT INTO request (request_id, run_id, session_id, parent_id, ts, dur, ttft, profile, provider, model,
    input_tokens, cached_input_tokens, output_tokens, prompt_bytes, transcript_entries, reused_prefix_entries,
    finish_reason, error)
SELECT (1 << 32) | (i + 1), 1 << 32, (1 << 32) | (2000000000 + s), NULL, t,
    300000000 + (i * 7919) % 500000000,
    CASE WHEN $varied AND i % 101 = 0 THEN NULL ELSE 40000000 + (i * 104729) % 250000000 END,
    CASE WHEN NOT $varied THEN 'default' WHEN i % 3 = 0 THEN 'economy' WHEN i % 3 = 1 THEN 'quality'
        ELSE 'fast' END,
    'llama.cpp', CASE WHEN $varied AND i % 2 = 1 THEN 'smollm2-360m' ELSE 'smollm2-135m' END,
    300 + i % 100 * 20, CASE WHEN i % 7 = 0 THEN 0 ELSE 280 + i % 100 * 20 END,
    1 + i % 200, 4 * (300 + i % 100 * 20), 2 + 2 * p, 2 * p, 'stop',
    CASE WHEN i % 997 = 0 THEN 'timeout' END
FROM r;
INSERT INTO tool_call (tool_call_id, run_id, request_id, session_id, ts, dur, name, call_id,
    arguments_fingerprint, arguments_bytes, output_bytes, outcome)
SELECT request_id + (1 << 31), run_id, request_id, session_id, ts + dur + 5000000, 80000000,
    'searchNotes', NULL, printf('%016x', request_id), 40, 300, 'ok'
FROM request WHERE request_id % $tool_every = 0;
COMMIT;
SQL
}
