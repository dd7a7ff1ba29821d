#!/bin/sh
# Regenerates the scenario stores in tracefiles/scenarios through the real Tracer and StoreSink
# (trace-report's hidden make-scenarios subcommand). Run from anywhere, then commit the stores.
# The stores differ byte for byte on each run (run ids are random); their findings do not, and
# Tests/TraceAnalysisTests/ScenarioTests checks both the checked-in and a fresh copy.
set -eu
cd "$(dirname "$0")/.."
swift build --product trace-report
mkdir -p tracefiles/scenarios
.build/debug/trace-report make-scenarios tracefiles/scenarios
