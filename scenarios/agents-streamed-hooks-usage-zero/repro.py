# /// script
# requires-python = ">=3.10"
# dependencies = ["openai-agents"]
# ///
"""openai-agents: in Runner.run_streamed, the `context.usage` that RunHooks receive stays at zero.

Upstream: https://github.com/openai/openai-agents-python/issues/594 (fix:
https://github.com/openai/openai-agents-python/pull/595, "Add usage to context in streaming"). With
`Runner.run`, each model response's usage is added to the run's RunContextWrapper, so a hook's
`context.usage` (requests, input, output and total tokens) counts the responses so far. The streamed loop
built each turn's ModelResponse with its usage from the `response.completed` event but never added it to the
context, so every hook of a streamed run (on_agent_end included) saw zero requests and zero tokens.
Expected: the streamed run's context accumulates each response's usage, as Runner.run's does.

The framework's own model classes (OpenAIResponsesModel, the reporter's default, and
OpenAIChatCompletionsModel with ModelSettings(include_usage=True), as in the report) over a real
`openai.AsyncOpenAI` client whose transport is an `httpx.MockTransport`: a two-turn run (a get_weather call,
then the answer), each response with usage (40 + 4 tokens, then 60 + 6), and RunHooks that note
`context.usage` at each hook. Prints each hook's usage and each turn's usage as the result holds it.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import dataclasses
import importlib
import json
import os
import sys

# api: which of the framework's model classes; streamed: Runner.run_streamed (else Runner.run); runs: how many
# runs one after the other, each with the same agent and hooks object.
CASES = {
    # The report: run_streamed with the default (Responses) model; on_agent_end sees no usage.
    "responses-streamed": dict(api="responses", streamed=True, runs=1),
    # The report's run_config: ModelSettings(include_usage=True), through Chat Completions.
    "chat-streamed": dict(api="chat", streamed=True, runs=1),
    # Two streamed runs in turn: the second run's hooks see its own usage only, as the first's did; a fix that
    # keeps the usage where it outlives a run (the agent, the model, the hooks) would go too far.
    "two-streamed-runs-own-usage": dict(api="responses", streamed=True, runs=2),
    # The report: "This issue does not happen when using Runner.run".
    "control-run": dict(api="responses", streamed=False, runs=1),
}
TURNS = ((40, 4), (60, 6))  # each response's usage: input, output tokens
ANSWER = "It is sunny in Paris."
ARGS = '{"city": "Paris"}'


class NotApplicable(Exception):
    """The release lacks what the case needs."""


def responses_reply(n, streamed):
    """Turn n's response (a get_weather call, then the answer) with its usage, or its response.completed event."""
    tokens_in, tokens_out = TURNS[n]
    details = dict(input_tokens_details=dict(cached_tokens=0), output_tokens_details=dict(reasoning_tokens=0))
    usage = dict(input_tokens=tokens_in, output_tokens=tokens_out, total_tokens=tokens_in + tokens_out, **details)
    if n == 0:
        item = dict(type="function_call", id="fc_1", call_id="call_1", name="get_weather", arguments=ARGS,
                    status="completed")  # fmt: skip
    else:
        text = dict(type="output_text", text=ANSWER, annotations=[])
        item = dict(type="message", id="msg_1", role="assistant", status="completed", content=[text])
    body = dict(id=f"resp_{n + 1}", object="response", created_at=0, model="m", status="completed", output=[item],
                parallel_tool_calls=True, tool_choice="auto", tools=[], usage=usage)  # fmt: skip
    return [{"type": "response.completed", "sequence_number": 0, "response": body}] if streamed else body


def chat_reply(n, streamed):
    """Turn n's chat.completion with its usage, or its chunks and the closing usage chunk."""
    tokens_in, tokens_out = TURNS[n]
    usage = dict(prompt_tokens=tokens_in, completion_tokens=tokens_out, total_tokens=tokens_in + tokens_out)
    if n == 0:
        call = dict(index=0, id="call_1", type="function", function=dict(name="get_weather", arguments=ARGS))
        delta, finish = {"tool_calls": [call]}, "tool_calls"
    else:
        delta, finish = {"content": ANSWER}, "stop"
    if not streamed:
        message = {"role": "assistant", "content": None, **delta}
        choice = dict(index=0, message=message, finish_reason=finish)
        return dict(id=f"c{n + 1}", object="chat.completion", created=0, model="m", choices=[choice], usage=usage)
    chunk = dict(id=f"c{n + 1}", object="chat.completion.chunk", created=0, model="m")
    deltas = [({"role": "assistant", "content": ""}, None), (delta, None), ({}, finish)]
    chunks = [{**chunk, "choices": [dict(index=0, delta=d, finish_reason=f)]} for d, f in deltas]
    return [*chunks, {**chunk, "choices": [], "usage": usage}, "[DONE]"]


def figures(usage):
    return (usage.requests, usage.input_tokens, usage.output_tokens)


