# /// script
# requires-python = ">=3.10"
# dependencies = ["openai-agents"]
# ///
"""openai-agents: a model call whose response has no usage counts as zero requests.

Upstream: https://github.com/openai/openai-agents-python/pull/4290 (Chat Completions) and
https://github.com/openai/openai-agents-python/pull/4453 (Responses API). The adapters built a
turn's usage as `Usage(requests=1, ...) if response.usage else Usage()`, so a run whose provider
omits the usage block reports `usage.requests == 0` however many requests it made.

The framework's own model classes over a real `openai.AsyncOpenAI` client whose transport is an
`httpx.MockTransport`: a two-turn run (a get_weather call, then the answer), both responses
without usage, plain or streamed. Prints each request sent, each turn's usage and the run's total.

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
    "chat-completions": dict(api="chat", streamed=False),
    "chat-completions-streamed": dict(api="chat", streamed=True),
    "responses": dict(api="responses", streamed=False),
    "responses-streamed": dict(api="responses", streamed=True),
}
ANSWER = "It is sunny in Paris."
ARGS = '{"city": "Paris"}'


class NotApplicable(Exception):
    """The release lacks what the case needs."""


def chat_reply(n, delta, finish, streamed):
    """A chat.completion without usage, or its chunks without a usage chunk."""
    if streamed:
        chunk = dict(id=f"c{n}", object="chat.completion.chunk", created=0, model="m", usage=None)
        deltas = [({"role": "assistant", "content": ""}, None), (delta, None), ({}, finish)]
        return [{**chunk, "choices": [dict(index=0, delta=d, finish_reason=f)]} for d, f in deltas] + ["[DONE]"]
    choice = dict(index=0, message={"role": "assistant", "content": None, **delta}, finish_reason=finish)
    return dict(id=f"c{n}", object="chat.completion", created=0, model="m", choices=[choice])


def responses_reply(n, item, streamed):
    """A response with usage null, or its response.completed event."""
    body = dict(id=f"r{n}", object="response", created_at=0, model="m", status="completed", output=[item])
    body.update(parallel_tool_calls=True, tool_choice="auto", tools=[], usage=None)
    return [{"type": "response.completed", "sequence_number": 0, "response": body}] if streamed else body


def replies(api, streamed):
    if api == "chat":
        call = dict(index=0, id="call_1", type="function", function=dict(name="get_weather", arguments=ARGS))
        return [chat_reply(1, {"tool_calls": [call]}, "tool_calls", streamed),
                chat_reply(2, {"content": ANSWER}, "stop", streamed)]  # fmt: skip
    text = dict(type="output_text", text=ANSWER, annotations=[])
    call = dict(type="function_call", id="fc_1", call_id="call_1", name="get_weather", arguments=ARGS)
    answer = dict(type="message", id="msg_1", role="assistant", status="completed", content=[text])
    return [responses_reply(1, call, streamed), responses_reply(2, answer, streamed)]


def usage_line(usage):
    return f"requests={usage.requests} input_tokens={usage.input_tokens} output_tokens={usage.output_tokens}"


async def observe(say, api, streamed):
    """Run the two turns; say what was sent and counted; return what the verdict reads."""
    # As the harness runs it, and from any shell: no trace leaves the process, and a placeholder key,
    # never a real one (openai-agents 0.0.x builds an OpenAI client on import and needs a key; the
    # scripted model sends no request).
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    os.environ["OPENAI_API_KEY"] = "sk-placeholder-not-used"
    import openai
    from agents import (
        Agent,
        OpenAIChatCompletionsModel,
        OpenAIResponsesModel,
        Runner,
        function_tool,
        set_tracing_disabled,
    )

    set_tracing_disabled(True)  # nothing is exported to OpenAI's tracing endpoint

    # openai 3.x is built on httpx2 (the same API as httpx).
    httpx = importlib.import_module("httpx2" if int(openai.__version__.split(".")[0]) >= 3 else "httpx")
    served, scripted = [], replies(api, streamed)

    def handler(request):
        served.append(json.loads(request.content))
        reply = scripted[len(served) - 1]
        if not streamed:
            return httpx.Response(200, json=reply)
        sse = "".join("data: [DONE]\n\n" if e == "[DONE]" else f"data: {json.dumps(e)}\n\n" for e in reply)
        return httpx.Response(200, content=sse.encode(), headers={"content-type": "text/event-stream"})

    @function_tool
    def get_weather(city: str) -> str:
        return f"sunny in {city}"

    http = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    client = openai.AsyncOpenAI(api_key="sk-dummy", base_url="http://fake.invalid/v1", max_retries=0, http_client=http)
    model_class = OpenAIChatCompletionsModel if api == "chat" else OpenAIResponsesModel
    agent = Agent(name="assistant", model=model_class(model="m", openai_client=client), tools=[get_weather])
    error = None
    try:
        if streamed:
            result = Runner.run_streamed(agent, input="What is the weather in Paris?")
            async for _ in result.stream_events():
                pass
        else:
            result = await Runner.run(agent, input="What is the weather in Paris?")
    except Exception as exc:
        error = f"{type(exc).__name__}: {exc}"
    for n, request in enumerate(served, 1):
        say(f"request {n}: {json.dumps(request.get('messages', request.get('input')))[:200]}")
    if error:
        say(f"run raised {error[:160]}")
        return dict(served=len(served), error=error)
    total = getattr(getattr(result, "context_wrapper", None), "usage", None)
    if total is None:
        raise NotApplicable("RunResult has no context_wrapper.usage (the run's usage total)")
    for n, response in enumerate(result.raw_responses, 1):
        say(f"turn {n} usage: {usage_line(response.usage)}")
    say(f"run total usage: {usage_line(total)}")
    say(f"run finished: final_output {result.final_output!r}")
    return dict(
        served=len(served), error=None, requests=total.requests, final_output=result.final_output,
        tokens=(total.input_tokens, total.output_tokens, total.total_tokens),
        turn_requests=[r.usage.requests for r in result.raw_responses],
    )  # fmt: skip


def judge(facts):
    """(outcome, detail): the fake served two requests; the run must count two."""
    if facts["error"] is not None:
        return "unexpected", f"the run raised: {facts['error'][:140]}"
    if facts["served"] != 2 or facts["final_output"] != ANSWER:
        return (
            "unexpected",
            f"the fake served {facts['served']} requests (expected 2), answer {facts['final_output']!r}",
        )
    per_turn = ", ".join(str(r) for r in facts["turn_requests"])
    figures = f"usage.requests {facts['requests']} for 2 completed requests without usage (per turn: {per_turn})"
    if facts["tokens"] != (0, 0, 0):
        return "unexpected", f"{figures}, but tokens {facts['tokens']} were counted from responses that report none"
    if facts["requests"] < 2:
        return "reproduced", figures
    return ("fixed", figures) if facts["requests"] == 2 else ("unexpected", figures)


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
