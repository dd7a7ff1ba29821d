#!/usr/bin/env bash
# What the recording proxy (trace-proxy) adds: time to first token and total time of the same
# streamed request through the proxy and straight to the upstream, interleaved in one run, against
# the scripted upstream (fixed timing, so the proxy's own cost shows through) and the real
# llama.cpp server; the proxy's CPU per stream; and 64 streams at once through it (from the scripted upstream,
# which serves many at once where llama.cpp -np 1 would queue them), all whole, with its CPU and
# peak memory. Clients are httpx2, the openai SDK's HTTP client, from scripts/proxy-clients.sh.
#
# Usage: benchmarks/proxy-overhead.sh [PAIRS]        # 40 pairs against llama.cpp, 5× as many scripted
#        TRACE_PROXY=/path/to/trace-proxy LLAMA_THREADS=2 benchmarks/proxy-overhead.sh
set -euo pipefail
cd "$(dirname "$0")/.."
pairs=${1:-40}
source benchmarks/lib/release-binary.sh
proxy_binary=$(release_binary trace-proxy TRACE_PROXY)
python=$(scripts/proxy-clients.sh python)
eval "$(scripts/model-server.sh paths)"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
work=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT

server_port=$(free_port)
# llama.cpp on one thread by default, so that a core is left for the client and the proxy: on a
# 2-core machine a server on both cores makes every relayed chunk wait for one (LLAMA_THREADS=2 to see it).
"$SERVER" -m "$MODEL" --host 127.0.0.1 --port "$server_port" -c 4096 -np 1 -t "${LLAMA_THREADS:-1}" --cache-prompt \
    --jinja --no-webui >"$work/server.log" 2>&1 &
pids+=($!)
for _ in $(seq 120); do curl -sf "http://127.0.0.1:$server_port/health" >/dev/null && break; sleep 0.5; done
"$python" Tests/ProxyClients/scripted_upstream.py >"$work/scripted.out" &
pids+=($!)
for _ in $(seq 100); do grep -q '^port ' "$work/scripted.out" 2>/dev/null && break; sleep 0.1; done
scripted_port=$(sed -n 's/^port //p' "$work/scripted.out")

# The proxy's user+system CPU seconds so far, from /proc.
cpu_seconds() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.3f", ($14 + $15) / hz }' "/proc/$1/stat"; }
start_proxy() { # upstream store -> sets proxy_pid, proxy_port
    proxy_port=$(free_port)
    "$proxy_binary" --upstream "$1" --store "$2" --listen "127.0.0.1:$proxy_port" >"$work/proxy.out" 2>&1 &
    proxy_pid=$!
    pids+=($proxy_pid)
    for _ in $(seq 100); do grep -q listening "$work/proxy.out" 2>/dev/null && break; sleep 0.05; done
}

# latency NAME UPSTREAM MODEL PAIRS: the interleaved pairs, the proxy's CPU per stream, what it recorded.
latency() {
    echo "== latency: $4 interleaved pairs, streamed, $1 =="
    start_proxy "$2" "$work/latency-$1.sqlite"
    local before after result streaming
    before=$(cpu_seconds "$proxy_pid")
    result=$("$python" benchmarks/lib/proxy_overhead.py latency "$2" "http://127.0.0.1:$proxy_port" "$4" "$3")
    after=$(cpu_seconds "$proxy_pid")
    echo "$result"
    streaming=$(echo "$result" | python3 -c 'import json,sys; print(json.load(sys.stdin)["proxy_streaming_s"])')
    echo "proxy CPU while streaming: $(python3 -c "print(f'{100 * ($after - $before) / $streaming:.2f}')")% of one core" \
        "per stream (CPU $(python3 -c "print(round($after - $before, 3))") s over $streaming s of streams)"
    kill "$proxy_pid"; wait "$proxy_pid" || true
    echo "requests recorded: $(sqlite3 "$work/latency-$1.sqlite" 'select count(*) from request')" \
        "(errors: $(sqlite3 "$work/latency-$1.sqlite" 'select count(*) from request where error is not null'))"
}
latency scripted "http://127.0.0.1:$scripted_port" scripted-bytes $((pairs * 5))
latency llama.cpp "http://127.0.0.1:$server_port" smollm2 "$pairs"

echo "== pass-through: $((pairs * 5)) interleaved pairs of GET /v1/models, scripted upstream (kept connections) =="
start_proxy "http://127.0.0.1:$scripted_port" "$work/passthrough.sqlite"
"$python" benchmarks/lib/proxy_overhead.py passthrough "http://127.0.0.1:$scripted_port" \
    "http://127.0.0.1:$proxy_port" $((pairs * 5))
kill "$proxy_pid"; wait "$proxy_pid" || true
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

echo "== 64 concurrent streams, 200 deltas each at 10 ms, scripted upstream =="
start_proxy "http://127.0.0.1:$scripted_port" "$work/concurrent.sqlite"
rss_before=$(awk '/VmRSS/ { print $2 }' "/proc/$proxy_pid/status")
before=$(cpu_seconds "$proxy_pid")
concurrent=$("$python" benchmarks/lib/proxy_overhead.py concurrent "http://127.0.0.1:$proxy_port" 64)
after=$(cpu_seconds "$proxy_pid")
peak=$(awk '/VmHWM/ { print $2 }' "/proc/$proxy_pid/status")
echo "$concurrent"
wall=$(echo "$concurrent" | python3 -c 'import json,sys; print(json.load(sys.stdin)["wall_s"])')
echo "proxy CPU: $(python3 -c "print(round($after - $before, 3))") s over ${wall} s wall for 64 streams" \
    "= $(python3 -c "print(f'{100 * ($after - $before) / ($wall * 64):.2f}')")% of one core per stream"
echo "proxy memory: ${rss_before} kB resident before, ${peak} kB peak"
kill "$proxy_pid"; wait "$proxy_pid" || true
echo "requests recorded: $(sqlite3 "$work/concurrent.sqlite" 'select count(*) from request') (errors: $(sqlite3 "$work/concurrent.sqlite" 'select count(*) from request where error is not null'))"
