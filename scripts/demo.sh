#!/usr/bin/env bash
# The main job: sets up a fresh machine, runs the day-planner agent against the real model
# (SmolLM2-135M on a local llama.cpp server), records it to a store and LTTng, and reports it.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
scripts/model-server.sh build
swift build -c release --product planner-demo
swift build -c release --product trace-report
out="${SESSIONTRACE_OUT:-$PWD/build/demo}"
mkdir -p "$out"
# A fresh recording each time: the report is of this run, not of every demo run so far.
rm -rf "$out/planner.sqlite" "$out/planner.sqlite-wal" "$out/planner.sqlite-shm" "$out/lttng"
.build/release/planner-demo --store "$out/planner.sqlite" --lttng "$out/lttng" "$@"
.build/release/trace-report summary "$out/planner.sqlite"
