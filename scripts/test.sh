#!/usr/bin/env bash
# The test command: installs what the tests need on a fresh machine, then runs every test.
# Tests start what they use themselves (lttng-sessiond, the llama.cpp server) and stop it by PID.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
scripts/model-server.sh build
swift build --build-tests 2>&1 | tee /tmp/sessiontrace-build.log | grep -E "warning:|error:" && {
    echo "test.sh: the build has warnings or errors (see above)"; exit 1; } || true
# The pure modules (no process started, no wall time measured) run in parallel; everything else
# one test at a time: the real-model suites each start a llama.cpp server, and timing tests
# (time to first token, timeouts, cancellation) measure wall time, which parallel suites on a
# 2-core machine would distort. Arguments (such as --filter) go to one serial run of their own.
# Line-buffered, so a log shows how far the run got.
if [ $# -gt 0 ]; then
    stdbuf -oL -eL swift test --no-parallel "$@"
    exit
fi
pure='^(RedactionTests|SessionTraceTests)\.'
stdbuf -oL -eL swift test --parallel --filter "$pure"
stdbuf -oL -eL swift test --no-parallel --skip "$pure"
