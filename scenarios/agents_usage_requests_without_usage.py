"""openai-agents: a model call whose response has no usage counts as zero requests.

Symptom (openai/openai-agents-python PR #4281, taken over as #4290 for Chat Completions; PR
#4444, taken over as #4453 for the Responses API): ``Usage.requests`` is documented as the
total number of requests made to the LLM API, but the model adapters built the turn's usage
as ``Usage(requests=1, ...) if response.usage else Usage()``, so a completed call whose
provider omits the ``usage`` block (many OpenAI-compatible gateways do; a Chat Completions
stream without a usage chunk; a Responses ``response.completed`` with ``usage: null``)
counted as zero. Over a run, ``result.context_wrapper.usage.requests`` stays 0 however many
HTTP calls were made, so request accounting and rate-limit tracking built on it undercount.

The model classes are the framework's own (``OpenAIChatCompletionsModel``,
``OpenAIResponsesModel``) over a real ``openai.AsyncOpenAI`` client and the scripted fake
server of ``harness/runtime/fakes/openai_http.py``: a two-turn run (a tool call, then the answer) whose two
responses carry no usage at all, plain or streamed.

Timeline: each request the client sent (its messages or input items), each turn's usage as
the run recorded it (``result.raw_responses[n].usage``), and the run's total
(``result.context_wrapper.usage``). Oracle: the fake served 2 requests; ``reproduced`` when
the run's total counts fewer (0 on releases with the bug), ``fixed`` when it counts exactly 2
with no invented tokens, ``unexpected`` otherwise (more requests than were made, tokens out of
nothing, a run that did not finish).

What the harness found (bisect over all 123 final releases, 0.0.2 .. 0.24.0; confirmed in the
installed source of the boundary releases): the Chat Completions cases reproduce on every
release from 0.0.14 (the first whose ``RunResult`` has ``context_wrapper.usage``; earlier ones
are ``not-applicable``) up to 0.19.4 and are fixed from 0.20.0 (#4290, commit 9c6cadf: 0.19.4's
``openai_chatcompletions.py`` has ``else Usage()``, 0.20.0's ``else Usage(requests=1)``, and
``_requests_for_response_without_usage`` for streams). The Responses cases stay reproduced one
release longer, through 0.21.0 (its ``openai_responses.py`` still has ``else Usage()``), and are
fixed from 0.21.1 (#4453, commit 94da8ed: ``_mark_transport_request_without_usage`` and
``_usage_from_response``), as #4444's thread says when it contrasts the two adapters on one
main. (On 0.2.5 the Chat Completions cases cannot finish: any tool-call turn raises ``TypeError:
Cannot instantiate typing.Union`` with the openai 1.99.3 of its date, #1401.)
"""

from __future__ import annotations

from functools import partial
from typing import Any

from harness.runtime.outcomes import fixed, reproduced, unexpected
from harness.runtime.scenario import AsInstalled, Case, Edge, NotApplicable, Observation, Release, Scenario
from harness.runtime.timeline import Placeholders, quote

QUESTION = "What is the weather in Paris?"
ANSWER = "It is sunny in Paris."
TURNS = 2  # HTTP requests the fake serves: the tool call, then the answer


def _script(fake: Any, api: str, streamed: bool) -> None:
    from harness.runtime.fakes import openai_http as oh
    from harness.runtime.fakes import responses_api as ra

    if api == "chat":
        call = oh.tool_call("get_weather", {"city": "Paris"}, "call_weather")
        turns = [dict(tool_calls=[call]), dict(content=ANSWER)]
        for n, turn in enumerate(turns, 1):
            # usage=None: the completion has no usage block; the stream ends without a usage chunk
            if streamed:
                fake.add(oh.chat_stream_reply(oh.chat_chunks(id=f"chatcmpl-{n}", **turn)))
            else:
                fake.add(oh.chat_reply(oh.chat_completion(id=f"chatcmpl-{n}", **turn)))
        return
    outputs = [
        [ra.output_function_call("get_weather", {"city": "Paris"}, "call_weather")],
        [ra.output_message(ANSWER, "msg_answer")],
    ]
    for n, output in enumerate(outputs, 1):
        if streamed:  # response.completed carries "usage": null
            fake.add(oh.responses_stream_reply(ra.response_events(output, id=f"resp-{n}")))
        else:
            fake.add(oh.responses_reply(ra.response(output, id=f"resp-{n}")))


def _usage_line(usage: Any) -> str:
    if usage is None:
        return "no usage"
    return (
        f"requests={getattr(usage, 'requests', '?')} input_tokens={getattr(usage, 'input_tokens', '?')} "
        f"output_tokens={getattr(usage, 'output_tokens', '?')} total_tokens={getattr(usage, 'total_tokens', '?')}"
    )


