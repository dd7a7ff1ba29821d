#!/bin/bash
# The web viewer at 100,000 requests (10 sessions of 10,000, a tool call after every 3rd request)
# against 10,000 (10 sessions of 1,000, drawn a bar per request) in the same run: the release
# build's `trace-report export --format html`, then the page in headless Chromium, RUNS (3) times
# each, with the same flags and self-test steps as Tests/ViewerTests/ViewerScaleTests.swift.
#
# Stores are generated in SQL into the real schema by benchmarks/lib/generate-store.sh.
# Figures: <body data-first-render-ms> (performance.now() at the first frame, HTML and JSON
# parsing included) and the self-test's per-step times (a `+` zoom, a wheel zoom, an arrow-key
# pan, a click with its details, then the request table shown and sorted by time to first token
# and by latency: one row per request drawn as a bar, so the 100k page's table holds only the
# requests outside its aggregate bands).
#
# Usage: benchmarks/viewer-scale.sh
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

swift build -c release --product trace-report >/dev/null
BIN=$(swift build -c release --show-bin-path)/trace-report
source benchmarks/lib/generate-store.sh

# $1 store, $2 label, $3 the click step.
measure() {
    local html=$WORK/$2.html
    local start end
    start=$(date +%s.%N)
    "$BIN" export --format html --out "$html" "$1" 2>/dev/null
    end=$(date +%s.%N)
    echo "$2: export $(echo "$end - $start" | bc) s (release), $(du -k "$html" | cut -f1) KiB"
    for _ in $(seq "$RUNS"); do
        local profile=$WORK/profile
        rm -rf "$profile"
        local dom
        dom=$(timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-extensions \
            --user-data-dir="$profile" --window-size=1400,900 --hide-scrollbars --virtual-time-budget=15000 \
            --dump-dom "file://$html#selftest=key:%2B,wheel:-300,key:ArrowRight,$3,table,sort:ttft,sort:latency" 2>/dev/null)
        echo "  first render $(grep -o 'data-first-render-ms="[^"]*"' <<<"$dom" | head -1 | cut -d'"' -f2) ms;" \
            "$(grep -o 'data-steps="[^"]*"' <<<"$dom" | head -1 | cut -d'"' -f2);" \
            "table rows $(grep -o '<section id="requests"[^>]*data-shown="[^"]*"' <<<"$dom" | head -1 | grep -o 'data-shown="[^"]*"' | cut -d'"' -f2)"
    done
}

generate_store "$WORK/ten.sqlite" 10000 10 blocks 3 0
generate_store "$WORK/hundred.sqlite" 100000 10 blocks 3 0
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
measure "$WORK/ten.sqlite" 10k click:request:5000
measure "$WORK/hundred.sqlite" 100k click:band:300
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
