"""A tool-using agent on the official ollama Python library, written as a user would write it.

  python ollama_agent.py HOST MODEL [--whole]

It loops: ask the model (streamed, or whole with --whole), run each tool call, send the tool
messages back, until the model answers. Prints one JSON line: for each request what the library saw.
"""
import json
import sys

import ollama


def get_weather(city):
    return "Sunny, 21 degrees in %s." % city


TOOLS = [{"type": "function", "function": {
    "name": "get_weather", "description": "The weather in a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]

client = ollama.Client(host=sys.argv[1])
stream = "--whole" not in sys.argv
messages = [{"role": "system", "content": "You answer weather questions with the get_weather tool."},
            {"role": "user", "content": "What is the weather in Paris?"}]
seen = []
for _ in range(10):
    content, calls, last = "", [], None
    parts = client.chat(model=sys.argv[2], messages=messages, tools=TOOLS, stream=stream,
                        options={"temperature": 0, "num_predict": 64})
    for part in parts if stream else [parts]:
        content += part.message.content or ""
        calls += part.message.tool_calls or []
        last = part
    seen.append({"done_reason": last.done_reason, "eval_count": last.eval_count, "content": content,
                 "prompt_eval_duration": last.prompt_eval_duration,
                 "tool_calls": [{"name": c.function.name, "arguments": dict(c.function.arguments)} for c in calls]})
    if not calls:
        break
    messages.append({"role": "assistant", "content": content, "tool_calls": calls})
    for call in calls:
        messages.append({"role": "tool", "tool_name": call.function.name,
                         "content": get_weather(**call.function.arguments)})
print(json.dumps({"requests": seen}))