async def replay(*, api: str, streamed: bool) -> Observation:
    """A two-turn run whose responses carry no usage; read back what the run counted."""
    from agents import Agent, Runner

    from harness.runtime.fakes import openai_http as oh
    from harness.runtime.fakes.openai_agents import RecordingTool

    weather = RecordingTool("get_weather", {"city": "string"}, result=lambda args: f"sunny in {args['city']}")

    fake = oh.FakeOpenAI()
    _script(fake, api, streamed)
    model = fake.chat_model() if api == "chat" else fake.responses_model()
    agent = Agent(name="assistant", model=model, tools=[weather.tool])
    error = None
    result = None
    try:
        if streamed:
            result = Runner.run_streamed(agent, input=QUESTION)
            async for _ in result.stream_events():
                pass
        else:
            result = await Runner.run(agent, input=QUESTION)
    except Exception as exc:  # recorded; the oracle calls it unexpected
        error = exc
    fake.check()  # a broken script is the harness's error, not a verdict

    ids = Placeholders()
    ids.keep("call_weather", "msg_answer")  # scripted; ids the SDK makes up show as call-N, msg-N
    timeline: list[str] = []
    for n, request in enumerate(fake.requests, 1):
        head, *rest = oh.describe_request(request, ids)
        timeline.append(f"request {n}: {head}")
        timeline += rest
    raw = list(getattr(result, "raw_responses", None) or [])
    for n, response in enumerate(raw, 1):
        timeline.append(f"turn {n} usage: {_usage_line(getattr(response, 'usage', None))}")
    total = getattr(getattr(result, "context_wrapper", None), "usage", None) if error is None else None
    if error is None and total is None:
        raise NotApplicable("RunResult has no context_wrapper.usage (the run's usage total came in 0.0.14)")
    if error is not None:
        timeline.append(f"run raised {type(error).__name__}: {quote(str(error), 160)}")
    else:
        timeline.append(f"run total usage: {_usage_line(total)}")
        timeline.append(f"run finished: final_output {quote(result.final_output)}")
    facts = {
        "served": len(fake.requests),
        "error": None if error is None else f"{type(error).__name__}: {error}",
        "requests": getattr(total, "requests", None),
        "tokens": None if total is None else (total.input_tokens, total.output_tokens, total.total_tokens),
        "turn_requests": [getattr(getattr(r, "usage", None), "requests", None) for r in raw],
        "final_output": None if result is None or error is not None else result.final_output,
    }
    return Observation(timeline=timeline, facts=facts)


def judge(obs: Observation):
    f = obs.facts
    if f["error"] is not None:
        return unexpected(f"the run raised: {quote(f['error'], 140)}")
    if f["served"] != TURNS or f["final_output"] != ANSWER:
        return unexpected(
            f"the fake served {f['served']} requests (expected {TURNS}), final output {quote(f['final_output'])}"
        )
    per_turn = ", ".join(str(r) for r in f["turn_requests"])
    figures = (
        f"usage.requests {f['requests']} for {f['served']} completed requests without usage (per turn: {per_turn})"
    )
    if f["tokens"] != (0, 0, 0):
        return unexpected(f"{figures}, but tokens {f['tokens']} were counted from responses that report none")
    if f["requests"] is not None and f["requests"] < f["served"]:
        return reproduced(figures)
    if f["requests"] == f["served"]:
        return fixed(figures)
    return unexpected(figures)


_FIXED = AsInstalled("the pinned release (0.24.0) counts a completed request without usage")
_CHAT_BUGGY = Release(
    "openai-agents==0.19.4", "the last release before #4290 (Chat Completions: Usage() without usage)"
)
_RESPONSES_BUGGY = Release("openai-agents==0.21.0", "the last release before #4453 (Responses: Usage() without usage)")

# --- edges: observations no build makes, one step across an oracle's line (nox -s mutants) ----


def _another_answer(obs: Observation) -> None:
    obs.facts["final_output"] = "Something else entirely."


ANOTHER_ANSWER = Edge(
    "unexpected", "both requests served, but the run ends with another answer", _another_answer, _FIXED
)

SCENARIO = Scenario(
    id="agents-usage-requests-without-usage",
    framework="openai-agents",
    links=(
        "https://github.com/openai/openai-agents-python/pull/4281",
        "https://github.com/openai/openai-agents-python/pull/4290",
        "https://github.com/openai/openai-agents-python/pull/4444",
        "https://github.com/openai/openai-agents-python/pull/4453",
    ),
    description=(
        "When a provider's response carries no usage block, OpenAIChatCompletionsModel and "
        "OpenAIResponsesModel report Usage() for the turn, so usage.requests stays 0 for a run "
        "that made real API calls."
    ),
    expected=(
        "Every completed model request counts once in usage.requests, with or without a usage block; "
        "no tokens are invented."
    ),
    cases=(
        Case(
            "chat-completions",
            partial(replay, api="chat", streamed=False),
            judge,
            {"reproduced": _CHAT_BUGGY, "fixed": _FIXED},
            "OpenAIChatCompletionsModel, Runner.run, two chat.completion replies without usage",
            edges=(ANOTHER_ANSWER,),
        ),
        Case(
            "chat-completions-streamed",
            partial(replay, api="chat", streamed=True),
            judge,
            {"reproduced": _CHAT_BUGGY, "fixed": _FIXED},
            "OpenAIChatCompletionsModel, Runner.run_streamed, two chunk streams with no usage chunk",
        ),
        Case(
            "responses",
            partial(replay, api="responses", streamed=False),
            judge,
            {"reproduced": _RESPONSES_BUGGY, "fixed": _FIXED},
            "OpenAIResponsesModel, Runner.run, two responses with usage null",
        ),
        Case(
            "responses-streamed",
            partial(replay, api="responses", streamed=True),
            judge,
            {"reproduced": _RESPONSES_BUGGY, "fixed": _FIXED},
            "OpenAIResponsesModel, Runner.run_streamed, response.completed with usage null",
        ),
    ),
)
