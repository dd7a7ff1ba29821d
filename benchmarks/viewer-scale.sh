#!/bin/bash
# The web viewer at 100,000 requests (10 sessions of 10,000, a tool call after every 3rd request)
# against 10,000 (10 sessions of 1,000, drawn a bar per request) in the same run: the release
# build's `trace-report export --format html`, then the page in headless Chromium, RUNS (3) times
# each, with the same flags and self-test steps as Tests/ViewerTests/ViewerScaleTests.swift.
#
# Stores are generated in SQL into the real schema by benchmarks/lib/generate-store.sh.
# Figures: the release export's time and size, and <body data-first-render-ms> of its page
# (performance.now() at the first frame, HTML and JSON parsing included). The per-step times (`+`
# zooms, a wheel zoom, an arrow-key pan, a click with its details, the request table shown and
# sorted by time to first token and by latency) need the test driver, which `trace-report` never
# writes into a page: they come from ViewerScaleTests, run here, whose pages are the same viewer
# (its JavaScript does not depend on the Swift build) over stores generated the same way. The
# table holds one row per request drawn as a bar, so the 100k page's holds only the requests
# outside its aggregate bands.
#
# Usage: benchmarks/viewer-scale.sh
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

source benchmarks/lib/release-binary.sh
BIN=$(release_binary trace-report)
source benchmarks/lib/generate-store.sh

# $1 store, $2 label.
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
            --dump-dom "file://$html" 2>/dev/null)
        echo "  first render $(grep -o 'data-first-render-ms="[^"]*"' <<<"$dom" | head -1 | cut -d'"' -f2) ms;" \
            "table rows $(grep -o '<section id="requests"[^>]*data-shown="[^"]*"' <<<"$dom" | head -1 | grep -o 'data-shown="[^"]*"' | cut -d'"' -f2)"
    done
}

generate_store "$WORK/ten.sqlite" 10000 10 blocks 3 0
generate_store "$WORK/hundred.sqlite" 100000 10 blocks 3 0
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
measure "$WORK/ten.sqlite" 10k
measure "$WORK/hundred.sqlite" 100k
echo "steps (ViewerScaleTests, the same stores' shapes, each step from input to pixels):"
swift build --build-tests >/dev/null
swift test --skip-build --filter ViewerScaleTests 2>&1 | grep '^viewer scale:' | sed 's/^/  /'
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
