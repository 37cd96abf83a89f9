# /// script
# requires-python = ">=3.10"
# dependencies = ["openai-agents"]
# ///
"""openai-agents: a reasoning item in a tool-call turn breaks the next turn on Chat Completions.

Upstream: https://github.com/openai/openai-agents-python/issues/1004 (duplicates #1164, #1165); the
reasoning item came with https://github.com/openai/openai-agents-python/pull/871, the fix is
https://github.com/openai/openai-agents-python/pull/1098. DeepSeek-style providers send the model's
thinking as a non-standard `reasoning_content` field of the message (or of each streamed delta); the
SDK turns it into a `reasoning` output item (agents/models/chatcmpl_converter.py), and
`Converter.items_to_messages`, handed it back for the next turn, raised `UserError: Unhandled item type
or structure` before the request was sent. #1164 hits it one run later, through `to_input_list()`.

The framework's `OpenAIChatCompletionsModel` over a real `openai.AsyncOpenAI` client whose transport is
an `httpx.MockTransport`: turn 1 reasons and calls get_weather, turn 2 answers (plain or streamed); or
run 1 reasons and answers, run 2 gets its items plus a question. Prints each request's messages, each
run's items, and how each run ended. A release that makes no reasoning item is not applicable.

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
    "tool-call-then-turn": dict(streamed=False, next_run=False),
    "tool-call-then-turn-streamed": dict(streamed=True, next_run=False),
    "next-run-input-list": dict(streamed=False, next_run=True),
}
QUESTION = "What is the weather in Paris?"
REASONING = "The user wants the weather in Paris; call get_weather."
ANSWER, ANSWER_2 = "It is sunny in Paris.", "Sunny again tomorrow."
CALL = dict(
    index=0, id="call_weather", type="function", function=dict(name="get_weather", arguments='{"city": "Paris"}')
)
SYMPTOM = "Unhandled item type or structure"


class NotApplicable(Exception):
    """The release lacks what the case needs."""


def chat(n, delta, streamed):
    """A chat.completion, or its chunks: the role, then one chunk per field of the delta, the finish."""
    finish = "tool_calls" if "tool_calls" in delta else "stop"
    if streamed:
        chunk = dict(id=f"c{n}", object="chat.completion.chunk", created=0, model="m", usage=None)
        deltas = [{"role": "assistant", "content": ""}, *({k: v} for k, v in delta.items()), {}]
        return [{**chunk, "choices": [dict(index=0, delta=d, finish_reason=None if d else finish)]} for d in deltas]
    choice = dict(index=0, message={"role": "assistant", "content": None, **delta}, finish_reason=finish)
    return dict(id=f"c{n}", object="chat.completion", created=0, model="m", choices=[choice])


async def run_agent(agent, run_input, streamed):
    """(result or None, the run's items, the exception or None)."""
    from agents import Runner

    seen = []
    try:
        if streamed:
            result = Runner.run_streamed(agent, input=run_input)
            async for event in result.stream_events():
                if getattr(event, "type", None) == "run_item_stream_event":
                    seen.append(event.item)
        else:
            result = await Runner.run(agent, input=run_input)
        return result, list(result.new_items), None
    except Exception as exc:  # the bug raises: an observation
        return None, seen, exc


async def observe(say, streamed, next_run):
    """Turn 1 with reasoning_content, then the turn (or run) after it; say what was sent and run."""
    # As the harness runs it, and from any shell: no trace leaves the process, and a placeholder key,
    # never a real one (openai-agents 0.0.x builds an OpenAI client on import and needs a key; the
    # scripted model sends no request).
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    os.environ["OPENAI_API_KEY"] = "sk-placeholder-not-used"
    import openai
    from agents import Agent, OpenAIChatCompletionsModel, function_tool

    # openai 3.x is built on httpx2 (the same API as httpx).
    httpx = importlib.import_module("httpx2" if int(openai.__version__.split(".")[0]) >= 3 else "httpx")
    if next_run:  # #1164: run 1 answers with reasoning; run 2 gets run 1's items as input
        turns = [dict(reasoning_content=REASONING, content=ANSWER), dict(content=ANSWER_2)]
    else:  # #1004: turn 1 reasons and calls the tool; turn 2 answers
        turns = [dict(reasoning_content=REASONING, tool_calls=[CALL]), dict(content=ANSWER)]
    served, tool_runs = [], []

    def handler(request):
        served.append(json.loads(request.content))
        reply = chat(len(served), turns[len(served) - 1], streamed)
        if not streamed:
            return httpx.Response(200, json=reply)
        sse = "".join(f"data: {json.dumps(chunk)}\n\n" for chunk in reply) + "data: [DONE]\n\n"
        return httpx.Response(200, content=sse.encode(), headers={"content-type": "text/event-stream"})

    @function_tool
    def get_weather(city: str) -> str:
        tool_runs.append(city)
        return f"sunny in {city}"

    http = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    client = openai.AsyncOpenAI(api_key="sk-dummy", base_url="http://fake.invalid/v1", max_retries=0, http_client=http)
    agent = Agent(
        name="assistant", model=OpenAIChatCompletionsModel(model="m", openai_client=client), tools=[get_weather]
    )
    runs = [("run", *await run_agent(agent, QUESTION, streamed))]
    if next_run and runs[0][3] is None:
        follow_up = runs[0][1].to_input_list() + [{"role": "user", "content": "And tomorrow?"}]
        runs.append(("run 2", *await run_agent(agent, follow_up, streamed)))
    kinds = [getattr(item, "type", "?") for item in runs[0][2]]
    error = next((err for *_, err in runs if err is not None), None)
    if "reasoning_item" not in kinds and not (error is not None and not kinds and not streamed):
        raise NotApplicable(
            "this release's Chat Completions path makes no reasoning item from the message's "
            f"reasoning_content (run items: {', '.join(kinds) or 'none'})"
        )
    for n, request in enumerate(served, 1):
        say(f"request {n}: {len(request['messages'])} messages")
        for message in request["messages"]:
            say(f"  {json.dumps(message, sort_keys=True)[:200]}")
    for label, result, items, err in runs:
        say(f"{label} items: {', '.join(getattr(item, 'type', '?') for item in items) or 'none'}")
        ending = f"raised {type(err).__name__}: {str(err)[:160]}" if err else f"finished: {result.final_output!r}"
        say(f"{label} {ending}")
    return dict(
        requests=len(served), next_run=next_run, tool_runs=len(tool_runs),
        error=None if error is None else f"{type(error).__name__}: {error}",
        final_output=getattr(runs[-1][1], "final_output", None),
        last_messages=served[-1]["messages"] if served else [],
    )  # fmt: skip


def judge(facts):
    """(outcome, detail): the turn (or run) after the reasoning item must be sent and finish."""
    turn = "the run after the reasoning answer" if facts["next_run"] else "the turn after the tool call"
    error, messages = facts["error"], facts["last_messages"]
    if error is not None:
        if SYMPTOM in error and "'reasoning'" in error:
            return (
                "reproduced",
                f"{turn} raised before its request was sent ({facts['requests']} of 2 requests): {error[:110]!r}",
            )
        return "unexpected", f"the run raised something else: {error[:140]!r}"
    if facts["requests"] != 2:
        return "unexpected", f"{facts['requests']} requests sent, expected 2"
    if any(isinstance(m, dict) and m.get("type") == "reasoning" for m in messages):
        return "unexpected", "the reasoning item was sent to Chat Completions as a message"
    role, text, what = (
        ("assistant", ANSWER, "run 1's answer") if facts["next_run"] else ("tool", "sunny in Paris", "the tool result")
    )
    if not any(m.get("role") == role and text in json.dumps(m.get("content")) for m in messages):
        return "unexpected", f"{turn} was sent without {what}"
    if not facts["next_run"] and facts["tool_runs"] != 1:
        return "unexpected", f"get_weather ran {facts['tool_runs']} times, expected once"
    expected = ANSWER_2 if facts["next_run"] else ANSWER
    if facts["final_output"] != expected:
        return "unexpected", f"the run finished with {facts['final_output']!r}, expected {expected!r}"
    return (
        "fixed",
        f"{turn} was sent (2 requests, {len(messages)} messages, with {what}); the run finished with {expected!r}",
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
