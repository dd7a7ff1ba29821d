"""Two turns on the official openai SDK's Responses API, one whole and one streamed, the second
sending the first's answer back as input items, as a stateless agent does.

  python openai_responses.py BASE_URL

Prints one JSON line: for each turn the response's id, status and usage as the SDK read them.
"""
import json
import sys

from openai import OpenAI

client = OpenAI(base_url=sys.argv[1], api_key="sk-test-not-a-real-key", max_retries=0)
items = [{"type": "message", "role": "user", "content": "Name a colour."}]


def seen(response):
    return {"id": response.id, "status": response.status, "input_tokens": response.usage.input_tokens,
            "output_tokens": response.usage.output_tokens}


whole = client.responses.create(model="smollm2", input=items, max_output_tokens=6, temperature=0, store=False)
items += [{"type": "message", "role": "assistant", "content": whole.output_text},
          {"type": "message", "role": "user", "content": "Another one."}]
completed = None
for event in client.responses.create(model="smollm2", input=items, max_output_tokens=6, temperature=0,
                                     store=False, stream=True):
    if event.type == "response.completed":
        completed = event.response
print(json.dumps({"whole": seen(whole), "streamed": seen(completed)}))
