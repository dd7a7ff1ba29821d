"""A scripted OpenAI-compatible upstream for the proxy tests: it answers as a real server would,
with behaviour chosen by the request's model name, where the real llama.cpp server cannot serve
(SmolLM2 does not emit tool_calls) or where the test needs exact bytes or a fault.

  python scripted_upstream.py                  # prints "port N" once listening on 127.0.0.1
  python scripted_upstream.py --tls CERT KEY   # the same over HTTPS

models:
  scripted-loop    calls get_weather {"city": "Paris"} until 4 results came, then answers
  scripted-clean   calls get_weather once, then answers
  scripted-bytes   a fixed event stream, written in odd pieces (split lines, CRLF, a comment)
  scripted-usage   a fixed event stream whose usage comes only in the usage-only chunk, when
                   stream_options.include_usage asks for it (and then "usage":null in every other
                   chunk, as OpenAI's API sends it); that chunk in two data lines, split
                   between CR and LF
  /v1/responses    (any model) the Responses API: calls get_weather until a function_call_output came,
                   then answers; whole or streamed. scripted-reasoning, streamed: a reasoning item's
                   summary and text deltas first, then the answer 0.6 s later
  /api/chat        Ollama's native chat API, with scripted-loop's or scripted-clean's script: tool
                   calls without ids, arguments as objects, durations in ns; streamed as JSON Lines
                   written in pieces that split lines, or whole with "stream": false
  /api/generate    Ollama's completion of one prompt: "It is sunny in Paris." as `response` lines and
                   a done line with durations and a context; whole with "stream": false
  scripted-huge    a whole (not streamed) JSON answer of 256 MiB, written 1 MiB at a time
  scripted-malformed  an event that is not JSON, then [DONE]
  scripted-stream-error  one content chunk, then an error event (OpenAI's shape; on /api/chat a content
                   line, then Ollama's {"error": ...} line), and the end of the body
  scripted-slow    one content chunk, then one every second for a minute
  scripted-many    200 content chunks, one every 10 ms (benchmarks/proxy-overhead.sh, 64 at once)
  scripted-reasoning  two reasoning_content chunks, as llama.cpp streams a thinking model's, then the
                   answer's content 0.6 s after the first, then the finish and [DONE]; whole, the
                   message with its reasoning_content
"""
import json
import signal
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# The pieces of the fixed stream, each written and flushed on its own.
BYTES_PIECES = [
    b'data: {"id":"chatcmpl-fixed","object":"chat.completion.chunk","model":"scripted-bytes",',
    b'"choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"}}]}\n\n',
    b': a comment line\r\n',
    b'data: {"id":"chatcmpl-fixed","object":"chat.completion.chunk","model":"scripted-bytes","choices":[{"index":0,"delta":{"content":"lo \xc3\xa9t\xc3\xa9"}}]}\r\n\r\n',
    b'data: {"id":"chatcmpl-fixed","object":"chat.completion.chunk","model":"scripted-bytes","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],',
    b'"usage":{"prompt_tokens":7,"completion_tokens":3,"total_tokens":10}}\n\n',
    b'data: [DONE]\n\n',
]

# The fixed stream of scripted-usage, and the usage-only chunk that include_usage adds before [DONE].
USAGE_PIECES = [
    b'data: {"id":"chatcmpl-usage","object":"chat.completion.chunk","model":"scripted-usage",',
    b'"choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"}}]}\r\n\r',
    b'\n: a comment line\r\n',
    b'data: {"id":"chatcmpl-usage","object":"chat.completion.chunk","model":"scripted-usage","choices":[{"index":0,"delta":{"content":"lo"},"finish_reason":"stop"}]}\n\n',
]
# What include_usage makes of the stream: "usage": null in every chunk, as OpenAI's API writes it.
USAGE_PIECES_ASKED = [piece.replace(b'}]}', b'}],"usage":null}') for piece in USAGE_PIECES]
USAGE_CHUNK_PIECES = [
    b'data: {"id":"chatcmpl-usage","object":"chat.completion.chunk","model":"scripted-usage",\r',
    b'\ndata: "choices":[],"usage":{"prompt_tokens":7,"completion_tokens":2,"total_tokens":9}}\r\n',
    b'\r',
    b'\n',
]


