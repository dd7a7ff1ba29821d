#!/usr/bin/env bash
# Where the kernel runs the store's writer threads while trace-bench's caller records into the
# store: the scheduler events of `trace-bench --only combined`, read back from `perf record`.
#
# Prints, for the caller (the process's main thread):
# - how many times it woke another thread of its own (a store's writer) and how many of those
#   wakeups queued that thread on the caller's own core;
# - how many times such a thread then switched the caller out while it could still run, for how
#   long in all, and how many of those times another core was idle.
#
# Usage: benchmarks/writer-placement.sh     (root, or perf_event_paranoid <= -1, for sched events)
#        TRACE_BENCH=/path/to/trace-bench benchmarks/writer-placement.sh   # measure another build
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/lib/release-binary.sh
bench=$(release_binary trace-bench TRACE_BENCH)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
perf record -q -a -e sched:sched_switch,sched:sched_wakeup -o "$work/perf.data" \
    "$bench" --only combined >"$work/bench.txt" 2>&1
grep -E "^emit.lttng\+store" "$work/bench.txt"
perf script -i "$work/perf.data" -F pid,tid,cpu,time,event,trace 2>/dev/null >"$work/sched.txt"
python3 - "$work/sched.txt" "$(basename "$bench")" <<'PYTHON'
import re, sys
path, name = sys.argv[1], sys.argv[2][:15]
line_re = re.compile(r"\s*(\d+)/(\d+)\s+\[(\d+)\]\s+([\d.]+):\s+sched:(\w+):\s+(.*)")
events = []
main = None
for line in open(path, errors="replace"):
    m = line_re.match(line)
    if not m:
        continue
    pid, tid, cpu, time, event, trace = int(m[1]), int(m[2]), int(m[3]), float(m[4]), m[5], m[6]
    fields = dict(re.findall(r"(\w+)=(\S+)", trace))
    events.append((pid, tid, cpu, time, event, fields))
    if event == "sched_switch" and fields.get("prev_comm") == name and main is None and pid == tid:
        main = pid
if main is None:
    sys.exit(f"no scheduler events of {name} in the trace")
own = {tid for pid, tid, *_ in events if pid == main}   # the threads of the bench's process
current = {}                                            # cpu -> the task running on it
wakeups = same_core = 0
switched_out = idle_elsewhere = 0
out_since = None
out_total = 0.0
for pid, tid, cpu, time, event, f in events:
    if event == "sched_wakeup" and tid == main and int(f["pid"]) in own and int(f["pid"]) != main:
        wakeups += 1
        same_core += int(f["target_cpu"]) == cpu
    elif event == "sched_switch":
        prev, nxt = int(f["prev_pid"]), int(f["next_pid"])
        if prev == main and f["prev_state"].startswith("R") and nxt in own:
            switched_out += 1
            out_since = time
            idle_elsewhere += any(c != cpu and task == 0 for c, task in current.items())
        if nxt == main and out_since is not None:
            out_total += time - out_since
            out_since = None
        current[cpu] = nxt
print(f"the caller woke a thread of its own {wakeups} times; {same_core} of them queued it on the caller's core")
print(f"a thread of its own switched the caller out {switched_out} times, {out_total * 1000:.1f} ms in all; "
      f"another core was idle at {idle_elsewhere} of them")
PYTHON
