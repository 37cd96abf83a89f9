# /// script
# requires-python = ">=3.10"
# dependencies = ["openai-agents"]
# ///
"""openai-agents: a late reasoning delta in a Chat Completions stream reuses output_index 0.

Upstream: https://github.com/openai/openai-agents-python/issues/5041 (fix proposed in
https://github.com/openai/openai-agents-python/pull/5042). The Chat Completions stream handler
(agents/models/chatcmpl_stream_handler.py) announces the reasoning item at a hard-coded output_index=0
when its first `reasoning_content` delta arrives: after text or a tool call two items share slot 0, and
response.completed puts the reasoning item first, so announced indexes and completed positions disagree.

OpenAIChatCompletionsModel over a real `openai.AsyncOpenAI` client on an `httpx.MockTransport` serving
server-sent events: turn 1 streams text, reasoning_content and two get_weather calls in the case's
order, turn 2 answers. `reasoning-first` is the control (the order the handler expects; its role chunk
has no empty "content", which opened a message first on older releases). Prints turn 1's
output_item.added/.done events, its response.completed output, the next request, the run's items.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import importlib
import json
import os
import sys

CASES = {
    "reasoning-after-text": dict(order=("text", "reasoning", "paris", "rome")),
    "reasoning-after-tool-call": dict(order=("paris", "reasoning", "rome")),
    "reasoning-first": dict(order=("reasoning", "text", "paris", "rome")),
}
ANSWER = "Both are sunny."


class NotApplicable(Exception):
    """The release lacks what the case needs."""


def quote(text, limit=80):
    text = str(text)
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def sse(deltas, id):
    """One Chat Completions stream: a chunk per delta, the finish chunk, then [DONE]."""
    finish = "tool_calls" if any("tool_calls" in d for d in deltas) else "stop"
    chunk = dict(id=id, object="chat.completion.chunk", created=0, model="m", usage=None)
    chunks = [{**chunk, "choices": [dict(index=0, delta=d, finish_reason=None, logprobs=None)]} for d in deltas]
    chunks.append({**chunk, "choices": [dict(index=0, delta={}, finish_reason=finish, logprobs=None)]})
    return "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"


def key(item):
    """What names an output item: its kind, and a function call's call id (one message, one reasoning)."""
    kind = getattr(item, "type", "?")
    return f"function_call {getattr(item, 'call_id', None)}" if kind == "function_call" else str(kind)


async def observe(say, order):
    """Stream the run; say turn 1's events and what followed; return what the verdict reads."""
    # As the harness runs it, and from any shell: no trace leaves the process, and a placeholder key,
    # never a real one (openai-agents 0.0.x builds an OpenAI client on import and needs a key; the
    # scripted model sends no request).
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    os.environ["OPENAI_API_KEY"] = "sk-placeholder-not-used"
    import openai
    from agents import Agent, OpenAIChatCompletionsModel, Runner, function_tool, set_tracing_disabled

    set_tracing_disabled(True)
    # Turn 1: the role chunk, then each part's deltas (a call's head, then its arguments in 8-character pieces).
    parts = {"text": [{"content": "Let me "}, {"content": "check both."}]}
    parts["reasoning"] = [{"reasoning_content": "Two cities, two calls."}]
    for index, city in enumerate(("Paris", "Rome")):
        function = dict(name="get_weather", arguments="")
        head = dict(index=index, id=f"call_{city.lower()}", type="function", function=function)
        args = json.dumps({"city": city})
        parts[city.lower()] = [{"tool_calls": [head]}] + [
            {"tool_calls": [dict(index=index, function={"arguments": args[i : i + 8]})]} for i in range(0, len(args), 8)
        ]
    role = {"role": "assistant"} if order[0] == "reasoning" else {"role": "assistant", "content": ""}
    turn_1 = [role] + [d for part in order for d in parts[part]]
    # openai 3.x is built on httpx2 (the same API as httpx).
    httpx = importlib.import_module("httpx2" if int(openai.__version__.split(".")[0]) >= 3 else "httpx")
    replies = [sse(turn_1, "c1"), sse([{"role": "assistant", "content": ""}, {"content": ANSWER}], "c2")]
    requests, weather = [], []

    def handler(request):
        requests.append(json.loads(request.content))
        body = replies[len(requests) - 1].encode()
        return httpx.Response(200, content=body, headers={"content-type": "text/event-stream"})

    @function_tool
    def get_weather(city: str) -> str:
        weather.append(city)
        return f"sunny in {city}"

    http = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    client = openai.AsyncOpenAI(api_key="sk-dummy", base_url="http://fake.invalid/v1", max_retries=0, http_client=http)
    model = OpenAIChatCompletionsModel(model="m", openai_client=client)
    result = Runner.run_streamed(Agent(name="assistant", model=model, tools=[get_weather]), input="Paris and Rome?")
    announced, completed, output, error = [], None, [], None
    try:  # turn 1's events, up to its response.completed, are judged whatever happens later
        async for event in result.stream_events():
            data = event.data if getattr(event, "type", None) == "raw_response_event" and completed is None else None
            kind = getattr(data, "type", "")
            if kind in ("response.output_item.added", "response.output_item.done"):
                announced.append((kind.rsplit(".", 1)[1], data.output_index, key(data.item)))
            elif kind == "response.completed":
                completed, output = [key(item) for item in data.response.output], data.response.output
    except Exception as exc:  # a fact: the judge reports it
        error = f"{type(exc).__name__}: {exc}"
    if error is None and completed is not None and "reasoning" not in completed:
        raise NotApplicable(
            "this release's Chat Completions stream makes no reasoning item from reasoning_content deltas "
            f"(turn 1 output: {', '.join(completed) or 'nothing'})"
        )
    say("turn 1 stream:")
    for what, index, item in announced:
        say(f"  {what} #{index} {item}")
    say("turn 1 response.completed output:")
    for n, item in enumerate(output):
        text = "".join(getattr(p, "text", "") or "" for p in item.content) if item.type == "message" else None
        say(f"  #{n} {key(item)}" + ("" if text is None else f" {quote(text)}"))
    for n, request in enumerate(requests[1:], 2):
        say(f"request {n}: {len(request['messages'])} messages")
        for m in request["messages"]:
            calls = [
                f"{c['id']} {c['function']['name']}({c['function']['arguments']})" for c in m.get("tool_calls") or []
            ]
            content = None if m.get("content") is None else quote(m["content"])
            say(
                "  "
                + " ".join(filter(None, [m["role"], m.get("tool_call_id"), content, calls and f"tool_calls={calls}"]))
            )
    say("run items:")
    for n, item in enumerate(getattr(result, "new_items", []), 1):
        raw = item.raw_item if isinstance(item.raw_item, dict) else item.raw_item.model_dump(exclude_none=True)
        parts = raw.get("content") or raw.get("summary") or []
        text = (
            raw.get("output")
            or raw.get("arguments")
            or " ".join(p.get("text", "") for p in parts if isinstance(p, dict))
        )
        say(" ".join(filter(None, [f"  {n}. {item.type}", raw.get("call_id"), quote(text)])))
    say(f"run raised {quote(error, 160)}" if error else f"run finished: final_output {quote(result.final_output)}")
    final_output = None if error else result.final_output
    return dict(
        announced=announced, completed=completed, error=error, final_output=final_output, tool_calls=len(weather)
    )


