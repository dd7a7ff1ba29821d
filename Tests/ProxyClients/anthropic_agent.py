"""A tool-using agent on the official anthropic SDK, written as a user would write it.

  python anthropic_agent.py BASE_URL MODEL

It loops: ask the model, run each tool_use block, send the tool_result blocks back, until the
model answers. Prints one JSON line: for each request what the SDK saw.
"""
import json
import sys

import anthropic


def get_weather(city):
    return "Sunny, 21 degrees in %s." % city


TOOLS = [{"name": "get_weather", "description": "The weather in a city.",
          "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}]

client = anthropic.Anthropic(base_url=sys.argv[1], api_key="sk-ant-test-not-a-real-key", max_retries=0)
messages = [{"role": "user", "content": "What is the weather in Paris?"}]
seen = []
for _ in range(10):
    response = client.messages.create(model=sys.argv[2], max_tokens=64, tools=TOOLS, messages=messages,
                                      system="You answer weather questions with the get_weather tool.")
    calls = [block for block in response.content if block.type == "tool_use"]
    seen.append({"stop_reason": response.stop_reason, "output_tokens": response.usage.output_tokens,
                 "tool_calls": [{"id": c.id, "name": c.name} for c in calls]})
    if not calls:
        break
    messages.append({"role": "assistant", "content": [block.model_dump() for block in response.content]})
    messages.append({"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": c.id, "content": get_weather(**c.input)} for c in calls]})
print(json.dumps({"requests": seen}))
