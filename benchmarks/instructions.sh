#!/usr/bin/env bash
# Instructions per event of an instant (with no interval open, and inside one) and of a request record
# into an enabled LTTng session, through a tracer and from the C reference loop, counted by valgrind's
# callgrind. A count is the same for the same binary whatever else the machine is doing, so the ratio
# is the code's share of the gap that trace-bench times, apart from the machine's speed that day.
#
# Each path runs alone (`trace-bench --alone`) with 20 and with 40 timed bursts of 8,192 events;
# the difference of the two counts over the 163,840 events between them is the count per event, with
# the process's start, the LTTng session and the untimed first burst taken out.
#
# Under valgrind, which has no rseq, LTTng-UST asks sched_getcpu for the CPU, and glibc picks its
# string functions for valgrind's CPU: the same for C and Swift, so the difference per event is the
# Swift path's own; the ratio may differ a little from a native count.
#
# With --by-function, each pair is followed by the functions whose count differs, in instructions
# per event the tracer's path adds (+) or saves (-), from callgrind_annotate, differenced the same way.
#
# Usage: benchmarks/instructions.sh [--by-function]   (valgrind and binutils' strip; about a minute)
#        TRACE_BENCH=/path/to/trace-bench benchmarks/instructions.sh   # count another build
set -euo pipefail
shopt -s inherit_errexit  # a failed count inside $(...) ends the script
by_function=0
[ "${1:-}" = --by-function ] && by_function=1
cd "$(dirname "$0")/.."
source benchmarks/lib/release-binary.sh
bench=$(release_binary trace-bench TRACE_BENCH)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Valgrind 3.19 cannot read the DWARF of Swift 6.3's binaries: count a copy without it.
cp "$bench" "$work/trace-bench"
strip --strip-debug "$work/trace-bench"
burst=8192 short=20 long=40  # timed bursts of trace-bench's size in the two runs of a path
count() {  # count PATH BURSTS: one run under callgrind, its profile kept as $work/PATH.BURSTS
    if ! valgrind --tool=callgrind --callgrind-out-file="$work/$1.$2" \
        "$work/trace-bench" --alone "$1" --events $(($2 * burst)) >"$work/log" 2>&1; then
        tail -5 "$work/log" >&2
        exit 1
    fi
}
per_event() {  # per_event PATH: instructions per event, from its two runs
    count "$1" $short
    count "$1" $long
    local a b
    a=$(sed -n 's/^summary: //p' "$work/$1.$short")
    b=$(sed -n 's/^summary: //p' "$work/$1.$long")
    echo $(((b - a) / ((long - short) * burst)))
}
by_function() {  # by_function C SWIFT: per function, instructions per event the tracer's path adds
    for f in "$1.$short" "$1.$long" "$2.$short" "$2.$long"; do
        callgrind_annotate --threshold=100 "$work/$f" >"$work/$f.txt"
    done
    local events=$((burst * (long - short)))
    python3 - "$work" "$1" "$2" $short $long $events <<'PYTHON' | swift-demangle --simplified
import re, sys
work, c, swift, short, long, events = sys.argv[1:]
def per_event(path):
    counts = []
    for bursts in (short, long):
        rows = {}
        for line in open(f"{work}/{path}.{bursts}.txt"):
            m = re.match(r"\s*([\d,]+)\s+\([^)]*\)\s+(?:[^\s:]*:)?(\S+) \[(.*)\]$", line)
            if m and "PROGRAM TOTALS" not in line:
                key = f"{m.group(2)}  ({m.group(3).rsplit('/', 1)[-1]})"
                rows[key] = rows.get(key, 0) + int(m.group(1).replace(",", ""))
        counts.append(rows)
    return {k: (counts[1].get(k, 0) - counts[0].get(k, 0)) / int(events) for k in counts[1]}
a, b = per_event(c), per_event(swift)
added = {k: b.get(k, 0) - a.get(k, 0) for k in set(a) | set(b)}
for key, value in sorted(added.items(), key=lambda kv: -abs(kv[1])):
    if abs(value) >= 1:
        print(f"    {value:+7.0f}  {key}")
PYTHON
}
printf '%-20s %14s\n' path "instr/event"
previous_c=
for pair in "c.lttng.enabled emit.lttng.enabled" "c.lttng.enabled emit.lttng.nested" \
    "c.lttng.request emit.lttng.request"; do
    read -r c swift <<<"$pair"
    if [ "$c" != "$previous_c" ]; then  # a C loop shared by two pairs is counted once
        c_count=$(per_event "$c")
        printf '%-20s %14d\n' "$c" "$c_count"
        previous_c=$c
    fi
    swift_count=$(per_event "$swift")
    awk -v path="$swift" -v swift="$swift_count" -v c="$c_count" \
        'BEGIN { printf "%-20s %14d   %.3fx the C loop, %d more\n", path, swift, swift / c, swift - c }'
    if [ "$by_function" = 1 ]; then by_function "$c" "$swift"; fi
done
