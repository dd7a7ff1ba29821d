#!/usr/bin/env bash
# CPU that planner-demo itself uses while it streams a full run from a model server started apart
# from it, so the server's own CPU is not counted: user and system seconds against wall time. The
# reference, measured in the same run: the curl CLI streaming the very same requests (recorded on
# the way by a loopback relay) from the same server. With --strace, the system calls behind the
# client's figure instead.
#
# Usage: benchmarks/client-cpu.sh [--strace]
#        PLANNER_DEMO=/path/to/planner-demo benchmarks/client-cpu.sh   # measure another build
# The last line is the client's figure: "... N% of one core".
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/lib/release-binary.sh
demo_binary=$(release_binary planner-demo PLANNER_DEMO)
eval "$(scripts/model-server.sh paths)"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
work=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT
"$SERVER" -m "$MODEL" --host 127.0.0.1 --port "$port" -c 4096 -np 1 -t 2 --cache-prompt --cache-reuse 256 \
    --jinja --no-webui >"$work/server.log" 2>&1 &
pids+=($!)
for _ in $(seq 120); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.5; done

# The relay passes each request through to the server unchanged but for "Connection: close", and
# keeps its path and body as $work/requests/NNN.{path,json}. It stops after an idle hour at most.
mkdir "$work/requests"
cat >"$work/relay.py" <<'PYTHON'
import socket, sys
upstream_port, folder, port_file = int(sys.argv[1]), sys.argv[2], sys.argv[3]
listener = socket.create_server(("127.0.0.1", 0))
listener.settimeout(3600)
with open(port_file, "w") as f:
    f.write(str(listener.getsockname()[1]))
count = 0
while True:
    client, _ = listener.accept()
    try:
        data = b""
        while b"\r\n\r\n" not in data and (chunk := client.recv(65536)):
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        length = next((int(l.split(b":")[1]) for l in lines if l.lower().startswith(b"content-length:")), 0)
        while len(body) < length and (chunk := client.recv(65536)):
            body += chunk
        if not head:
            continue
        count += 1
        with open(f"{folder}/{count:03d}.path", "wb") as f:
            f.write(lines[0].split(b" ")[1])
        with open(f"{folder}/{count:03d}.json", "wb") as f:
            f.write(body)
        kept = [l for l in lines if not l.lower().startswith(b"connection:")] + [b"Connection: close"]
        with socket.create_connection(("127.0.0.1", upstream_port)) as upstream:
            upstream.sendall(b"\r\n".join(kept) + b"\r\n\r\n" + body)
            while chunk := upstream.recv(65536):
                client.sendall(chunk)
    except OSError:
        pass  # the client went away; the next request starts afresh
    finally:
        client.close()
PYTHON
python3 "$work/relay.py" "$port" "$work/requests" "$work/relay.port" &
pids+=($!)
for _ in $(seq 50); do [ -s "$work/relay.port" ] && break; sleep 0.1; done

demo=("$demo_binary" --server "http://127.0.0.1:$(cat "$work/relay.port")" --store "$work/run.sqlite")
if [ "${1:-}" = --strace ]; then
    strace -f -c -o "$work/strace.txt" "${demo[@]}" >/dev/null
    head -12 "$work/strace.txt"
    exit 0
fi
figure='wall %e s, user %U s, system %S s'
/usr/bin/time -o "$work/client.time" -f "$figure" "${demo[@]}" >/dev/null

# The reference: one curl process streams the recorded requests in order, as the client did.
arguments=()
for body in "$work"/requests/*.json; do
    [ ${#arguments[@]} -gt 0 ] && arguments+=(--next)
    arguments+=(-sS -N -o /dev/null -H "Content-Type: application/json" -H "Accept: text/event-stream"
        --data-binary "@$body" "http://127.0.0.1:$port$(cat "${body%.json}.path")")
done
/usr/bin/time -o "$work/curl.time" -f "$figure" curl "${arguments[@]}"

share() { awk '{ printf "%.2f", ($5 + $8) / $2 * 100 }' "$1"; }
requests=$(find "$work/requests" -name '*.json' | wc -l)
median=$(sqlite3 "$work/run.sqlite" \
    "SELECT dur / 1e6 FROM request ORDER BY dur LIMIT 1 OFFSET (SELECT (count(*) - 1) / 2 FROM request)")
echo "curl, the same $requests requests (reference): $(cat "$work/curl.time"), $(share "$work/curl.time")% of one core"
echo "planner-demo: $requests requests, median request latency $(printf '%.0f' "$median") ms"
echo "planner-demo: $(cat "$work/client.time"), $(share "$work/client.time")% of one core"
