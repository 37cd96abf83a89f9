"""Control for "a late reasoning delta is announced at output_index 0": reasoning first.

Upstream: https://github.com/openai/openai-agents-python/issues/5041 (fix proposed in PR #5042). The stream
handler gives a reasoning item a hard-coded output_index=0: after text or a tool call, two items share index
0. OpenAIChatCompletionsModel over an AsyncOpenAI client (dummy key) on an httpx.MockTransport streams turn
1 as: reasoning_content, text, two get_weather calls (the order the handler was written for; the role chunk
has no empty content, which opened a message first before 0.18.2); turn 2 answers. Turn 1's
output_item.added/.done indexes are checked against the items' response.completed positions. reproduced (the
control broke): an index disagrees, or two items share one. Exit codes: 0 fixed, 3 reproduced, 125 cannot
judge (no reasoning item, an item missing, the run failed with indexes agreeing).
"""

import asyncio
import json
import sys

ORDER = "reasoning", "text", "paris", "rome"
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
