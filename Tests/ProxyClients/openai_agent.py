"""A tool-calling agent on the official openai SDK, written as a user would write it.

  python openai_agent.py BASE_URL MODEL [--stream]

It loops: ask the model, run each tool call it asks for, send the results back, until the model
answers. Prints one JSON line: the requests made and, for each, what the SDK saw.
"""
import json
import sys

from openai import OpenAI


def get_weather(city):
    return "Sunny, 21 degrees in %s." % city


TOOLS = [{"type": "function", "function": {
    "name": "get_weather", "description": "The weather in a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]


def ask(client, model, messages, stream):
    if not stream:
        response = client.chat.completions.create(model=model, messages=messages, tools=TOOLS)
        choice = response.choices[0]
        calls = [{"id": c.id, "name": c.function.name, "arguments": c.function.arguments}
                 for c in choice.message.tool_calls or []]
        return choice.message.content, calls, choice.finish_reason, response.usage.completion_tokens
    text, calls, finish, usage = "", {}, None, None
    for event in client.chat.completions.create(model=model, messages=messages, tools=TOOLS, stream=True,
                                                stream_options={"include_usage": True}):
        if event.usage:
            usage = event.usage.completion_tokens
        for choice in event.choices:
            text += choice.delta.content or ""
            finish = choice.finish_reason or finish
            for fragment in choice.delta.tool_calls or []:
                call = calls.setdefault(fragment.index, {"id": "", "name": "", "arguments": ""})
                call["id"] = fragment.id or call["id"]
                call["name"] += fragment.function.name or ""
                call["arguments"] += fragment.function.arguments or ""
    return text or None, list(calls.values()), finish, usage


def main():
    base_url, model = sys.argv[1], sys.argv[2]
    stream = "--stream" in sys.argv
    client = OpenAI(base_url=base_url, api_key="sk-test-not-a-real-key", max_retries=0)
    messages = [{"role": "system", "content": "You answer weather questions with the get_weather tool."},
                {"role": "user", "content": "What is the weather in Paris?"}]
    seen = []
    for _ in range(10):
        text, calls, finish, output_tokens = ask(client, model, messages, stream)
        seen.append({"finish_reason": finish, "output_tokens": output_tokens, "tool_calls": calls})
        if not calls:
            break
        messages.append({"role": "assistant", "content": text, "tool_calls": [
            {"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": c["arguments"]}}
            for c in calls]})
        for call in calls:
            result = get_weather(**json.loads(call["arguments"]))
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": result})
    print(json.dumps({"requests": seen}))


main()
