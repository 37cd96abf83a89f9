# /// script
# requires-python = ">=3.11"
# dependencies = [
#   "openai-agents==0.24.0",
# ]
# [tool.uv]
# exclude-newer = "2026-10-15T02:38:22Z"
# ///
# agents-chat-stream-late-reasoning-index:reasoning-after-tool-call. Run: uv run THIS_FILE (exit 0 fixed, 3 reproduced, 125 cannot judge).
# Checked beside the harness's case on every release below; to try one, set its version and its
# exclude-newer date above. By the case's outcome / this script's verdict, release (date):
#   not-applicable / cannot-judge: 0.0.13 (2025-04-24T19:00:11Z), 0.0.19 (2025-06-18T00:49:16Z)
#   reproduced / reproduced: 0.1.0 (2025-06-27T20:58:04Z)
#   unexpected / cannot-judge: 0.2.0 (2025-07-15T15:49:35Z)
#   reproduced / reproduced: 0.2.3 (2025-07-21T19:34:21Z), 0.2.4 (2025-07-29T21:39:17Z),
#     0.2.5 (2025-08-07T21:05:27Z), 0.2.6 (2025-08-11T18:52:18Z), 0.6.9 (2026-01-20T01:57:01Z),
#     0.7.0 (2026-01-23T00:06:36Z), 0.8.4 (2026-02-11T19:14:31Z), 0.9.3 (2026-02-20T22:56:23Z),
#     0.10.5 (2026-03-05T20:44:00Z), 0.11.1 (2026-03-09T06:34:08Z), 0.12.5 (2026-03-19T07:19:17Z),
#     0.13.6 (2026-04-09T04:10:52Z), 0.14.8 (2026-04-29T03:40:08Z), 0.15.3 (2026-05-06T12:13:01Z),
#     0.16.1 (2026-05-07T11:02:40Z), 0.17.8 (2026-07-06T23:37:13Z), 0.18.3 (2026-07-17T03:40:26Z),
#     0.19.4 (2026-08-05T02:59:13Z), 0.20.0 (2026-08-11T03:12:50Z), 0.21.1 (2026-08-16T22:29:36Z),
#     0.22.3 (2026-09-17T22:20:45Z), 0.23.1 (2026-10-02T15:42:07Z), 0.24.0 (2026-10-15T02:38:22Z)
"""A late reasoning delta in a Chat Completions stream is announced at output_index 0.

Upstream: https://github.com/openai/openai-agents-python/issues/5041 (fix proposed in PR #5042). The stream
handler gives a reasoning item a hard-coded output_index=0: after text or a tool call, two items share index
0. OpenAIChatCompletionsModel over an AsyncOpenAI client (dummy key) on an httpx.MockTransport streams turn
1 as: a get_weather call, reasoning_content, a second call; turn 2 answers. Turn 1's output_item.added/.done
indexes are checked against the items' response.completed positions. reproduced: an index disagrees, or two
items share one. Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (no reasoning item, an item missing,
the run failed with indexes agreeing).
"""

import asyncio
import json
import sys

ORDER = "paris", "reasoning", "rome"
CALLS = []
ROLE = {"role": "assistant"} if ORDER[0] == "reasoning" else {"role": "assistant", "content": ""}


async def main():  # returns the exit code and the verdict
    import openai
    from agents import Agent, OpenAIChatCompletionsModel, Runner, function_tool, set_tracing_disabled

    set_tracing_disabled(True)
    # openai 3.x is built on httpx2
    httpx = __import__("httpx2" if int(openai.__version__.split(".")[0]) >= 3 else "httpx")

    @function_tool
    def get_weather(city: str) -> str:
        CALLS.append(city)
        return f"sunny in {city}"

    def stream(*deltas):  # one Chat Completions SSE response: a chunk per delta, then the finish chunk
        chunk = dict(id="c1", object="chat.completion.chunk", created=0, model="m", usage=None)
        finish = "tool_calls" if any("tool_calls" in d for d in deltas) else "stop"
        chunks = [{**chunk, "choices": [dict(index=0, delta=d, finish_reason=None)]} for d in deltas]
        chunks.append({**chunk, "choices": [dict(index=0, delta={}, finish_reason=finish)]})
        body = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"
        return httpx.Response(200, content=body.encode(), headers={"content-type": "text/event-stream"})

    def call(i, city):  # a get_weather call's two deltas: its head, then its arguments
        head = dict(
            index=i, id=f"call_{city.lower()}", type="function", function=dict(name="get_weather", arguments="")
        )
        return [
            {"tool_calls": [head]},
            {"tool_calls": [dict(index=i, function={"arguments": json.dumps({"city": city})})]},
        ]

    PARTS = dict(
        paris=call(0, "Paris"), rome=call(1, "Rome"), reasoning=[{"reasoning_content": "Two cities, two calls."}]
    )
    PARTS["text"] = [{"content": "Let me "}, {"content": "check both."}]
    REPLIES = [stream(ROLE, *(d for part in ORDER for d in PARTS[part])), stream(ROLE, {"content": "Both are sunny."})]

    def key(item):
        return f"function_call {item.call_id}" if item.type == "function_call" else item.type

    http = httpx.AsyncClient(transport=httpx.MockTransport(lambda request: REPLIES.pop(0)))
    client = openai.AsyncOpenAI(api_key="sk-dummy", base_url="http://fake.invalid/v1", max_retries=0, http_client=http)
    model = OpenAIChatCompletionsModel(model="m", openai_client=client)
    result = Runner.run_streamed(Agent(name="assistant", model=model, tools=[get_weather]), input="Paris and Rome?")
    announced, completed, error = [], None, None
    try:  # turn 1's events, up to its response.completed, are judged even if a later turn fails
        async for raw in result.stream_events():
            event = raw.data if raw.type == "raw_response_event" and completed is None else None
            if event is not None and event.type in ("response.output_item.added", "response.output_item.done"):
                announced.append((event.type.rsplit(".", 1)[1], event.output_index, key(event.item)))
                print(f"  {announced[-1][0]} #{event.output_index} {key(event.item)}")
            elif event is not None and event.type == "response.completed":
                completed = [key(item) for item in event.response.output]
    except Exception as exc:
        error = f"{type(exc).__name__}: {str(exc)[:120]}"
    print(f"turn 1 response.completed output: {completed}; run error: {error}")
    if not completed or "reasoning" not in completed or len(set(completed)) != len(completed):
        return 125, "cannot judge (no reasoning item, or no response.completed, in turn 1)"
    if {k for _, _, k in announced} != set(completed):
        return 125, "cannot judge (announced items and response.completed output differ)"
    added = [i for what, i, _ in announced if what == "added"]
    problems = {}  # per item, its first index that is not its position in response.completed
    for what, i, k in announced:
        if i != completed.index(k):
            problems.setdefault(k, f"{k} {what} at {i} but #{completed.index(k)} in response.completed")
    shared = "two items announced at one index; " if len(set(added)) < len(added) else ""
    if problems or shared:
        return 3, f"reproduced ({shared}{'; '.join(problems.values())})"
    if error or len(CALLS) != 2 or result.final_output != "Both are sunny.":
        return 125, f"cannot judge (indexes agree, but the run did not finish as scripted: {error})"
    return 0, f"fixed ({len(added)} items announced at {added}, their response.completed positions)"


if __name__ == "__main__":
    try:
        code, verdict = asyncio.run(main())
    except Exception as exc:
        code, verdict = 125, f"cannot judge (error: {type(exc).__name__}: {exc})"
    print(f"verdict: {verdict}")
    sys.exit(code)
