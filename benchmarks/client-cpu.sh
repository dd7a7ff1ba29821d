#!/usr/bin/env bash
# CPU that planner-demo itself uses while it streams from a model server started apart from it,
# so the server's own CPU is not counted: user and system seconds against wall time, and with
# --strace the system calls behind them.
#
# Usage: benchmarks/client-cpu.sh [--strace]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product planner-demo >/dev/null
eval "$(scripts/model-server.sh paths)"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
work=$(mktemp -d)
"$SERVER" -m "$MODEL" --host 127.0.0.1 --port "$port" -c 4096 -np 1 -t 2 --cache-prompt --cache-reuse 256 \
    --jinja --no-webui >"$work/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 120); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.5; done
demo=(.build/release/planner-demo --server "http://127.0.0.1:$port" --store "$work/run.sqlite")
if [ "${1:-}" = --strace ]; then
    strace -f -c -o "$work/strace.txt" "${demo[@]}" >/dev/null
    head -12 "$work/strace.txt"
else
    /usr/bin/time -f "wall %e s, user %U s, system %S s, %P of one core" "${demo[@]}" >/dev/null
fi
