"""One streamed chat completion on the official openai SDK without stream_options, as most agents
send it, after the same request whole (for the prompt's token count).

  python openai_stream_without_usage.py BASE_URL

Prints one JSON line: the whole request's usage, and for each streamed chunk the SDK gave, how many
choices it had and whether it carried usage.
"""
import json
import sys

from openai import OpenAI

client = OpenAI(base_url=sys.argv[1], api_key="sk-test-not-a-real-key", max_retries=0)
messages = [{"role": "user", "content": "Count from one to twenty, in words."}]

whole = client.chat.completions.create(model="smollm2", messages=messages, max_tokens=5, temperature=0)
chunks, finish = [], None
for event in client.chat.completions.create(model="smollm2", messages=messages, max_tokens=5, temperature=0,
                                            stream=True):
    chunks.append({"choices": len(event.choices), "usage": event.usage is not None})
    for choice in event.choices:
        finish = choice.finish_reason or finish
print(json.dumps({"whole": {"input_tokens": whole.usage.prompt_tokens, "output_tokens": whole.usage.completion_tokens},
                  "chunks": chunks, "finish_reason": finish}))
