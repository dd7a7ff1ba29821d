#!/usr/bin/env bash
# Instructions per event of an instant and of a request record into an enabled LTTng session, through
# a tracer and from the C reference loop, counted by valgrind's callgrind. A count is the same for
# the same binary whatever else the machine is doing, so the ratio is the code's share of the gap
# that trace-bench times, apart from the machine's speed that day.
#
# Each path runs alone (`trace-bench --alone`) with 20 and with 40 timed bursts of 8,192 events;
# the difference of the two counts over the 163,840 events between them is the count per event, with
# the process's start, the LTTng session and the untimed first burst taken out.
#
# Under valgrind, which has no rseq, LTTng-UST asks sched_getcpu for the CPU, and glibc picks its
# string functions for valgrind's CPU: the same for C and Swift, so the difference per event is the
# Swift path's own; the ratio may differ a little from a native count.
#
# Usage: benchmarks/instructions.sh     (valgrind and binutils' strip; about a minute)
#        TRACE_BENCH=/path/to/trace-bench benchmarks/instructions.sh   # count another build
set -euo pipefail
shopt -s inherit_errexit  # a failed count inside $(...) ends the script
cd "$(dirname "$0")/.."
source benchmarks/lib/release-binary.sh
bench=$(release_binary trace-bench TRACE_BENCH)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Valgrind 3.19 cannot read the DWARF of Swift 6.3's binaries: count a copy without it.
cp "$bench" "$work/trace-bench"
strip --strip-debug "$work/trace-bench"
count() {  # count PATH EVENTS: instructions of one run
    if ! valgrind --tool=callgrind --callgrind-out-file="$work/out" \
        "$work/trace-bench" --alone "$1" --events "$2" >"$work/log" 2>&1; then
        tail -5 "$work/log" >&2
        exit 1
    fi
    sed -n 's/^summary: //p' "$work/out"
}
per_event() {  # per_event PATH: instructions per event
    local short long
    short=$(count "$1" $((20 * 8192)))
    long=$(count "$1" $((40 * 8192)))
    echo $(((long - short) / (20 * 8192)))
}
printf '%-20s %14s\n' path "instr/event"
for pair in "c.lttng.enabled emit.lttng.enabled" "c.lttng.request emit.lttng.request"; do
    read -r c swift <<<"$pair"
    c_count=$(per_event "$c")
    swift_count=$(per_event "$swift")
    printf '%-20s %14d\n' "$c" "$c_count"
    awk -v path="$swift" -v swift="$swift_count" -v c="$c_count" \
        'BEGIN { printf "%-20s %14d   %.3fx the C loop, %d more\n", path, swift, swift / c, swift - c }'
done