async def observe(say, api, streamed, runs):
    """Run the two turns (each run in turn); say each hook's context.usage; return what the verdict reads."""
    # As the harness runs it, and from any shell: no trace leaves the process, and a placeholder key,
    # never a real one (openai-agents 0.0.x builds an OpenAI client on import and needs a key; the
    # fake transport sends no request out).
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    os.environ["OPENAI_API_KEY"] = "sk-placeholder-not-used"
    import openai
    from agents import (
        Agent,
        ModelSettings,
        OpenAIChatCompletionsModel,
        OpenAIResponsesModel,
        RunHooks,
        Runner,
        function_tool,
        set_tracing_disabled,
    )

    set_tracing_disabled(True)  # nothing is exported to OpenAI's tracing endpoint

    # openai 3.x is built on httpx2 (the same API as httpx).
    httpx = importlib.import_module("httpx2" if int(openai.__version__.split(".")[0]) >= 3 else "httpx")
    served = []
    reply = chat_reply if api == "chat" else responses_reply

    def handler(request):
        served.append(json.loads(request.content))
        body = reply((len(served) - 1) % len(TURNS), streamed)
        if not streamed:
            return httpx.Response(200, json=body)
        sse = "".join("data: [DONE]\n\n" if e == "[DONE]" else f"data: {json.dumps(e)}\n\n" for e in body)
        return httpx.Response(200, content=sse.encode(), headers={"content-type": "text/event-stream"})

    @function_tool
    def get_weather(city: str) -> str:
        return f"sunny in {city}"

    seen = []  # per run: [(hook, (requests, input tokens, output tokens))]

    class UsageHooks(RunHooks):
        """Notes context.usage at each hook (the parameter names are the base class's)."""

        def note(self, hook, context):
            seen[-1].append((hook, figures(context.usage)))

        async def on_agent_start(self, context, agent):
            self.note("on_agent_start", context)

        async def on_tool_start(self, context, agent, tool):
            self.note("on_tool_start", context)

        async def on_tool_end(self, context, agent, tool, result):
            self.note("on_tool_end", context)

        async def on_agent_end(self, context, agent, output):
            self.note("on_agent_end", context)

    http = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    client = openai.AsyncOpenAI(api_key="sk-dummy", base_url="http://fake.invalid/v1", max_retries=0, http_client=http)
    settings = {}
    if api == "chat" and "include_usage" in {f.name for f in dataclasses.fields(ModelSettings)}:
        # The report's setting; releases before it always asked for the usage chunk when streaming.
        settings["include_usage"] = True
    model_class = OpenAIChatCompletionsModel if api == "chat" else OpenAIResponsesModel
    agent = Agent(name="assistant", model=model_class(model="m", openai_client=client), tools=[get_weather],
                  model_settings=ModelSettings(**settings))  # fmt: skip
    hooks, turns, answers = UsageHooks(), [], []
    for n in range(1, runs + 1):
        seen.append([])
        try:
            if streamed:
                result = Runner.run_streamed(agent, input="What is the weather in Paris?", hooks=hooks)
                async for _ in result.stream_events():
                    pass
            else:
                result = await Runner.run(agent, input="What is the weather in Paris?", hooks=hooks)
        except Exception as exc:  # the framework's own failure is a fact (another bug reached first)
            error = f"{type(exc).__name__}: {exc}"
            say(f"run {n} raised {error[:160]}")
            return dict(served=len(served), runs=runs, seen=seen, turns=turns, answers=answers, error=error)
        turns.append([figures(response.usage) for response in result.raw_responses])
        answers.append(result.final_output)
        label = f"run {n} ({'run_streamed' if streamed else 'Runner.run'}, {model_class.__name__})"
        say(f"{label}: the result's responses carry usage {turns[-1]} (requests, input, output tokens)")
        for hook, usage in seen[-1]:
            say(f"{label}: {hook} sees context.usage requests={usage[0]} input_tokens={usage[1]} "
                f"output_tokens={usage[2]}")  # fmt: skip
    return dict(served=len(served), runs=runs, seen=seen, turns=turns, answers=answers, error=None)


def judge(facts):
    """(outcome, detail): each run's on_agent_end sees the usage of that run's two responses."""
    total = (len(TURNS), sum(t[0] for t in TURNS), sum(t[1] for t in TURNS))
    per_turn = [(1, *t) for t in TURNS]
    ends = [dict(hooks).get("on_agent_end") for hooks in facts["seen"]]
    figures = f"on_agent_end sees {ends} (requests, input, output tokens); the responses carry {facts['turns']}"
    if facts["error"] is not None:
        return "unexpected", f"the run raised {facts['error'][:140]}"
    if facts["served"] != len(TURNS) * facts["runs"] or facts["answers"] != [ANSWER] * facts["runs"]:
        return "unexpected", f"{facts['served']} requests served, answers {facts['answers']}; {figures}"
    if facts["turns"] != [per_turn] * facts["runs"]:
        return "unexpected", f"the responses do not carry the scripted usage: {figures}"
    if facts["runs"] == 1:
        (end,) = ends
        if end == total:
            return "fixed", figures
        return ("reproduced", f"the hooks saw no usage: {figures}") if end == (0, 0, 0) else ("unexpected", figures)
    # Two runs: the second must see what the first saw (its own responses only), whatever that is.
    first, second = ends
    if second == first:
        return "fixed", f"each run sees its own usage: {figures}"
    carried = second == tuple(a + b for a, b in zip(first, total, strict=True))
    return ("reproduced", f"the second run saw the first's usage too: {figures}") if carried else (
        "unexpected", figures)  # fmt: skip


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
