#!/usr/bin/env bash
# Records N planner runs of the CI configuration and writes the latency baseline from them.
#
#   scripts/record-baseline.sh [N]    # default 5 runs
#
# Writes tracefiles/planner/run-K.sqlite (one store per run, payload capture off, so they hold
# timings, token counts and labels, no prompt text) and tracefiles/baseline/planner-baseline.json.
# The configuration must match what CI gates: GATE_PLANNER_ARGS below, also used by the tests
# (Tests/GateTests) and benchmarks/gate-false-alarms.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-5}"
planner_args=(${GATE_PLANNER_ARGS:---label planner --max-tokens 64})

scripts/model-server.sh build
swift build --product planner-demo >/dev/null
swift build --product trace-report >/dev/null

mkdir -p tracefiles/planner tracefiles/baseline
rm -f tracefiles/planner/run-*.sqlite
stores=()
for k in $(seq 1 "$runs"); do
    store="tracefiles/planner/run-$k.sqlite"
    echo "record-baseline: run $k of $runs"
    .build/debug/planner-demo --store "$store" "${planner_args[@]}" >/dev/null
    stores+=("$store")
done
.build/debug/trace-report baseline --out tracefiles/baseline/planner-baseline.json "${stores[@]}"
echo "record-baseline: wrote tracefiles/baseline/planner-baseline.json from ${#stores[@]} runs"
