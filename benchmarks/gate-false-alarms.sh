#!/usr/bin/env bash
# How often does the latency gate fail an UNCHANGED planner configuration? Records N planner runs
# of the CI configuration (the one tracefiles/baseline/planner-baseline.json was made from), then
# gates them with the default budgets:
#   - each run alone (--min-samples 2: one run has 2 requests of the plan profile), the harder case;
#   - consecutive pairs of runs, as the CI job does (two runs, default --min-samples 3).
# Prints each failure's regressions and the counts. A benchmark, not a CI test: 7-15 s a run on a
# quiet machine, up to minutes on a loaded one.
#
#   benchmarks/gate-false-alarms.sh [N]                  # N runs (default 10) against the checked-in baseline
#   benchmarks/gate-false-alarms.sh --other-machine [N]  # two simulated machines, each against the other's
#   KEEP=DIR benchmarks/gate-false-alarms.sh [N]         # keep the stores in DIR
#   benchmarks/gate-false-alarms.sh --stores DIR         # gate stores recorded before (DIR/run-*.sqlite)
#   benchmarks/gate-false-alarms.sh --load-changes [N]   # a load that starts or stops within each run
#
# --other-machine: the "other machine" is this one's llama.cpp server with a sampling setting that
# changes the tokens but not the code (OTHER_SERVER_ARGS, default '--repeat-penalty 1.3'), as another
# CPU does. A baseline of 2 runs on each machine; N runs of each gated against the other's baseline.
#
# --load-changes: a baseline of 2 runs on the quiet machine, then N runs during which a busy loop
# holds one core for part of the run: from LOAD_AFTER seconds (default 3) to the end in odd runs,
# from the start to LOAD_AFTER seconds in even ones. The loop is this script's child, ended by PID.
set -euo pipefail
cd "$(dirname "$0")/.."
planner_args=(${GATE_PLANNER_ARGS:---label planner --max-tokens 64})
other_server_args="${OTHER_SERVER_ARGS:---repeat-penalty 1.3}"
swift build --product trace-report >/dev/null

mode=checked-in
if [ "${1:-}" = "--other-machine" ]; then mode=other-machine; shift; fi
if [ "${1:-}" = "--load-changes" ]; then mode=load-changes; shift; fi
if [ -n "${KEEP:-}" ]; then work="$KEEP"; mkdir -p "$work"; else work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT; fi

# record PREFIX COUNT [server args]: COUNT planner runs into PREFIX-K.sqlite.
record() {
    local prefix="$1" count="$2" server=()
    [ -n "${3:-}" ] && server=(--server-args "$3")
    for k in $(seq 1 "$count"); do
        local start
        start=$(date +%s)
        .build/debug/planner-demo --store "$prefix-$k.sqlite" "${planner_args[@]}" "${server[@]}" >/dev/null
        echo "recorded $(basename "$prefix")-$k in $(( $(date +%s) - start )) s (load $(cut -d' ' -f1 /proc/loadavg))"
    done
}

# record_changing PREFIX COUNT: like record, with a busy loop for part of each run.
record_changing() {
    local prefix="$1" count="$2" after="${LOAD_AFTER:-3}"
    for k in $(seq 1 "$count"); do
        local start demo hog
        start=$(date +%s)
        if [ $((k % 2)) -eq 1 ]; then
            .build/debug/planner-demo --store "$prefix-$k.sqlite" "${planner_args[@]}" >/dev/null &
            demo=$!
            sleep "$after"
            ( while :; do :; done ) &
            hog=$!
            wait "$demo"
            kill "$hog"
            echo "recorded $(basename "$prefix")-$k in $(( $(date +%s) - start )) s, a core busy from ${after} s to the end"
        else
            ( while :; do :; done ) &
            hog=$!
            .build/debug/planner-demo --store "$prefix-$k.sqlite" "${planner_args[@]}" >/dev/null &
            demo=$!
            sleep "$after"
            kill "$hog"
            wait "$demo"
            echo "recorded $(basename "$prefix")-$k in $(( $(date +%s) - start )) s, a core busy for its first ${after} s"
        fi
        wait "$hog" 2>/dev/null || true
    done
}

# gate_all BASELINE PREFIX COUNT: each run alone and consecutive pairs; adds to the counts below.
single_fail=0 pair_fail=0 singles=0 pairs=0 changed=0
gate_all() {
    local baseline="$1" prefix="$2" count="$3" status
    for k in $(seq 1 "$count"); do
        local store="$prefix-$k.sqlite"
        status=0
        .build/debug/trace-report gate --baseline "$baseline" --min-samples 2 "$store" >"$store.gate.txt" || status=$?
        singles=$((singles + 1))
        local speed workloads
        speed=$(grep -o "median was [0-9.]* ms ([0-9.]*×)" "$store.gate.txt" || true)
        workloads=$(grep -c "^note: workload of" "$store.gate.txt" || true)
        [ "$workloads" -gt 0 ] && changed=$((changed + 1))
        echo "$(basename "$store"): gate exit $status (${speed:-no speed note}; $workloads scenarios with another workload)"
        if [ "$status" -ne 0 ]; then
            single_fail=$((single_fail + 1))
            grep -E '^(regression|trace-report):' "$store.gate.txt" || true
        fi
        if [ $((k % 2)) -eq 0 ]; then
            pairs=$((pairs + 1))
            status=0
            .build/debug/trace-report gate --baseline "$baseline" "$prefix-$((k - 1)).sqlite" "$store" \
                >"$store.pair.txt" || status=$?
            echo "  $(basename "$prefix") $((k - 1))+$k together: gate exit $status"
            if [ "$status" -ne 0 ]; then
                pair_fail=$((pair_fail + 1))
                grep -E '^(regression|trace-report):' "$store.pair.txt" || true
            fi
        fi
    done
}

case "$mode" in
load-changes)
    runs="${1:-10}"
    swift build --product planner-demo >/dev/null
    record "$work/base" 2
    .build/debug/trace-report baseline --out "$work/base.json" "$work"/base-*.sqlite >/dev/null
    record_changing "$work/run" "$runs"
    gate_all "$work/base.json" "$work/run" "$runs"
    ;;
checked-in)
    if [ "${1:-}" = "--stores" ]; then
        work="$2"
        runs=$(ls "$work"/run-*.sqlite | wc -l)
    else
        runs="${1:-10}"
        swift build --product planner-demo >/dev/null
        record "$work/run" "$runs"
    fi
    gate_all tracefiles/baseline/planner-baseline.json "$work/run" "$runs"
    ;;
other-machine)
    runs="${1:-10}"
    swift build --product planner-demo >/dev/null
    record "$work/base-this" 2
    record "$work/base-other" 2 "$other_server_args"
    .build/debug/trace-report baseline --out "$work/this.json" "$work"/base-this-*.sqlite >/dev/null
    .build/debug/trace-report baseline --out "$work/other.json" "$work"/base-other-*.sqlite >/dev/null
    record "$work/this" "$runs"
    record "$work/other" "$runs" "$other_server_args"
    echo "this machine's runs against the other machine's baseline ($other_server_args):"
    gate_all "$work/other.json" "$work/this" "$runs"
    echo "the other machine's runs against this machine's baseline:"
    gate_all "$work/this.json" "$work/other" "$runs"
    ;;
esac
echo "false alarms: $single_fail of $singles single runs, $pair_fail of $pairs pairs (default budgets;" \
    "$changed of $singles runs had a scenario with another workload)"
