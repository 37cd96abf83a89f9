"""openai-agents: a reasoning item in a tool-call turn breaks the next turn on Chat Completions.

Symptom (openai/openai-agents-python#1004, duplicates #1164 and #1165): with a reasoning model
behind ``OpenAIChatCompletionsModel`` (DeepSeek-style providers send the model's thinking as
a non-standard ``reasoning_content`` field of the message, or of each streamed delta), the
first turn answers with a tool call; the SDK turns ``reasoning_content`` into a
``reasoning`` output item (``agents/models/chatcmpl_converter.py`` ``message_to_output_items``,
``chatcmpl_stream_handler.py`` for streams), the tool runs, and the second turn dies before
any request is sent: ``Converter.items_to_messages`` has no branch for the reasoning item it
was handed back and raises ``UserError: Unhandled item type or structure: {'id':
'__fake_id__', 'summary': [...], 'type': 'reasoning'}``. #1164 hits the same wall one run
later, when the first run's items (through a session or ``to_input_list()``) become the next
run's input.

Everything below the agent is real: the framework's ``OpenAIChatCompletionsModel`` over a real
``openai.AsyncOpenAI`` client whose HTTP transport is the scripted fake server of
``harness/runtime/fakes/openai_http.py`` (plain JSON, or server-sent events for the streamed case).

Timeline: every request the client sent (its messages, one line each), the run's items by
type, then how the run ended (its final output, or the exception). The oracle reads the
run's end: ``reproduced`` when it raised the converter's "Unhandled item type or structure"
on the reasoning item; ``fixed`` when the turn after the reasoning item was sent, carries
the tool result (or the previous run's answer) and the run finished with the scripted
answer; ``unexpected`` for anything else. A release whose Chat Completions path makes no
reasoning item from ``reasoning_content`` at all cannot show the bug: ``not-applicable``.

What the harness found (bisect over all 123 final releases, 0.0.2 .. 0.24.0; the source; the
thread's repro): the thread says "fixed in #871, released as 0.2.4". #871 (0.1.0) is the change
that *introduced* the bug: it taught the Chat Completions path to turn ``reasoning_content``
into a reasoning item, which ``items_to_messages`` could not take back; 0.0.19 and earlier
ignore ``reasoning_content`` (``not-applicable`` here). The fix is #1098 (commit bd527ad,
"convert litellm response with reasoning content to openai message"), whose
``maybe_reasoning_message`` branch skips the item: all three cases reproduce on 0.1.0 .. 0.2.3
and are fixed from 0.2.4. One release in between behaves a third way: 0.2.5, with the
openai 1.99.3 of its upload date, fails every Chat Completions tool-call turn with ``TypeError:
Cannot instantiate typing.Union`` (openai 1.99.2 made ``ChatCompletionMessageToolCallParam`` a
Union; #1401, #1417; fine again in 0.2.6), so the two tool-call cases are ``unexpected`` there.
#1164's own repro (the Session example, two rounds, ``SQLiteSession`` on a file) run with this
fake transport outside the harness agrees: round 2 raises the ``UserError`` on 0.2.3 and answers
on 0.2.4 and 0.24.0. The default release set (0.6 on) shows only ``fixed``; the ``reproduced``
side needs releases before 0.6 (0.1.0 .. 0.2.3), and the proof uses 0.2.3.
"""

from __future__ import annotations

import json
from functools import partial
from typing import Any

from harness.runtime.outcomes import fixed, reproduced, unexpected
from harness.runtime.scenario import AsInstalled, Case, Edge, NotApplicable, Observation, Release, Scenario
from harness.runtime.timeline import Placeholders, quote

QUESTION = "What is the weather in Paris?"
REASONING = "The user wants the weather in Paris; call get_weather."
ANSWER = "It is sunny in Paris."
FOLLOW_UP = "And tomorrow?"
ANSWER_2 = "Sunny again tomorrow."
TOOL_OUTPUT = "sunny in Paris"
SYMPTOM = "Unhandled item type or structure"


def _weather_tool():
    from harness.runtime.fakes.openai_agents import RecordingTool

    return RecordingTool("get_weather", {"city": "string"}, result=lambda args: f"sunny in {args['city']}")


