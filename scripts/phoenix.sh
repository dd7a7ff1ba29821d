#!/usr/bin/env bash
# Arize Phoenix, the OTLP back end the push test sends to: from PyPI, in a virtualenv of its own,
# on loopback, started and stopped by PID.
#
#   scripts/phoenix.sh install        # make the virtualenv and install arize-phoenix (once)
#   scripts/phoenix.sh start DIR      # start Phoenix on a free loopback port, state in DIR;
#                                     # prints the port when Phoenix answers
#   scripts/phoenix.sh stop DIR       # stop the Phoenix started with DIR, by its PID
#
# PHOENIX_VENV (default ~/.cache/sessiontrace/phoenix-venv) is the virtualenv.
set -euo pipefail
venv=${PHOENIX_VENV:-$HOME/.cache/sessiontrace/phoenix-venv}
version=20.26.1

case "${1:-}" in
install)
    if ! "$venv/bin/python" -c 'import phoenix' 2>/dev/null; then
        python3 -m venv "$venv"
        "$venv/bin/pip" install -q "arize-phoenix==$version"
    fi
    echo "phoenix: arize-phoenix $version in $venv"
    ;;
start)
    dir=${2:?usage: phoenix.sh start DIR}
    [ -x "$venv/bin/phoenix" ] || { echo "phoenix: not installed; run phoenix.sh install" >&2; exit 1; }
    mkdir -p "$dir"
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    grpc=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    # Phoenix starts with no signal blocked: a caller may hand its children SIGTERM blocked
    # (a Swift test process does), and stop needs SIGTERM to end Phoenix cleanly.
    clean_start='import os, signal, sys
signal.pthread_sigmask(signal.SIG_SETMASK, [])
os.execv(sys.argv[1], sys.argv[1:])'
    (
        # Close what the caller handed down beyond stdin, stdout and stderr: a caller that waits
        # for its child through a descriptor (Foundation's Process does) would wait for Phoenix.
        for fd in $(ls "/proc/$BASHPID/fd"); do [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done 2>/dev/null
        PHOENIX_WORKING_DIR="$dir" PHOENIX_HOST=127.0.0.1 PHOENIX_PORT=$port PHOENIX_GRPC_PORT=$grpc \
            PHOENIX_TELEMETRY_ENABLED=false DO_NOT_TRACK=1 \
            exec setsid "$venv/bin/python" -c "$clean_start" "$venv/bin/phoenix" serve \
            </dev/null >"$dir/phoenix.log" 2>&1
    ) &
    echo $! >"$dir/phoenix.pid"
    for _ in $(seq 1 240); do
        if curl -fsS -o /dev/null "http://127.0.0.1:$port/healthz" 2>/dev/null; then
            echo "$port" >"$dir/phoenix.port"
            echo "$port"
            exit 0
        fi
        kill -0 "$(cat "$dir/phoenix.pid")" 2>/dev/null || { tail -20 "$dir/phoenix.log" >&2; exit 1; }
        sleep 0.5
    done
    echo "phoenix: no answer on port $port after 120 s" >&2
    tail -20 "$dir/phoenix.log" >&2
    exit 1
    ;;
stop)
    dir=${2:?usage: phoenix.sh stop DIR}
    [ -f "$dir/phoenix.pid" ] || exit 0
    pid=$(cat "$dir/phoenix.pid")
    # setsid made Phoenix the leader of its own process group: end that group only.
    kill -TERM -- "-$pid" 2>/dev/null || true
    for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    kill -KILL -- "-$pid" 2>/dev/null || true
    rm -f "$dir/phoenix.pid" "$dir/phoenix.port"
    ;;
*)
    echo "usage: phoenix.sh install | start DIR | stop DIR" >&2
    exit 2
    ;;
esac
