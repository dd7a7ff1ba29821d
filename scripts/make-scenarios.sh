#!/bin/sh
# Regenerates the scenario stores in tracefiles/scenarios through the real LanguageModelSession,
# TracingMiddleware and StoreSink, with the scripted model server of Tests/ScenarioSupport (the
# make-scenarios tool, built from Tests/, not shipped). Run from anywhere, then commit the stores.
# Run ids are random, so the files differ byte for byte on each run; their rows and findings do
# not, and Tests/TraceAnalysisTests/ScenarioTests checks both the checked-in and a fresh copy.
set -eu
cd "$(dirname "$0")/.."
swift build --product make-scenarios
rm -f tracefiles/scenarios/*.sqlite
.build/debug/make-scenarios tracefiles/scenarios
