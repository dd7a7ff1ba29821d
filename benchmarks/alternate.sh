#!/usr/bin/env bash
# Two trace-bench builds run in turn, so that both see the machine alike, with their ratios side by
# side: every row judged against a reference (value / reference value, in the same run), then each
# build's median over its runs. The builds swap places every run, so a drift of the machine falls
# on both. For a change's effect on the emit path: this machine's speed moves by a third from one
# minute to the next, so one run of each build says little.
#
# Usage: benchmarks/alternate.sh BEFORE AFTER RUNS [trace-bench options, e.g. --only combined]
#   BEFORE and AFTER are trace-bench binaries, say one built from the older commit in a worktree:
#   git worktree add /tmp/before COMMIT && (cd /tmp/before && swift build -c release --product trace-bench)
set -euo pipefail
if [ $# -lt 3 ]; then
    sed -n '8,10p' "$0" | sed 's/^# *//' >&2
    exit 2
fi
before=$1 after=$2 runs=$3
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for ((run = 1; run <= runs; run++)); do
    order=(before after)
    ((run % 2 == 0)) && order=(after before)
    for name in "${order[@]}"; do
        "${!name}" --json "$@" >"$work/$name.$run.json"
    done
done
python3 - "$work" "$runs" <<'PY'
import json, statistics, sys
work, runs = sys.argv[1], int(sys.argv[2])
ratios = {}
for name in ("before", "after"):
    for run in range(1, runs + 1):
        for row in json.load(open(f"{work}/{name}.{run}.json")):
            if row.get("reference_value"):
                ratios.setdefault(row["metric"], {}).setdefault(name, []).append(
                    row["value"] / row["reference_value"])
print(f"{'metric':24} {'build':7} {'median':>7}   runs")
for metric, builds in ratios.items():
    for name in ("before", "after"):
        values = builds.get(name, [])
        if values:
            each = " ".join(f"{v:.2f}" for v in values)
            print(f"{metric:24} {name:7} {statistics.median(values):6.2f}x   {each}")
PY
