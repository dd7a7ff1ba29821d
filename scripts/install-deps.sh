#!/usr/bin/env bash
# Installs the Debian packages SessionTrace builds and tests against. Safe to run again.
set -euo pipefail

# chromium: the viewer tests (Tests/ViewerTests) open exports in headless Chromium.
# nodejs: `node --test viewer/tests/`, the tests of the viewer's pure modules (ViewerModuleTests).
# lttng-tools: lttng, lttng-sessiond and lttng-relayd, which the LTTng tests start and stop
# themselves (record, live --follow, many hosts); libbabeltrace2-dev: trace-report's trace reader;
# babeltrace2: the reference reader trace-bench --lttng-read measures against.
# libcurl4-openssl-dev: the model backends' HTTP transport; curl: its reference in
# benchmarks/client-cpu.sh; openssl and python3: the TLS tests make a self-signed certificate
# and serve HTTPS with it. libxml2-utils (xmllint), jq, zsh and fish: the tests read the gate's
# JUnit, the --json output and the shell completions with the programs users read them with;
# python3-venv: the virtualenvs Phoenix and the proxy tests' SDKs are installed in.
# libmicrohttpd-dev: the recording proxy's HTTP server side (Sources/CMicroHTTPD).
packages=(liblttng-ust-dev lttng-tools babeltrace2 libbabeltrace2-dev libsqlite3-dev sqlite3 cmake chromium nodejs
    libcurl4-openssl-dev curl openssl python3 python3-venv libxml2-utils jq zsh fish libmicrohttpd-dev)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "install-deps: installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
echo "install-deps: Debian packages present"

# Arize Phoenix from PyPI, in a virtualenv of its own: the OTLP back end the push tests send to
# (Tests/TraceAnalysisTests/PhoenixPushTests). It brings the official OTLP protobuf definitions
# (opentelemetry-proto) that OTLPProtobufTests decode with.
"$(dirname "$0")/phoenix.sh" install

# The official openai, anthropic and ollama Python SDKs from PyPI, in a virtualenv of their own:
# the clients the proxy tests (Tests/ProxyTests) drive through the recording proxy.
"$(dirname "$0")/proxy-clients.sh" install
