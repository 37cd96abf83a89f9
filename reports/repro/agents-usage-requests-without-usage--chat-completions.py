# /// script
# requires-python = ">=3.11"
# dependencies = [
#   "openai-agents==0.19.4",
# ]
# [tool.uv]
# exclude-newer = "2026-08-05T02:59:13Z"
# ///
# agents-usage-requests-without-usage:chat-completions. Run: uv run THIS_FILE (exit 0 fixed, 3 reproduced, 125 cannot judge).
# Checked beside the harness's case on every release below; to try one, set its version and its
# exclude-newer date above. By the case's outcome / this script's verdict, release (date):
#   not-applicable / cannot-judge: 0.0.13 (2025-04-24T19:00:11Z)
#   reproduced / reproduced: 0.0.14 (2025-04-30T15:19:48Z), 0.1.0 (2025-06-27T20:58:04Z),
#     0.2.0 (2025-07-15T15:49:35Z), 0.2.3 (2025-07-21T19:34:21Z)
#   unexpected / cannot-judge: 0.2.5 (2025-08-07T21:05:27Z)
#   reproduced / reproduced: 0.2.6 (2025-08-11T18:52:18Z), 0.6.9 (2026-01-20T01:57:01Z),
#     0.7.0 (2026-01-23T00:06:36Z), 0.8.4 (2026-02-11T19:14:31Z), 0.9.3 (2026-02-20T22:56:23Z),
#     0.10.5 (2026-03-05T20:44:00Z), 0.11.1 (2026-03-09T06:34:08Z), 0.12.5 (2026-03-19T07:19:17Z),
#     0.13.6 (2026-04-09T04:10:52Z), 0.14.8 (2026-04-29T03:40:08Z), 0.15.3 (2026-05-06T12:13:01Z),
#     0.16.1 (2026-05-07T11:02:40Z), 0.17.8 (2026-07-06T23:37:13Z), 0.18.3 (2026-07-17T03:40:26Z),
#     0.19.4 (2026-08-05T02:59:13Z)
#   fixed / fixed: 0.20.0 (2026-08-11T03:12:50Z), 0.21.0 (2026-08-15T02:50:11Z),
#     0.21.1 (2026-08-16T22:29:36Z), 0.22.3 (2026-09-17T22:20:45Z), 0.23.1 (2026-10-02T15:42:07Z),
#     0.24.0 (2026-10-15T02:38:22Z)
"""A model call whose response carries no usage block counts as zero requests.

Upstream: https://github.com/openai/openai-agents-python/pull/4290 (Chat Completions, 0.20.0)
and PR #4453 (Responses API, 0.21.1). The adapters built a turn's usage as
`Usage(requests=1, ...) if response.usage else Usage()`, so usage.requests stays 0.

The framework's own model class over a real AsyncOpenAI client (dummy key) whose transport is
an httpx.MockTransport: a two-turn run (a get_weather call, then the answer), both responses
without usage. reproduced: result.context_wrapper.usage.requests < 2 for the 2 requests served.
Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (no usage total, the run failed, ...).
"""

import asyncio
import importlib
import json
import sys

STREAMED = False
ARGS = '{"city": "Paris"}'


call = {"index": 0, "id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": ARGS}}
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
        if STREAMED:  # the role chunk, the delta, the finish chunk; no usage chunk
            chunk = dict(id=f"c{n}", object="chat.completion.chunk", created=0, model="m", usage=None)
            deltas = [({"role": "assistant", "content": ""}, None), (delta, None), ({}, finish)]
            return [{**chunk, "choices": [dict(index=0, delta=d, finish_reason=f)]} for d, f in deltas] + ["[DONE]"]
        message = {"role": "assistant", "content": None, **delta}
        choice = dict(index=0, message=message, finish_reason=finish)
        return dict(id=f"c{n}", object="chat.completion", created=0, model="m", choices=[choice])

    REPLIES = [chat(1, {"tool_calls": [call]}, "tool_calls"), chat(2, {"content": "It is sunny."}, "stop")]

    def server_sent(event):
        if event == "[DONE]":
            return "data: [DONE]\n\n"
        return (f"event: {event['type']}\n" if "type" in event else "") + f"data: {json.dumps(event)}\n\n"

    def handler(request):
        SERVED.append(json.loads(request.content))
        reply = REPLIES[len(SERVED) - 1]
        if not STREAMED:
            return httpx.Response(200, json=reply)
        sse = "".join(server_sent(event) for event in reply)
        return httpx.Response(200, content=sse.encode(), headers={"content-type": "text/event-stream"})

    http = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    client = openai.AsyncOpenAI(api_key="sk-dummy", base_url="http://fake.invalid/v1", max_retries=0, http_client=http)
    agent = Agent(
        name="assistant", model=OpenAIChatCompletionsModel(model="m", openai_client=client), tools=[get_weather]
    )
    if STREAMED:
        result = Runner.run_streamed(agent, input="What is the weather in Paris?")
        async for _ in result.stream_events():
            pass
    else:
        result = await Runner.run(agent, input="What is the weather in Paris?")
    usage = result.context_wrapper.usage
    per_turn = [r.usage.requests for r in result.raw_responses]
    print(f"requests served: {len(SERVED)}; final output {result.final_output!r}")
    print(f"per turn usage.requests {per_turn}; run total requests={usage.requests} tokens={usage.total_tokens}")
    figures = f"usage.requests {usage.requests} for {len(SERVED)} requests without usage"
    if len(SERVED) != 2 or usage.total_tokens != 0 or usage.requests > 2:
        print(f"verdict: cannot judge ({figures}, {usage.total_tokens} tokens)")
        return 125
    if usage.requests < 2:
        print(f"verdict: reproduced ({figures})")
        return 3
    print(f"verdict: fixed ({figures})")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
