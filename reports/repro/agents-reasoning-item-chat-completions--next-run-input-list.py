# /// script
# requires-python = ">=3.11"
# dependencies = [
#   "openai-agents==0.2.3",
# ]
# [tool.uv]
# exclude-newer = "2025-07-21T19:34:21Z"
# ///
# agents-reasoning-item-chat-completions:next-run-input-list. Run: uv run THIS_FILE (exit 0 fixed, 3 reproduced, 125 cannot judge).
# Checked beside the harness's case on every release below; to try one, set its version and its
# exclude-newer date above. By the case's outcome / this script's verdict, release (date):
#   not-applicable / cannot-judge: 0.0.13 (2025-04-24T19:00:11Z), 0.0.19 (2025-06-18T00:49:16Z)
#   reproduced / reproduced: 0.1.0 (2025-06-27T20:58:04Z), 0.2.0 (2025-07-15T15:49:35Z),
#     0.2.3 (2025-07-21T19:34:21Z)
#   fixed / fixed: 0.2.4 (2025-07-29T21:39:17Z), 0.2.5 (2025-08-07T21:05:27Z),
#     0.2.6 (2025-08-11T18:52:18Z), 0.6.9 (2026-01-20T01:57:01Z), 0.7.0 (2026-01-23T00:06:36Z),
#     0.8.4 (2026-02-11T19:14:31Z), 0.9.3 (2026-02-20T22:56:23Z), 0.10.5 (2026-03-05T20:44:00Z),
#     0.11.1 (2026-03-09T06:34:08Z), 0.12.5 (2026-03-19T07:19:17Z), 0.13.6 (2026-04-09T04:10:52Z),
#     0.14.8 (2026-04-29T03:40:08Z), 0.15.3 (2026-05-06T12:13:01Z), 0.16.1 (2026-05-07T11:02:40Z),
#     0.17.8 (2026-07-06T23:37:13Z), 0.18.3 (2026-07-17T03:40:26Z), 0.19.4 (2026-08-05T02:59:13Z),
#     0.20.0 (2026-08-11T03:12:50Z), 0.21.1 (2026-08-16T22:29:36Z), 0.22.3 (2026-09-17T22:20:45Z),
#     0.23.1 (2026-10-02T15:42:07Z), 0.24.0 (2026-10-15T02:38:22Z)
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
