"""Two turns on the official anthropic SDK, one whole and one streamed, as a user would write them.

  python anthropic_chat.py BASE_URL

Prints one JSON line: for each request what the SDK saw (text, stop reason, token counts).
"""
import json
import sys

import anthropic

client = anthropic.Anthropic(base_url=sys.argv[1], api_key="sk-ant-test-not-a-real-key", max_retries=0)
messages = [{"role": "user", "content": "Name a colour."}]

whole = client.messages.create(model="smollm2", max_tokens=12, system="You are brief.", messages=messages)
plain = {"text": "".join(b.text for b in whole.content if b.type == "text"), "stop_reason": whole.stop_reason,
         "output_tokens": whole.usage.output_tokens}

messages += [{"role": "assistant", "content": plain["text"] or "Blue."}, {"role": "user", "content": "Another."}]
with client.messages.stream(model="smollm2", max_tokens=16, system="You are brief.", messages=messages) as stream:
    text = "".join(stream.text_stream)
    final = stream.get_final_message()
streamed = {"text": text, "stop_reason": final.stop_reason, "output_tokens": final.usage.output_tokens}
print(json.dumps({"plain": plain, "streamed": streamed}))
