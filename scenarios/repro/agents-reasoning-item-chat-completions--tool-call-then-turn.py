"""A reasoning item in a tool-call turn breaks the next turn on OpenAIChatCompletionsModel.

Upstream: https://github.com/openai/openai-agents-python/issues/1004 (dupes #1164, #1165):
a provider's non-standard `reasoning_content` becomes a reasoning item (PR #871, 0.1.0), and
Converter.items_to_messages raised "Unhandled item type or structure" when handed it back,
before the next request was sent. Fixed by PR #1098 (0.2.4).

The framework's OpenAIChatCompletionsModel over a real AsyncOpenAI client (dummy key) whose
transport is an httpx.MockTransport: turn 1 sends reasoning_content and a get_weather call,
turn 2 the answer. reproduced: the run raises the converter's error on the reasoning item.
Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (no reasoning item, another error, ...).
"""

import asyncio
import importlib
import json
import sys

STREAMED = False
FUNCTION = {"name": "get_weather", "arguments": '{"city": "Paris"}'}
CALL = {"index": 0, "id": "call_1", "type": "function", "function": FUNCTION}
REASONING = "The user wants the weather in Paris; call get_weather."
SERVED = []


async def main():
    import openai
    from agents import Agent, OpenAIChatCompletionsModel, Runner, function_tool, set_tracing_disabled

    set_tracing_disabled(True)
    # openai 3.x is built on httpx2 (the same API as httpx).
    httpx = importlib.import_module("httpx2" if int(openai.__version__.split(".")[0]) >= 3 else "httpx")

    @function_tool
    def get_weather(city: str) -> str:
        return f"sunny in {city}"

    def chat(n, delta, finish):
        """A chat.completion (or, streamed, its chunks: role, reasoning, the rest, finish)."""
        if STREAMED:
            chunk = dict(id=f"c{n}", object="chat.completion.chunk", created=0, model="m", usage=None)
            deltas = [{"role": "assistant", "content": ""}, *({k: v} for k, v in delta.items()), {}]
            return [{**chunk, "choices": [dict(index=0, delta=d, finish_reason=None if d else finish)]} for d in deltas]
        choice = dict(index=0, message={"role": "assistant", "content": None, **delta}, finish_reason=finish)
        return dict(id=f"c{n}", object="chat.completion", created=0, model="m", choices=[choice])

    REPLIES = [
        chat(1, {"reasoning_content": REASONING, "tool_calls": [CALL]}, "tool_calls"),
        chat(2, {"content": "It is sunny in Paris."}, "stop"),
    ]

    def handler(request):
        SERVED.append(json.loads(request.content))
        reply = REPLIES[len(SERVED) - 1]
        if not STREAMED:
            return httpx.Response(200, json=reply)
        sse = "".join(f"data: {json.dumps(chunk)}\n\n" for chunk in reply) + "data: [DONE]\n\n"
        return httpx.Response(200, content=sse.encode(), headers={"content-type": "text/event-stream"})

    http = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    client = openai.AsyncOpenAI(api_key="sk-dummy", base_url="http://fake.invalid/v1", max_retries=0, http_client=http)
    model = OpenAIChatCompletionsModel(model="m", openai_client=client)
    agent = Agent(name="assistant", model=model, tools=[get_weather])
    try:
        if STREAMED:
            result = Runner.run_streamed(agent, input="What is the weather in Paris?")
            async for _ in result.stream_events():
                pass
        else:
            result = await Runner.run(agent, input="What is the weather in Paris?")
    except Exception as exc:
        print(f"run raised {type(exc).__name__}: {str(exc)[:160]} after {len(SERVED)} requests")
        if "Unhandled item type or structure" in str(exc) and "'reasoning'" in str(exc):
            print(f"verdict: reproduced (turn 2 failed before its request was sent: {len(SERVED)} of 2 sent)")
            return 3
        print("verdict: cannot judge (the run raised something else)")
        return 125
    kinds = [item.type for item in result.new_items]
    tool_msgs = [m for m in SERVED[-1]["messages"] if m.get("role") == "tool"]
    print(f"run items: {', '.join(kinds)}; final output {result.final_output!r}")
    if "reasoning_item" not in kinds:
        print("verdict: cannot judge (this release makes no reasoning item from reasoning_content)")
        return 125
    if len(SERVED) == 2 and tool_msgs and "sunny in Paris" in str(tool_msgs[0].get("content")):
        print("verdict: fixed (the turn after the tool call was sent with the tool result; the run finished)")
        return 0
    print(f"verdict: cannot judge ({len(SERVED)} requests, tool messages {tool_msgs})")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
