#!/bin/bash
# What a crash costs a store: a real process (`store-sink-helper`, release build) records through a
# StoreSink and is ended the hard way, TRIALS times (default 20) each:
#   - kill -9 while it records RATE requests a second (default 10,000) from one thread, at a random
#     moment 0.3-1.3 s in: nothing of the process runs, so the queue not yet written is lost;
#   - a trap (a failed precondition) right after recording 10,000 requests flat out: the crash hook
#     writes the queue out before the crash goes on.
# The helper counts every returned `record` call in a shared-memory file, which outlives it; lost =
# that count minus the requests in the store. Prints the median and the largest loss of each.
#
# Usage: benchmarks/crash-loss.sh [TRIALS] [RATE]
set -euo pipefail
cd "$(dirname "$0")/.."
TRIALS=${1:-20}
RATE=${2:-10000}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

source benchmarks/lib/release-binary.sh
HELPER=$(release_binary store-sink-helper)

stored() { sqlite3 "file:$1?mode=ro" "SELECT count(*) FROM request"; }
summarize() { # label and rate (0: none), then the losses one a line on stdin
    sort -n | awk -v label="$1" -v rate="$2" '{ v[NR] = $1 } END {
        median = v[int((NR + 1) / 2)]; max = v[NR]
        printf "%s: %d trials, events lost median %d, max %d", label, NR, median, max
        if (rate > 0) printf " (%.1f ms and %.1f ms of recording at %d/s)", 1000 * median / rate, 1000 * max / rate, rate
        printf "\n" }'
}

for trial in $(seq "$TRIALS"); do
    store=$WORK/killed-$trial.sqlite
    "$HELPER" paced "$store" "$RATE" >/dev/null &
    pid=$!
    sleep "$(awk -v seed="$trial" 'BEGIN { srand(seed); printf "%.3f", 0.3 + rand() }')"
    kill -9 "$pid"
    wait "$pid" 2>/dev/null || true
    emitted=$(od -An -t d8 "$store.emitted" | tr -d ' ')
    echo $((emitted - $(stored "$store")))
done | summarize "kill -9 while recording" "$RATE"

for trial in $(seq "$TRIALS"); do
    store=$WORK/trapped-$trial.sqlite
    "$HELPER" trap "$store" 10000 >/dev/null 2>&1 || true
    echo $((10000 - $(stored "$store")))
done 2>/dev/null | summarize "trap after recording 10,000 flat out" 0
