"""Completions on the official openai SDK's legacy API (`client.completions.create`), as a
code-completion client calls it: one whole, then one streamed with a suffix (fill in the middle),
without stream_options, as such clients send it.

  python openai_completions.py BASE_URL

Prints one JSON line: for each request what the SDK saw (text, finish reason, token counts) and
the number of streamed chunks that carried usage.
"""
import json
import sys

from openai import OpenAI

client = OpenAI(base_url=sys.argv[1], api_key="sk-test-not-a-real-key", max_retries=0)

whole = client.completions.create(model="smollm2", prompt="The three primary colours are", max_tokens=8,
                                  temperature=0)
plain = {"text": whole.choices[0].text, "finish_reason": whole.choices[0].finish_reason,
         "input_tokens": whole.usage.prompt_tokens, "output_tokens": whole.usage.completion_tokens}

text, finish, usage, chunks_with_usage = "", None, None, 0
for event in client.completions.create(model="smollm2", prompt="def add(a, b):\n    return",
                                       suffix="\n\nprint(add(1, 2))\n", max_tokens=8, temperature=0,
                                       stream=True):
    for choice in event.choices:
        text += choice.text or ""
        finish = choice.finish_reason or finish
    if event.usage:
        usage = event.usage
        chunks_with_usage += 1
streamed = {"text": text, "finish_reason": finish,
            "input_tokens": usage.prompt_tokens if usage else None,
            "output_tokens": usage.completion_tokens if usage else None}
print(json.dumps({"plain": plain, "streamed": streamed, "chunks_with_usage": chunks_with_usage}))
