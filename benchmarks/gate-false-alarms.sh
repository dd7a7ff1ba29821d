#!/usr/bin/env bash
# How often does the latency gate fail an UNCHANGED planner configuration? Records N planner runs
# of the CI configuration (the one tracefiles/baseline/planner-baseline.json was made from) and
# gates them against the checked-in baseline with the default budgets:
#   - each run alone (--min-samples 2: one run has 2 requests of the plan profile), the harder case;
#   - consecutive pairs of runs, as the CI job does (two runs, default --min-samples 3).
# Prints every failure's regressions and the counts. A benchmark, not a CI test: ~1 min a run.
#
#   benchmarks/gate-false-alarms.sh [N]     # default 10
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-10}"
planner_args=(${GATE_PLANNER_ARGS:---label planner --max-tokens 64})
baseline=tracefiles/baseline/planner-baseline.json

swift build --product planner-demo >/dev/null
swift build --product trace-report >/dev/null
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

single_fail=0
pair_fail=0
pairs=0
previous=""
for k in $(seq 1 "$runs"); do
    store="$work/run-$k.sqlite"
    start=$(date +%s)
    .build/debug/planner-demo --store "$store" "${planner_args[@]}" >/dev/null
    took=$(( $(date +%s) - start ))
    status=0
    .build/debug/trace-report gate --baseline "$baseline" --min-samples 2 "$store" >"$work/gate-$k.txt" || status=$?
    echo "run $k (${took}s, load $(cut -d' ' -f1 /proc/loadavg)): single gate exit $status"
    if [ "$status" -ne 0 ]; then
        single_fail=$((single_fail + 1))
        grep -E '^(regression|trace-report):' "$work/gate-$k.txt" || true
    fi
    if [ -n "$previous" ]; then
        pairs=$((pairs + 1))
        status=0
        .build/debug/trace-report gate --baseline "$baseline" "$previous" "$store" >"$work/pair-$k.txt" || status=$?
        echo "  pair $((k - 1))+$k: gate exit $status"
        if [ "$status" -ne 0 ]; then
            pair_fail=$((pair_fail + 1))
            grep -E '^(regression|trace-report):' "$work/pair-$k.txt" || true
        fi
        previous=""
    else
        previous="$store"
    fi
done
echo "false alarms: $single_fail of $runs single runs, $pair_fail of $pairs pairs (default budgets)"