def chunk(model, delta, finish=None, usage=None):
    body = {"id": "chatcmpl-scripted", "object": "chat.completion.chunk", "created": 1, "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
    if usage is not None:
        body["usage"] = usage
    return b"data: " + json.dumps(body).encode() + b"\n\n"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    chained = 0

    def log_message(self, *args):
        pass

    def do_GET(self):
        body = json.dumps({"object": "list", "data": [{"id": "scripted-loop", "object": "model"}]}).encode()
        # The client's port: two answers with the same one came over one connection.
        self.send_json(body, {"x-upstream-connection": str(self.client_address[1])})

    def do_POST(self):
        request = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
        model = request.get("model", "")
        if self.path.rstrip("/").endswith("/messages"):
            return self.anthropic_message(request, model)
        if self.path.rstrip("/").endswith("/responses"):
            return self.responses_answer(request, model)
        if self.path.rstrip("/").endswith("/api/chat"):
            return self.ollama_chat(request, model)
        if self.path.rstrip("/").endswith("/api/generate"):
            return self.ollama_generate(request, model)
        if model == "scripted-bytes":
            return self.stream_pieces(BYTES_PIECES)
        if model == "scripted-huge":
            return self.huge_answer(256)
        if model == "scripted-usage":
            usage = (request.get("stream_options") or {}).get("include_usage")
            pieces = USAGE_PIECES_ASKED + USAGE_CHUNK_PIECES if usage else USAGE_PIECES
            return self.stream_pieces(pieces + [b"data: [DONE]\n\n"])
        if model == "scripted-stream-error":
            error = {"error": {"message": "the server is overloaded", "type": "server_error"}}
            return self.stream_pieces([chunk(model, {"role": "assistant", "content": "Hel"}),
                                       b"data: " + json.dumps(error).encode() + b"\n\n"])
        if model == "scripted-malformed":
            return self.stream_pieces([b"data: {not json\n\n", b"data: [DONE]\n\n"])
        if model == "scripted-slow":
            pieces = [chunk(model, {"content": "tick "}) for _ in range(60)]
            return self.stream_pieces(pieces, pause=1.0)
        if model == "scripted-reasoning" and not request.get("stream"):
            message = {"role": "assistant", "content": "Paris", "reasoning_content": "The user wants a city."}
            body = json.dumps({"id": "chatcmpl-scripted", "object": "chat.completion", "created": 1, "model": model,
                               "choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}).encode()
            return self.send_json(body)
        if model == "scripted-reasoning":
            pieces = [chunk(model, {"role": "assistant", "reasoning_content": "The user wants"}),
                      chunk(model, {"reasoning_content": " a city."}), b"", chunk(model, {"content": "Paris"}),
                      chunk(model, {}, "stop"), b"data: [DONE]\n\n"]
            return self.stream_pieces(pieces, pause=0.2)
        if model == "scripted-many":
            pieces = [chunk(model, {"content": "tok%d " % i}) for i in range(200)]
            return self.stream_pieces(pieces + [chunk(model, {}, "stop"), b"data: [DONE]\n\n"], pause=0.01)
        results = sum(1 for m in request.get("messages", []) if m.get("role") == "tool")
        wanted = 4 if model == "scripted-loop" else 1
        usage = {"prompt_tokens": 20 + 10 * results, "completion_tokens": 9, "total_tokens": 29 + 10 * results}
        if results < wanted:
            call = {"id": "call_%d" % results, "type": "function",
                    "function": {"name": "get_weather", "arguments": json.dumps({"city": "Paris"})}}
            message = {"role": "assistant", "content": None, "tool_calls": [call]}
            finish = "tool_calls"
        else:
            message = {"role": "assistant", "content": "It is sunny in Paris."}
            finish = "stop"
        if not request.get("stream"):
            body = json.dumps({"id": "chatcmpl-scripted", "object": "chat.completion", "created": 1, "model": model,
                               "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                               "usage": usage}).encode()
            return self.send_json(body, {"x-request-id": "req-scripted-%d" % results})
        if "tool_calls" in message:
            call = message["tool_calls"][0]
            pieces = [chunk(model, {"role": "assistant", "tool_calls": [
                          {"index": 0, "id": call["id"], "type": "function",
                           "function": {"name": "get_weather", "arguments": ""}}]}),
                      chunk(model, {"tool_calls": [{"index": 0, "function": {"arguments": call["function"]["arguments"]}}]}),
                      chunk(model, {}, finish)]
        else:
            pieces = [chunk(model, {"role": "assistant", "content": "It is sunny"}),
                      chunk(model, {"content": " in Paris."}), chunk(model, {}, finish)]
        if (request.get("stream_options") or {}).get("include_usage"):
            pieces.append(b"data: " + json.dumps({"id": "chatcmpl-scripted", "object": "chat.completion.chunk",
                                                  "model": model, "choices": [], "usage": usage}).encode() + b"\n\n")
        self.stream_pieces(pieces + [b"data: [DONE]\n\n"])

    def anthropic_message(self, request, model):
        """The Messages API, whole: the same script as the chat completions, in tool_use blocks."""
        results = sum(1 for m in request.get("messages", []) if isinstance(m.get("content"), list)
                      for block in m["content"] if block.get("type") == "tool_result")
        wanted = 4 if model == "scripted-loop" else 1
        if results < wanted:
            content = [{"type": "tool_use", "id": "toolu_%d" % results, "name": "get_weather",
                        "input": {"city": "Paris"}}]
            stop = "tool_use"
        else:
            content = [{"type": "text", "text": "It is sunny in Paris."}]
            stop = "end_turn"
        body = json.dumps({"id": "msg_scripted_%d" % results, "type": "message", "role": "assistant",
                           "model": model, "content": content, "stop_reason": stop, "stop_sequence": None,
                           "usage": {"input_tokens": 20 + 10 * results, "output_tokens": 9}}).encode()
        self.send_json(body, {"request-id": "req_scripted_%d" % results})

    def responses_answer(self, request, model):
        """The Responses API: a get_weather function call until a function_call_output came, then text."""
        items = request.get("input") if isinstance(request.get("input"), list) else []
        results = sum(1 for item in items if item.get("type") == "function_call_output")
        usage = {"input_tokens": 20 + 10 * results, "output_tokens": 9, "total_tokens": 29 + 10 * results,
                 "input_tokens_details": {"cached_tokens": 4}}
        if results < 1:
            item = {"type": "function_call", "id": "fc_0", "call_id": "call_r0", "name": "get_weather",
                    "arguments": json.dumps({"city": "Paris"}), "status": "completed"}
        else:
            item = {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
                    "content": [{"type": "output_text", "text": "It is sunny in Paris.", "annotations": []}]}
        response_id = "resp_scripted_%d" % results
        if model == "scripted-chain":  # ids of its own for each response, as a server that stores them gives
            Handler.chained += 1
            response_id = "resp_chain_%d" % Handler.chained
        response = {"id": response_id, "object": "response", "model": model, "status": "completed",
                    "output": [item], "usage": usage}
        if not request.get("stream"):
            body = json.dumps(response).encode()
            return self.send_json(body)
        def event(kind, **fields):
            return ("event: %s\ndata: %s\n\n" % (kind, json.dumps(dict(type=kind, **fields)))).encode()
        started = dict(response, status="in_progress", output=[], usage=None)
        if model == "scripted-reasoning":
            item = {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
                    "content": [{"type": "output_text", "text": "Sunny.", "annotations": []}]}
            thought = {"type": "reasoning", "id": "rs_1", "summary": []}
            response = dict(response, output=[thought, item])
            pieces = [event("response.created", response=started) + event("response.output_item.added", item=thought)
                      + event("response.reasoning_summary_text.delta", item_id="rs_1", summary_index=0, delta="Weather"),
                      event("response.reasoning_text.delta", item_id="rs_1", content_index=0, delta=" lookup."),
                      b"", b"",
                      event("response.output_item.added", item=item)
                      + event("response.output_text.delta", item_id="msg_1", delta="Sunny.")
                      + event("response.output_item.done", item=item) + event("response.completed", response=response)]
            return self.stream_pieces(pieces, pause=0.2)
        pieces = [event("response.created", response=started), event("response.output_item.added", item=item)]
        if item["type"] == "message":
            pieces += [event("response.output_text.delta", item_id="msg_1", delta="It is sunny"),
                       event("response.output_text.delta", item_id="msg_1", delta=" in Paris.")]
        else:
            pieces += [event("response.function_call_arguments.delta", item_id="fc_0", delta=item["arguments"])]
        pieces += [event("response.output_item.done", item=item), event("response.completed", response=response)]
        self.stream_pieces(pieces)

    def ollama_chat(self, request, model):
        """Ollama's /api/chat: the tool loop of the chat completions, as Ollama writes it."""
        if model == "scripted-stream-error":
            line = {"model": model, "created_at": "2026-12-06T04:00:00Z",
                    "message": {"role": "assistant", "content": "Hel"}, "done": False}
            return self.stream_pieces([json.dumps(line).encode() + b"\n", b'{"error":"the model runner stopped"}\n'],
                                      content_type="application/x-ndjson")
        results = sum(1 for m in request.get("messages", []) if m.get("role") == "tool")
        wanted = 4 if model == "scripted-loop" else 1
        created = "2026-12-06T04:00:%02d.000000Z" % results
        if results < wanted:
            messages = [{"role": "assistant", "content": "", "tool_calls": [
                {"function": {"name": "get_weather", "arguments": {"city": "Paris"}}}]}]
        else:
            messages = [{"role": "assistant", "content": "It is sunny"}, {"role": "assistant", "content": " in Paris."}]
        metrics = {"total_duration": 900000000 + results, "load_duration": 2500000, "prompt_eval_count": 20 + 10 * results,
                   "prompt_eval_duration": 40000000, "eval_count": 9, "eval_duration": 180000000}
        if request.get("stream", True) is False:
            whole = {"role": "assistant", "content": "".join(m["content"] for m in messages)}
            whole.update({k: v for m in messages for k, v in m.items() if k == "tool_calls"})
            return self.ollama_whole(dict({"model": model, "created_at": created, "message": whole, "done": True,
                                           "done_reason": "stop"}, **metrics))
        lines = [{"model": model, "created_at": created, "message": m, "done": False} for m in messages]
        lines.append(dict({"model": model, "created_at": created, "message": {"role": "assistant", "content": ""},
                           "done": True, "done_reason": "stop"}, **metrics))
        stream = b"".join(json.dumps(line).encode() + b"\n" for line in lines)
        self.stream_pieces([stream[i:i + 37] for i in range(0, len(stream), 37)], content_type="application/x-ndjson")

    def ollama_generate(self, request, model):
        """Ollama's /api/generate: the text as `response`, the last line with its durations."""
        created = "2026-12-06T04:00:00.000000Z"
        done = {"model": model, "created_at": created, "response": "", "done": True, "done_reason": "stop",
                "context": [1, 2, 3], "total_duration": 500000000, "load_duration": 1500000,
                "prompt_eval_count": 12, "prompt_eval_duration": 30000000, "eval_count": 6, "eval_duration": 90000000}
        if request.get("stream", True) is False:
            return self.ollama_whole(dict(done, response="It is sunny in Paris."))
        lines = [{"model": model, "created_at": created, "response": text, "done": False}
                 for text in ["It is", " sunny in", " Paris."]] + [done]
        self.stream_pieces([json.dumps(line).encode() + b"\n" for line in lines], content_type="application/x-ndjson")

    def ollama_whole(self, answer):
        """A whole (not streamed) Ollama answer, as Ollama sends one."""
        body = json.dumps(answer).encode()
        self.send_json(body, content_type="application/json; charset=utf-8")

    def send_json(self, body, headers={}, content_type="application/json"):
        """A whole answer: `body`, JSON bytes, with `headers` beside its length."""
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def huge_answer(self, mebibytes):
        head, tail = b'{"id":"chatcmpl-huge","object":"chat.completion","choices":[],"padding":"', b'"}'
        piece = b"a" * (1 << 20)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(head) + mebibytes * len(piece) + len(tail)))
        self.end_headers()
        self.wfile.write(head)
        for _ in range(mebibytes):
            self.wfile.write(piece)
        self.wfile.write(tail)

    def stream_pieces(self, pieces, pause=0.005, content_type="text/event-stream"):
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.flush()
        try:
            for piece in pieces:
                self.wfile.write(piece)
                self.wfile.flush()
                time.sleep(pause)
        except (BrokenPipeError, ConnectionResetError):
            # The proxy closed the transfer: what the client-disconnect test waits to see.
            print("cut %s" % self.path, flush=True)
        self.close_connection = True


if __name__ == "__main__":
    # A Swift test process hands its children SIGTERM blocked; the tests stop this server with it.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    if "--tls" in sys.argv:
        import ssl
        certificate, key = sys.argv[sys.argv.index("--tls") + 1:][:2]
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(certificate, key)
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print("port %d" % server.server_address[1], flush=True)
    server.serve_forever()
