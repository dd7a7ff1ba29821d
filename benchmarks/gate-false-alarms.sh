#!/usr/bin/env bash
# How often does the latency gate fail an UNCHANGED planner configuration? Records N planner runs
# of the CI configuration (the one tracefiles/baseline/planner-baseline.json was made from), then
# gates them against the checked-in baseline with the default budgets:
#   - each run alone (--min-samples 2: one run has 2 requests of the plan profile), the harder case;
#   - consecutive pairs of runs, as the CI job does (two runs, default --min-samples 3).
# Prints each failure's regressions and the counts. A benchmark, not a CI test: 1-7 min a run here.
#
#   benchmarks/gate-false-alarms.sh [N]             # record N runs (default 10) and gate them
#   KEEP=DIR benchmarks/gate-false-alarms.sh [N]    # keep the stores in DIR
#   benchmarks/gate-false-alarms.sh --stores DIR    # gate stores recorded before (DIR/run-*.sqlite)
set -euo pipefail
cd "$(dirname "$0")/.."
planner_args=(${GATE_PLANNER_ARGS:---label planner --max-tokens 64})
baseline=tracefiles/baseline/planner-baseline.json
swift build --product trace-report >/dev/null

if [ "${1:-}" = "--stores" ]; then
    work="$2"
    runs=$(ls "$work"/run-*.sqlite | wc -l)
else
    runs="${1:-10}"
    swift build --product planner-demo >/dev/null
    if [ -n "${KEEP:-}" ]; then work="$KEEP"; mkdir -p "$work"; else work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT; fi
    for k in $(seq 1 "$runs"); do
        start=$(date +%s)
        .build/debug/planner-demo --store "$work/run-$k.sqlite" "${planner_args[@]}" >/dev/null
        echo "recorded run $k in $(( $(date +%s) - start )) s (load $(cut -d' ' -f1 /proc/loadavg))"
    done
fi

single_fail=0
pair_fail=0
pairs=0
for k in $(seq 1 "$runs"); do
    store="$work/run-$k.sqlite"
    status=0
    .build/debug/trace-report gate --baseline "$baseline" --min-samples 2 "$store" >"$work/gate-$k.txt" || status=$?
    speed=$(grep -o "median was [0-9.]* ms ([0-9.]*×)" "$work/gate-$k.txt" || true)
    echo "run $k: gate exit $status (${speed:-no speed note})"
    if [ "$status" -ne 0 ]; then
        single_fail=$((single_fail + 1))
        grep -E '^(regression|trace-report):' "$work/gate-$k.txt" || true
    fi
    if [ $((k % 2)) -eq 0 ]; then
        pairs=$((pairs + 1))
        status=0
        .build/debug/trace-report gate --baseline "$baseline" "$work/run-$((k - 1)).sqlite" "$store" \
            >"$work/pair-$k.txt" || status=$?
        echo "  runs $((k - 1))+$k together: gate exit $status"
        if [ "$status" -ne 0 ]; then
            pair_fail=$((pair_fail + 1))
            grep -E '^(regression|trace-report):' "$work/pair-$k.txt" || true
        fi
    fi
done
echo "false alarms: $single_fail of $runs single runs, $pair_fail of $pairs pairs (default budgets)"
