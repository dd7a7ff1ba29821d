#!/bin/bash
# Side inputs that grow: how the work grows with them. Each case runs the release trace-report on
# an input and on one 10 times larger, made from the checked-in baseline and planner runs; linear
# work takes 10x the time (plus the fixed start-up), quadratic work 100x.
#   - gate against a baseline of GROUPS more scenario groups (default 1,000), and 10 x GROUPS;
#   - gate against a baseline of one group whose run holds REQUESTS requests (default 20,000),
#     and 10 x REQUESTS: above LatencyBaseline.sampleCap (5,000) a group is thinned as it is read;
#   - redact, with a rules file of 50 rules, an input of LINES lines (default 20,000), and 10 x.
# Each time is the best of RUNS (3). Prints each pair and its ratio.
#
# Usage: benchmarks/side-input-scaling.sh [GROUPS] [REQUESTS] [LINES]
set -euo pipefail
cd "$(dirname "$0")/.."
GROUPS_N=${1:-1000}
REQUESTS=${2:-20000}
LINES=${3:-20000}
RUNS=${RUNS:-3}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

source benchmarks/lib/release-binary.sh
BIN=$(release_binary trace-report)
STORES=(tracefiles/planner/run-*.sqlite)

python3 - "$WORK" "$GROUPS_N" "$REQUESTS" "$LINES" <<'PY'
import json, sys
work, groups, requests, lines = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
base = json.load(open("tracefiles/baseline/planner-baseline.json"))
first = base["groups"][0]
for scale in (1, 10):
    # The baseline's own groups, which the runs match, and more that no run matches.
    many = dict(base, groups=base["groups"] + [dict(first, scenario=f"s{i}") for i in range(groups * scale)])
    json.dump(many, open(f"{work}/groups-{scale}.json", "w"))
    n = requests * scale
    run = {k: (v * (n // len(v) + 1))[:n] if isinstance(v, list) else v for k, v in first["runs"][0].items()}
    json.dump(dict(base, groups=[dict(first, runs=[run])]), open(f"{work}/requests-{scale}.json", "w"))
    with open(f"{work}/text-{scale}.txt", "w") as out:
        for i in range(lines * scale):
            # Every rule's trigger occurs at both sizes, so both run all 50 rules.
            out.write(f"line {i}: contact ops-{i}@example.com, ticket TCK-{i % 50:02d}{i % 10000:04d}, build 0x{i:08x}\n")
with open(f"{work}/rules", "w") as out:
    for i in range(50):
        out.write(f"ticket_{i}\tTCK-{i:02d}[0-9]{{4}}\ttrigger=TCK-{i:02d}\n")
PY

best() { # the best wall time in seconds of RUNS runs of "$@" (exit 0 or 1 allowed: a gate may fail)
    local times=()
    for _ in $(seq "$RUNS"); do
        local start end
        start=$(date +%s.%N)
        "$@" >/dev/null 2>"$WORK/err" || [ $? -eq 1 ] || { cat "$WORK/err" >&2; exit 1; }
        end=$(date +%s.%N)
        times+=("$(echo "$end - $start" | bc)")
    done
    printf '%s\n' "${times[@]}" | sort -n | head -1
}
pair() { # label, then the command with SCALE where the input's scale goes
    local label=$1; shift
    local one ten
    one=$(best "${@//SCALE/1}")
    ten=$(best "${@//SCALE/10}")
    printf '%-48s %8.2f s  %8.2f s  %6.1fx\n' "$label" "$one" "$ten" "$(echo "$ten / $one" | bc -l)"
}
printf '%-48s %10s  %10s  %7s\n' "case" "input" "10x input" "ratio"
pair "gate, baseline of $GROUPS_N groups" "$BIN" gate --baseline "$WORK/groups-SCALE.json" "${STORES[@]}"
pair "gate, one run of $REQUESTS requests" "$BIN" gate --baseline "$WORK/requests-SCALE.json" "${STORES[@]}"
pair "redact, $LINES lines, 50 rules" "$BIN" redact --rules "$WORK/rules" "$WORK/text-SCALE.txt"
