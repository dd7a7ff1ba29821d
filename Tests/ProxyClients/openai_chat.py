"""Chat turns on the official openai SDK, one whole and one streamed, as a user would write them.

  python openai_chat.py BASE_URL

Prints one JSON line: for each request what the SDK saw (text, finish reason, token counts) and,
for the streamed one, its own time to first token, from the call to the first content delta.
A streamed request of its own comes between the two, so that the SDK's first stream (its lazy
imports, tens of milliseconds) is not the one timed.
"""
import json
import sys
import time

from openai import OpenAI

client = OpenAI(base_url=sys.argv[1], api_key="sk-test-not-a-real-key", max_retries=0)
messages = [{"role": "system", "content": "You are brief."}, {"role": "user", "content": "Name a colour."}]

whole = client.chat.completions.create(model="smollm2", messages=messages, max_tokens=12, temperature=0)
plain = {"text": whole.choices[0].message.content, "finish_reason": whole.choices[0].finish_reason,
         "input_tokens": whole.usage.prompt_tokens, "output_tokens": whole.usage.completion_tokens}

for _ in client.chat.completions.create(model="smollm2", messages=[{"role": "user", "content": "Warm up."}],
                                       max_tokens=2, stream=True):
    pass

messages += [{"role": "assistant", "content": plain["text"]}, {"role": "user", "content": "Another one."}]
text, finish, usage, first = "", None, None, None
start = time.perf_counter()
for event in client.chat.completions.create(model="smollm2", messages=messages, max_tokens=16, temperature=0,
                                            stream=True, stream_options={"include_usage": True}):
    for choice in event.choices:
        if choice.delta.content and first is None:
            first = time.perf_counter()
        text += choice.delta.content or ""
        finish = choice.finish_reason or finish
    if event.usage:
        usage = event.usage
streamed = {"text": text, "finish_reason": finish, "input_tokens": usage.prompt_tokens,
            "output_tokens": usage.completion_tokens,
            "ttft_ns": int((first - start) * 1e9) if first is not None else None}
print(json.dumps({"plain": plain, "streamed": streamed}))
