#!/usr/bin/env bash
# trace-report redact on a large JSON Lines file against trace-bench's in-process redact.text and
# redact.jsonl, measured in the same run: the command's MB/s (wall and CPU) and its peak memory,
# with the format named and detected, on trace-bench's own redact.jsonl corpus.
#
# Usage: benchmarks/redact-command.sh [MB]        # default 100
#        TRACE_REPORT=… TRACE_BENCH=… benchmarks/redact-command.sh   # measure other builds
# The last lines are the table: "| what … | MB/s (wall) | MB/s (CPU) | peak memory |". CPU is user +
# system time, as trace-bench's figures are thread CPU time: on the shared machine wall-clock time
# mostly measures the other jobs.
set -euo pipefail
cd "$(dirname "$0")/.."
megabytes=${1:-100}
source benchmarks/lib/release-binary.sh
report=$(release_binary trace-report TRACE_REPORT)
bench=$(release_binary trace-bench TRACE_BENCH)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The corpus first, then the in-process figures, from the same process.
"$bench" --redaction --corpus "$work/in.jsonl" "$megabytes" --json >"$work/bench.json"
bytes=$(stat -c %s "$work/in.jsonl")

# One timed run of the command, its output to $out: MB/s wall, MB/s of user+system time, peak MB.
out=/dev/null
run() {
    /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$report" redact "$@" "$work/in.jsonl" \
        >"$out" 2>"$work/err"
    read -r wall user system peak <"$work/time"
    python3 - "$bytes" "$wall" "$user" "$system" "$peak" <<'PYTHON'
import sys
size, wall, user, system, peak = (float(v) for v in sys.argv[1:])
print(f"{size / 1e6 / max(wall, 1e-6):.0f} {size / 1e6 / max(user + system, 1e-6):.0f} {peak / 1024:.0f}")
PYTHON
}
# One untimed run first: the first run of a fresh binary also pays for loading it and its libraries.
run >/dev/null
named=$(run --input-format jsonl)
detected=$(run)
out="$work/out.jsonl"
to_file=$(run --input-format jsonl)
lines_out=$(wc -l <"$work/out.jsonl")
summary=$(cat "$work/err")

python3 - "$work/bench.json" "$megabytes" "$named" "$detected" "$to_file" "$lines_out" "$summary" <<'PYTHON'
import json, sys
rows = {row["metric"]: row["value"] for row in json.load(open(sys.argv[1]))}
megabytes, lines, summary = sys.argv[2], sys.argv[6], sys.argv[7]
named, detected, to_file = (sys.argv[k].split() for k in (3, 4, 5))
print(f"input: {megabytes} MB of trace-bench's redact.jsonl corpus, {lines} lines; {summary}")
print("| what (to /dev/null unless said) | MB/s (wall) | MB/s (CPU) | peak memory |")
print("| --- | --- | --- | --- |")
print(f"| `trace-report redact --input-format jsonl` | {named[0]} | {named[1]} | {named[2]} MB |")
print(f"| `trace-report redact` (detected) | {detected[0]} | {detected[1]} | {detected[2]} MB |")
print(f"| `trace-report redact --input-format jsonl` to a file | {to_file[0]} | {to_file[1]} | {to_file[2]} MB |")
print(f"| trace-bench `redact.jsonl` (in process, same run) | — | {rows['redact.jsonl']:.0f} | — |")
print(f"| trace-bench `redact.text` (in process, same run) | — | {rows['redact.text']:.0f} | — |")
PYTHON