async def _run(agent: Any, run_input: Any, streamed: bool) -> tuple[Any, list[Any], BaseException | None]:
    """Run the agent; return (result or None, the items seen, the exception or None)."""
    from agents import Runner

    seen: list[Any] = []
    try:
        if streamed:
            result = Runner.run_streamed(agent, input=run_input)
            async for event in result.stream_events():
                if getattr(event, "type", None) == "run_item_stream_event":
                    seen.append(event.item)
            return result, list(result.new_items), None
        result = await Runner.run(agent, input=run_input)
        return result, list(result.new_items), None
    except Exception as exc:  # the symptom is an exception; record it as data
        return None, seen, exc


async def replay(*, streamed: bool, next_run: bool = False) -> Observation:
    """Turn 1: reasoning + tool call (or reasoning + answer); then the turn (or run) after it."""
    from agents import Agent

    from harness.runtime.fakes import openai_http as oh

    fake = oh.FakeOpenAI()
    tool = _weather_tool()
    call = oh.tool_call("get_weather", {"city": "Paris"}, "call_weather")
    if next_run:  # #1164: run 1 answers with reasoning; run 2 gets run 1's items as input
        first = dict(content=ANSWER, reasoning_content=REASONING)
        second = dict(content=ANSWER_2)
    else:  # #1004: turn 1 reasons and calls the tool; turn 2 answers
        first = dict(tool_calls=[call], reasoning_content=REASONING)
        second = dict(content=ANSWER)
    for n, turn in enumerate((first, second), 1):
        if streamed:
            fake.add(oh.chat_stream_reply(oh.chat_chunks(id=f"chatcmpl-{n}", **turn)))
        else:
            fake.add(oh.chat_reply(oh.chat_completion(id=f"chatcmpl-{n}", **turn)))

    agent = Agent(name="assistant", model=fake.chat_model(), tools=[tool.tool])
    ids = Placeholders()
    ids.keep("call_weather")
    timeline: list[str] = []

    result, items, error = await _run(agent, QUESTION, streamed)
    runs = [("run", result, items, error)]
    if next_run and error is None:
        follow = result.to_input_list() + [{"role": "user", "content": FOLLOW_UP}]
        result2, items2, error2 = await _run(agent, follow, streamed)
        runs.append(("run 2", result2, items2, error2))
    if fake.problems:
        fake.check()  # a broken script is the harness's error, not a verdict

    first_items = runs[0][2]
    reasoning_items = [i for i in first_items if getattr(i, "type", None) == "reasoning_item"]
    ended_before_items = error is not None and not first_items and not streamed
    if not reasoning_items and not ended_before_items:
        raise NotApplicable(
            "this release's Chat Completions path makes no reasoning item from the message's "
            f"reasoning_content (run items: {', '.join(getattr(i, 'type', '?') for i in first_items) or 'none'})"
        )

    for n, request in enumerate(fake.requests, 1):
        head, *rest = oh.describe_request(request, ids)
        timeline.append(f"request {n}: {head}")
        timeline += rest
    for label, res, its, err in runs:
        timeline.append(f"{label} items:" + ("" if its else " none"))
        timeline += oh.run_item_lines(its, ids, indent="  ")
        if err is not None:
            timeline.append(f"{label} raised {type(err).__name__}: {quote(str(err), 160)}")
        else:
            timeline.append(f"{label} finished: final_output {quote(res.final_output)}")

    _, last_result, _, last_error = runs[-1]
    facts = {
        "requests": len(fake.requests),
        "expected_requests": 2,  # one per model turn, whether in one run or two
        "error": None
        if last_error is None and error is None
        else f"{type(error or last_error).__name__}: {error or last_error}",
        "final_output": getattr(last_result, "final_output", None),
        "expected_output": ANSWER_2 if next_run else ANSWER,
        "tool_calls": len(tool.calls),
        "next_run": next_run,
        "last_messages": (fake.requests[-1].body or {}).get("messages", []) if fake.requests else [],
    }
    return Observation(timeline=timeline, facts=facts)


