"""A late reasoning delta in a Chat Completions stream is announced at output_index 0.

Upstream: https://github.com/openai/openai-agents-python/issues/5041 (fix proposed in PR
#5042). The stream handler of OpenAIChatCompletionsModel announces a reasoning item with a
hard-coded output_index=0 when its first reasoning_content delta arrives; if text or a tool
call came first, two items share index 0 and response.completed puts reasoning first.

The framework's OpenAIChatCompletionsModel over a real AsyncOpenAI client (dummy key) whose
transport is an httpx.MockTransport streaming turn 1 as: a get_weather call,
reasoning_content, a second call; turn 2 answers. The script checks every output_item.added/.done index
of turn 1 against the item's position in response.completed.
reproduced: an index disagrees, or two items share one. Exit codes: 0 fixed, 3 reproduced,
125 cannot judge (no reasoning item, an item missing, the run failed with indexes agreeing).
"""

import asyncio
import importlib
import json
import sys

import openai
from agents import Agent, OpenAIChatCompletionsModel, Runner, function_tool, set_tracing_disabled

ORDER = "paris", "reasoning", "rome"
# openai 3.x is built on httpx2 (the same API as httpx).
httpx = importlib.import_module("httpx2" if int(openai.__version__.split(".")[0]) >= 3 else "httpx")
CALLS = []


@function_tool
def get_weather(city: str) -> str:
    CALLS.append(city)
    return f"sunny in {city}"


def stream(*deltas):
    chunk = dict(id="c1", object="chat.completion.chunk", created=0, model="m", usage=None)
    finish = "tool_calls" if any("tool_calls" in d for d in deltas) else "stop"
    chunks = [{**chunk, "choices": [dict(index=0, delta=d, finish_reason=None)]} for d in deltas]
    chunks.append({**chunk, "choices": [dict(index=0, delta={}, finish_reason=finish)]})
    return "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"


def call(index, city):
    function = {"name": "get_weather", "arguments": ""}
    head = {"index": index, "id": f"call_{city.lower()}", "type": "function", "function": function}
    args = {"index": index, "function": {"arguments": json.dumps({"city": city})}}
    return [{"tool_calls": [head]}, {"tool_calls": [args]}]


PARTS = {
    "text": [{"content": "Let me "}, {"content": "check both."}],
    "reasoning": [{"reasoning_content": "Two cities, two calls."}],
    "paris": call(0, "Paris"),
    "rome": call(1, "Rome"),
}
ROLE = {"role": "assistant"} if ORDER[0] == "reasoning" else {"role": "assistant", "content": ""}
REPLIES = [stream(ROLE, *(d for part in ORDER for d in PARTS[part])), stream(ROLE, {"content": "Both are sunny."})]
SERVED = []


def handler(request):
    SERVED.append(request)
    sse = REPLIES[len(SERVED) - 1]
    return httpx.Response(200, content=sse.encode(), headers={"content-type": "text/event-stream"})


def key(item):
    return f"function_call {item.call_id}" if item.type == "function_call" else item.type


async def main():
    http = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    client = openai.AsyncOpenAI(api_key="sk-dummy", base_url="http://fake.invalid/v1", max_retries=0, http_client=http)
    model = OpenAIChatCompletionsModel(model="m", openai_client=client)
    result = Runner.run_streamed(Agent(name="assistant", model=model, tools=[get_weather]), input="Paris and Rome?")
    events, error = [], None
    try:  # collect event by event: turn 1 is judged even if a later turn fails
        async for event in result.stream_events():
            events += [event.data] if event.type == "raw_response_event" else []
    except Exception as exc:
        error = f"{type(exc).__name__}: {str(exc)[:120]}"
    announced, completed = [], None
    for event in events:  # turn 1, up to its response.completed
        if event.type in ("response.output_item.added", "response.output_item.done"):
            announced.append((event.type.rsplit(".", 1)[1], event.output_index, key(event.item)))
            print(f"  {announced[-1][0]} #{event.output_index} {key(event.item)}")
        elif event.type == "response.completed":
            completed = [key(item) for item in event.response.output]
            break
    print(f"turn 1 response.completed output: {completed}; run error: {error}")
    if not completed or "reasoning" not in completed or len(set(completed)) != len(completed):
        print("verdict: cannot judge (no reasoning item, or no response.completed, in turn 1)")
        return 125
    if {k for _, _, k in announced} != set(completed):
        print("verdict: cannot judge (announced items and response.completed output differ)")
        return 125
    added = [(i, k) for what, i, k in announced if what == "added"]
    problems = {}  # per item, its first index that is not its position in response.completed
    for what, i, k in announced:
        if i != completed.index(k):
            problems.setdefault(k, f"{k} {what} at {i} but #{completed.index(k)} in response.completed")
    shared = len({i for i, _ in added}) < len(added)
    if problems or shared:
        print(
            f"verdict: reproduced ({'two items announced at one index; ' if shared else ''}{'; '.join(problems.values())})"
        )
        return 3
    if error or len(CALLS) != 2 or result.final_output != "Both are sunny.":
        print(f"verdict: cannot judge (indexes agree, but the run did not finish as scripted: {error})")
        return 125
    print(
        f"verdict: fixed ({len(added)} items announced at {[i for i, _ in added]}, their response.completed positions)"
    )
    return 0


if __name__ == "__main__":
    set_tracing_disabled(True)
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:
        print(f"verdict: cannot judge ({type(exc).__name__}: {exc})")
        sys.exit(125)