def judge(facts):
    """(outcome, detail): every item of turn 1's completed output announced once, at its position, closed there."""
    completed, error = facts["completed"], facts["error"]
    if completed is None:
        return "unexpected", "turn 1 never sent response.completed" + (f": {quote(error, 140)}" if error else "")
    position = {item: n for n, item in enumerate(completed)}
    added = [(index, item) for what, index, item in facts["announced"] if what == "added"]
    done = [(index, item) for what, index, item in facts["announced"] if what == "done"]
    missing = [k for k in completed if k not in {item for _, item in added}]
    extra = [k for _, k in added if k not in position]
    twice = sorted({k for k in completed if completed.count(k) > 1})
    if missing or extra or twice:
        return "unexpected", (
            f"announced items and response.completed output differ (never announced: {missing or 'none'}; "
            f"announced but not in the output: {extra or 'none'}; twice in the output: {twice or 'none'})"
        )
    problems, by_index = [], {}
    for index, item in added:
        by_index.setdefault(index, []).append(item)
    for index, items in sorted(by_index.items()):
        if len(items) > 1:
            problems.append(f"{len(items)} items announced at output_index {index} ({', '.join(items)})")
    for index, item in added:
        if index != position[item]:
            problems.append(f"{item} announced at {index} but is #{position[item]} of the completed output")
    for index, item in done:
        if item in position and index != position[item] and all(item not in p for p in problems):
            problems.append(f"{item} closed at {index} but is #{position[item]} of the completed output")
    later = f"; the run then raised {quote(error, 90)}" if error else ""  # reported, never hidden
    if problems:
        return "reproduced", "; ".join(problems) + later
    if error is not None:
        return "unexpected", "turn 1's indexes agree" + later
    if facts["final_output"] != ANSWER or facts["tool_calls"] != 2:
        return "unexpected", (
            f"the run finished with {quote(facts['final_output'])} after {facts['tool_calls']} tool calls, expected 2"
        )
    return "fixed", (
        f"{len(added)} items announced at output_index {', '.join(str(i) for i, _ in added)}, "
        "each its position in response.completed output and closed at the same index"
    )


# --- the same in every reproduction: run the cases named on the command line -------------------


def run(case):
    """Run one case: its timeline, then its verdict line; return its outcome."""
    print(f"== {case}")
    try:
        outcome, detail = judge(asyncio.run(observe(print, **CASES[case])))
    except NotApplicable as exc:
        outcome, detail = "not-applicable", str(exc)
    except Exception as exc:
        outcome, detail = "error", f"{type(exc).__name__}: {exc}"
    print(f"verdict: {outcome}: {' '.join(str(detail).split())}")
    return outcome


def main(argv):
    """Exit 3 if a case reproduced, else 0 if every case is fixed, else 125 (git bisect run's bad, good, skip)."""
    if any(case not in CASES for case in argv):
        print(f"verdict: error: unknown case in {argv}; valid: {', '.join(CASES)}")
        return 125
    outcomes = [run(case) for case in argv or CASES]
    return 3 if "reproduced" in outcomes else 0 if set(outcomes) == {"fixed"} else 125


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
