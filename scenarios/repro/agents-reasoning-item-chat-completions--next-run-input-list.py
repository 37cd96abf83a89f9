"""A reasoning item in run 1's items breaks run 2 on OpenAIChatCompletionsModel (#1164).

Upstream: https://github.com/openai/openai-agents-python/issues/1004 (dupes #1164, #1165):
a provider's non-standard `reasoning_content` becomes a reasoning item (PR #871, 0.1.0), and
Converter.items_to_messages raised "Unhandled item type or structure" when handed it back,
before the next request was sent. Fixed by PR #1098 (0.2.4).

The framework's OpenAIChatCompletionsModel over a real AsyncOpenAI client (dummy key) whose
transport is an httpx.MockTransport: run 1 answers with reasoning_content and text; run 2's
input is run 1's result.to_input_list() plus a question. reproduced: run 2 raises the
converter's error on the reasoning item.
Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (no reasoning item, another error, ...).
"""

import asyncio
import importlib
import json
import sys

REASONING = "The user wants the weather in Paris."
SERVED = []


async def main():
    import openai
    from agents import Agent, OpenAIChatCompletionsModel, Runner, set_tracing_disabled

    set_tracing_disabled(True)

    # openai 3.x is built on httpx2 (the same API as httpx).
    httpx = importlib.import_module("httpx2" if int(openai.__version__.split(".")[0]) >= 3 else "httpx")

    def chat(n, delta, finish):
        choice = dict(index=0, message={"role": "assistant", "content": None, **delta}, finish_reason=finish)
        return dict(id=f"c{n}", object="chat.completion", created=0, model="m", choices=[choice])

    REPLIES = [
        chat(1, {"reasoning_content": REASONING, "content": "It is sunny in Paris."}, "stop"),
        chat(2, {"content": "Sunny again tomorrow."}, "stop"),
    ]

    def handler(request):
        SERVED.append(json.loads(request.content))
        reply = REPLIES[len(SERVED) - 1]
        return httpx.Response(200, json=reply)

    http = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    client = openai.AsyncOpenAI(api_key="sk-dummy", base_url="http://fake.invalid/v1", max_retries=0, http_client=http)
    model = OpenAIChatCompletionsModel(model="m", openai_client=client)
    agent = Agent(name="assistant", model=model)
    first = await Runner.run(agent, input="What is the weather in Paris?")
    kinds = [item.type for item in first.new_items]
    print(f"run 1 items: {', '.join(kinds)}; final output {first.final_output!r}")
    if "reasoning_item" not in kinds:
        print("verdict: cannot judge (this release makes no reasoning item from reasoning_content)")
        return 125
    try:
        result = await Runner.run(agent, first.to_input_list() + [{"role": "user", "content": "And tomorrow?"}])
    except Exception as exc:
        print(f"run raised {type(exc).__name__}: {str(exc)[:160]} after {len(SERVED)} requests")
        if "Unhandled item type or structure" in str(exc) and "'reasoning'" in str(exc):
            print(f"verdict: reproduced (run 2 failed before its request: {len(SERVED)} of 2 sent)")
            return 3
        print("verdict: cannot judge (the run raised something else)")
        return 125
    messages = SERVED[-1]["messages"]
    print(f"run 2 request messages: {[m.get('role') for m in messages]}; final output {result.final_output!r}")
    carried = [m for m in messages if m.get("role") == "assistant" and "sunny in Paris" in str(m.get("content"))]
    if len(SERVED) == 2 and carried and result.final_output == "Sunny again tomorrow.":
        print("verdict: fixed (run 2 was sent with run 1's answer and finished)")
        return 0
    print(f"verdict: cannot judge ({len(SERVED)} requests, run 1's answer carried: {bool(carried)})")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