def judge(obs: Observation):
    f = obs.facts
    turn = "the run after the reasoning answer" if f["next_run"] else "the turn after the tool call"
    if f["error"] is not None:
        if SYMPTOM in f["error"] and "'reasoning'" in f["error"]:
            return reproduced(
                f"{turn} raised before its request was sent ({f['requests']} of {f['expected_requests']} requests): "
                f"{quote(f['error'], 110)}"
            )
        return unexpected(f"the run raised something else: {quote(f['error'], 140)}")
    if f["requests"] != f["expected_requests"]:
        return unexpected(f"{f['requests']} requests sent, expected {f['expected_requests']}")
    messages = f["last_messages"]
    if any(isinstance(m, dict) and m.get("type") == "reasoning" for m in messages):
        return unexpected("the reasoning item was sent to Chat Completions as a message")
    if f["next_run"]:
        carried = any(m.get("role") == "assistant" and ANSWER in json.dumps(m.get("content")) for m in messages)
        what = "run 1's answer" if carried else "no answer from run 1"
    else:
        carried = any(m.get("role") == "tool" and TOOL_OUTPUT in json.dumps(m.get("content")) for m in messages)
        what = "the tool result" if carried else "no tool result"
    if not carried:
        return unexpected(f"{turn} was sent but carries {what}")
    if not f["next_run"] and f["tool_calls"] != 1:
        return unexpected(f"get_weather ran {f['tool_calls']} times, expected once")
    if f["final_output"] != f["expected_output"]:
        return unexpected(f"the run finished with {quote(f['final_output'])}, expected {quote(f['expected_output'])}")
    return fixed(
        f"{turn} was sent ({f['requests']} requests, {len(messages)} messages, with {what}); "
        f"the run finished with {quote(f['final_output'])}"
    )


BUGGY = Release("openai-agents==0.2.3", "the last release before #1098 (items_to_messages has no reasoning branch)")
FIXED_BUILD = AsInstalled("the pinned release (0.24.0) skips the reasoning item when it builds the next request")

# --- edges: observations no build makes, one step across an oracle's line (nox -s mutants) ----


def _refusal_of_another_item(obs: Observation) -> None:
    obs.facts["error"] = f"UserError: {SYMPTOM}: {{'type': 'web_search_call'}}"


def _sent_as_user(role: str):
    """An alteration: the messages with ``role`` reach the model as user messages."""

    def alter(obs: Observation) -> None:
        for message in obs.facts["last_messages"]:
            if isinstance(message, dict) and message.get("role") == role:
                message["role"] = "user"

    return alter


SCENARIO = Scenario(
    id="agents-reasoning-item-chat-completions",
    framework="openai-agents",
    links=(
        "https://github.com/openai/openai-agents-python/issues/1004",
        "https://github.com/openai/openai-agents-python/issues/1164",
        "https://github.com/openai/openai-agents-python/issues/1165",
        "https://github.com/openai/openai-agents-python/pull/871",
        "https://github.com/openai/openai-agents-python/pull/1098",
        "https://github.com/openai/openai-agents-python/issues/1401",
    ),
    description=(
        "On OpenAIChatCompletionsModel, a reasoning model's reasoning_content becomes a reasoning "
        "item; when it is handed back as input (the turn after a tool call, or the next run), "
        "Converter.items_to_messages raises 'Unhandled item type or structure' and no request is sent."
    ),
    expected=(
        "The reasoning item is dropped (or replayed as reasoning_content) when the next request is "
        "built; the turn after the tool call is sent with the tool result and the run finishes."
    ),
    cases=(
        Case(
            "tool-call-then-turn",
            partial(replay, streamed=False),
            judge,
            {
                "reproduced": BUGGY,
                "fixed": FIXED_BUILD,
            },
            "Runner.run: turn 1 sends reasoning_content and a tool call, turn 2 must be sent",
            edges=(
                Edge(
                    "unexpected",
                    "the converter's refusal, but of another item type",
                    _refusal_of_another_item,
                    FIXED_BUILD,
                ),
                Edge(
                    "unexpected",
                    "turn 2 sent, but the tool result in a user message",
                    _sent_as_user("tool"),
                    FIXED_BUILD,
                ),
            ),
        ),
        Case(
            "tool-call-then-turn-streamed",
            partial(replay, streamed=True),
            judge,
            {
                "reproduced": BUGGY,
                "fixed": FIXED_BUILD,
            },
            "the same through Runner.run_streamed over server-sent events (the thread's traceback)",
        ),
        Case(
            "next-run-input-list",
            partial(replay, streamed=False, next_run=True),
            judge,
            {
                "reproduced": BUGGY,
                "fixed": FIXED_BUILD,
            },
            "#1164: run 1 answers with reasoning_content; run 2 gets result.to_input_list() plus a question",
            edges=(
                Edge(
                    "unexpected",
                    "run 2 sent, but run 1's answer in a user message",
                    _sent_as_user("assistant"),
                    FIXED_BUILD,
                ),
            ),
        ),
    ),
)
