"""The client side of benchmarks/proxy-overhead.sh, on httpx2 (the HTTP client of the openai SDK this project pins).

  python proxy_overhead.py latency DIRECT_BASE PROXY_BASE PAIRS MODEL
  python proxy_overhead.py concurrent PROXY_BASE STREAMS
  python proxy_overhead.py passthrough DIRECT_BASE PROXY_BASE PAIRS

latency: PAIRS pairs of the same streamed chat completion, one straight to the server and one
through the proxy, in alternating order; prints the median time to first content delta and total
time of each path and the median of the paired differences, in milliseconds.
passthrough: PAIRS pairs of GET /v1/models (passed through, not recorded), each on a fresh client
connection, in alternating order; the median of each path and of the paired differences, in ms.
concurrent: STREAMS streams of the scripted upstream's "scripted-many" at once through the proxy;
prints how many arrived whole (200 content deltas and [DONE]) and the wall time.
"""
import json
import statistics
import sys
import threading
import time

import httpx2 as httpx


def stream_once(client, base, model, max_tokens):
    body = {"model": model, "max_tokens": max_tokens, "stream": True, "temperature": 0,
            "messages": [{"role": "user", "content": "Count to five."}]}
    start = time.perf_counter()
    first, deltas, done = None, 0, False
    with client.stream("POST", base + "/v1/chat/completions", json=body) as response:
        for line in response.iter_lines():
            if not line.startswith("data: "):
                continue
            if line == "data: [DONE]":
                done = True
                continue
            event = json.loads(line[6:])
            for choice in event.get("choices") or []:
                if (choice.get("delta") or {}).get("content"):
                    deltas += 1
                    if first is None:
                        first = time.perf_counter()
    end = time.perf_counter()
    return (first - start) * 1e3 if first else None, (end - start) * 1e3, deltas, done


def fresh(base, model):
    """One request on a connection of its own: llama.cpp's server closes a connection after a
    stream, so neither path reuses one (the proxy opens its own upstream connection per request)."""
    with httpx.Client(timeout=60) as client:
        return stream_once(client, base, model, 8)


def latency(direct, proxy, pairs, model):
    for base in (direct, proxy):  # warm up both paths and the server's prompt cache
        fresh(base, model)
    rows = {direct: [], proxy: []}
    for index in range(pairs):
        order = (direct, proxy) if index % 2 == 0 else (proxy, direct)
        for base in order:
            ttft, total, _, _ = fresh(base, model)
            rows[base].append((ttft, total))
    def median(base, column):
        return statistics.median(row[column] for row in rows[base])
    added_ttft = statistics.median(p[0] - d[0] for d, p in zip(rows[direct], rows[proxy]))
    added_total = statistics.median(p[1] - d[1] for d, p in zip(rows[direct], rows[proxy]))
    print(json.dumps({"pairs": pairs,
                      "direct_ttft_ms": round(median(direct, 0), 3), "proxy_ttft_ms": round(median(proxy, 0), 3),
                      "direct_total_ms": round(median(direct, 1), 3), "proxy_total_ms": round(median(proxy, 1), 3),
                      "added_ttft_ms": round(added_ttft, 3), "added_total_ms": round(added_total, 3),
                      "proxy_streaming_s": round(sum(row[1] for row in rows[proxy]) / 1e3, 3)}))


def concurrent(proxy, streams):
    results = []
    def run():
        with httpx.Client(timeout=120) as client:
            results.append(stream_once(client, proxy, "scripted-many", 0))
    threads = [threading.Thread(target=run) for _ in range(streams)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    whole = sum(1 for _, _, deltas, done in results if deltas == 200 and done)
    print(json.dumps({"streams": streams, "whole": whole, "wall_s": round(time.perf_counter() - start, 3)}))


def passthrough(direct, proxy, pairs):
    def once(base):
        with httpx.Client(timeout=30) as client:
            start = time.perf_counter()
            client.get(base + "/v1/models").read()
            return (time.perf_counter() - start) * 1e3
    for base in (direct, proxy):
        once(base)
    rows = {direct: [], proxy: []}
    for index in range(pairs):
        for base in ((direct, proxy) if index % 2 == 0 else (proxy, direct)):
            rows[base].append(once(base))
    print(json.dumps({"pairs": pairs, "direct_ms": round(statistics.median(rows[direct]), 3),
                      "proxy_ms": round(statistics.median(rows[proxy]), 3),
                      "added_ms": round(statistics.median(p - d for d, p in zip(rows[direct], rows[proxy])), 3)}))


if sys.argv[1] == "latency":
    latency(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5])
elif sys.argv[1] == "passthrough":
    passthrough(sys.argv[2], sys.argv[3], int(sys.argv[4]))
else:
    concurrent(sys.argv[2], int(sys.argv[3]))
