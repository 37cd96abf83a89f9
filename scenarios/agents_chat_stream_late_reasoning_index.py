"""openai-agents: a late reasoning delta in a Chat Completions stream reuses output_index 0.

Symptom (openai/openai-agents-python#5041; fix proposed in PR #5042):
``OpenAIChatCompletionsModel`` turns a Chat Completions chunk stream into Responses stream
events (``agents/models/chatcmpl_stream_handler.py``). The reasoning item is created lazily,
when the first ``reasoning_content`` delta arrives, and announced with a hard-coded
``output_index=0``. When assistant text or a tool call was streamed before it (providers that
interleave thinking, or send it late), slot 0 is already taken: two items are announced at index
0, the slots latched by ``_StreamOutputLayout`` (0.16.1 on, #3176) are computed without the
reasoning item, and the final ``response.completed`` output puts the reasoning item first
whatever was announced, so the indexes a stream consumer received disagree with the positions of
the items in the completed response (and the run's items come out in an order the model never
sent: from 0.16.1, in the text case, the first tool call lands before the message and the second
after it; on 0.16.1 .. 0.21.1 the next request then carries the two calls in two assistant
messages, the first not followed by its tool result, which the OpenAI Chat Completions API
refuses; from 0.22.3 the converter merges them again, the indexes stay wrong).

Everything below the agent is real: the framework's ``OpenAIChatCompletionsModel`` over a real
``openai.AsyncOpenAI`` client whose transport serves the scripted chunks as server-sent events
(``harness/runtime/fakes/openai_http.py``).

Timeline: the first turn's ``response.output_item.added`` / ``.done`` events in stream order
(``#index kind``), the ``response.completed`` output with positions, the second request and the
run's items. Oracle (the invariant #5041 cites from the Responses protocol, from the handler's
own ``_StreamOutputLayout`` docstring and from upstream's tests): every item of the completed
output is announced once, at an ``output_index`` that is its position in the completed output,
and closed at the same index. ``reproduced`` when any index disagrees or two items share one;
``fixed`` when all agree; ``unexpected`` when an item is missing or the run did not finish.

Cases: ``reasoning-after-text`` (text, then reasoning, then two tool calls), as in the issue;
``reasoning-after-tool-call`` (a tool call, then reasoning, then a second tool call);
``reasoning-first`` is the control: reasoning streamed before everything else, the order the
handler was written for, must hold on every release. The late cases open with the role chunk
the OpenAI API sends (``{"role": "assistant", "content": ""}``); the control's role chunk has no
``content``, because through 0.18.1 that empty leading delta opened an (empty) assistant message
at slot 0 before anything else, which made every reasoning delta "late" (0.18.2, #3769, drops an
empty leading delta; the same empty message shows as ``assistant ''`` in the streamed timelines
of agents-reasoning-item-chat-completions on older releases).

What the harness found (bisect over all 123 final releases; the installed source): both
late-reasoning cases reproduce on every release from 0.1.0 (the first whose Chat Completions
stream makes a reasoning item from ``reasoning_content``; earlier ones are ``not-applicable``)
to 0.24.0, the latest, so the bug is open on the latest release: 0.24.0's
``_StreamOutputLayout._reasoning_output_count`` and the hard-coded ``output_index=0`` of the
reasoning events are as #5041 describes (#5042 is not in it). Before 0.16.1 the slots were
counted differently (``function_call_starting_index``) and were wrong the same way: the message
and the reasoning item are both announced at 0. (0.2.0 loses the streamed tool call ids, and
0.1.0 .. 0.2.3 then fail turn 2 with #1004; turn 1 is judged all the same, the failure is in
the detail.) The control holds on 0.2.4 and on every release from 0.2.6, hence on the whole
default set; the older ones break it for other reasons: 0.1.0 announces both tool calls at one
index, 0.2.0 loses their call ids, 0.2.1 .. 0.2.3 cannot finish the run (#1004) nor can 0.2.5
(the openai 1.99 Union error of #1401; bisect, whose probes at 0.2.3 and 0.2.5 agree, does not
look inside, a run of 0.2.4 does). The ``fixed`` proof is an in-process reference fix: a wrapper around
``ChatCmplStreamHandler.handle_stream`` that gives each item the next free slot when it is first
announced and orders ``response.completed`` by those slots (the contract #5041 asks for; not the
code of #5042).
"""

from __future__ import annotations

import contextlib
from functools import partial
from typing import Any

from harness.runtime.outcomes import fixed, reproduced, unexpected
from harness.runtime.scenario import AsInstalled, Case, Edge, InProcess, NotApplicable, Observation, Scenario
from harness.runtime.timeline import Placeholders, quote

QUESTION = "Weather in Paris and Rome?"
TEXT = "Let me check both."
REASONING = "Two cities, two calls."
ANSWER = "Both are sunny."


def _chunks(order: str) -> list[dict[str, Any]]:
    """Turn 1's chunks: text, reasoning and two tool calls in the case's order."""
    from harness.runtime.fakes import openai_http as oh

    calls = [oh.tool_call("get_weather", {"city": c}, f"call_{c.lower()}") for c in ("Paris", "Rome")]
    # The control's role chunk carries no "content": "" (see the module docstring: before 0.18.2
    # that empty delta opened a message ahead of everything, which would make its reasoning late).
    role_content = None if order == "reasoning-first" else ""
    body = oh.chat_chunks(tool_calls=calls, role_content=role_content)  # role, call_paris, call_rome, finish
    role, finish = body[0], body[-1]
    heads = [i for i, c in enumerate(body) if (c["choices"][0]["delta"].get("tool_calls") or [{}])[0].get("id")]
    call_1, call_2 = body[heads[0] : heads[1]], body[heads[1] : -1]
    text = [oh.chat_chunk({"content": piece}) for piece in ("Let me ", "check both.")]
    reasoning = [oh.chat_chunk({"reasoning_content": REASONING})]
    if order == "reasoning-after-text":
        middle = text + reasoning + call_1 + call_2
    elif order == "reasoning-after-tool-call":
        middle = call_1 + reasoning + call_2
    else:  # reasoning-first
        middle = reasoning + text + call_1 + call_2
    return [role, *middle, finish]


def _key(item: Any, ids: Placeholders) -> str:
    """What names an output item: its kind, and a function call's call id (every id is __fake_id__)."""
    kind = getattr(item, "type", "?")
    if kind == "function_call":
        return f"function_call {ids('call', getattr(item, 'call_id', None))}"
    return str(kind)  # one message and one reasoning item at most per Chat Completions response


async def replay(order: str) -> Observation:
    from agents import Agent, Runner

    from harness.runtime.fakes import openai_http as oh
    from harness.runtime.fakes.openai_agents import RecordingTool, content_text

    fake = oh.FakeOpenAI()
    fake.add(oh.chat_stream_reply(_chunks(order)), oh.chat_stream_reply(oh.chat_chunks(ANSWER, id="chatcmpl-2")))
    weather = RecordingTool("get_weather", {"city": "string"}, result=lambda args: f"sunny in {args['city']}")
    agent = Agent(name="assistant", model=fake.chat_model(), tools=[weather.tool])
    ids = Placeholders()
    ids.keep("call_paris", "call_rome")  # scripted; an id the SDK makes up shows as call-N

    events: list[Any] = []
    error = None
    result = Runner.run_streamed(agent, input=QUESTION)
    try:
        async for event in result.stream_events():
            events.append(event)
    except Exception as exc:  # recorded; the oracle calls it unexpected
        error = exc
    fake.check()

    # Turn 1's events: the raw events up to its response.completed.
    announced: list[tuple[str, int, str]] = []
    completed: list[str] | None = None
    completed_lines: list[str] = []
    for event in events:
        if getattr(event, "type", None) != "raw_response_event":
            continue
        data = event.data
        kind = getattr(data, "type", "")
        if kind in ("response.output_item.added", "response.output_item.done"):
            announced.append((kind.rsplit(".", 1)[1], data.output_index, _key(data.item, ids)))
        elif kind == "response.completed":
            completed = [_key(item, ids) for item in data.response.output]
            for n, item in enumerate(data.response.output):
                text = f" {quote(content_text(item.content))}" if getattr(item, "type", None) == "message" else ""
                completed_lines.append(f"  #{n} {completed[n]}{text}")
            break

    if error is None and completed is not None and "reasoning" not in completed:
        raise NotApplicable(
            "this release's Chat Completions stream makes no reasoning item from reasoning_content deltas "
            f"(turn 1 output: {', '.join(completed) or 'nothing'})"
        )
    timeline = ["turn 1 stream:"]
    timeline += [f"  {what} #{index} {key}" for what, index, key in announced]
    timeline.append("turn 1 response.completed output:")
    timeline += completed_lines
    for n, request in enumerate(fake.requests[1:], 2):
        head, *rest = oh.describe_request(request, ids)
        timeline.append(f"request {n}: {head}")
        timeline += rest
    timeline.append("run items:")
    timeline += oh.run_item_lines(getattr(result, "new_items", []), ids, indent="  ")
    if error is not None:
        timeline.append(f"run raised {type(error).__name__}: {quote(str(error), 160)}")
    else:
        timeline.append(f"run finished: final_output {quote(result.final_output)}")
    facts = {
        "announced": announced,
        "completed": completed,
        "error": None if error is None else f"{type(error).__name__}: {error}",
        "final_output": None if error is not None else result.final_output,
        "tool_calls": len(weather.calls),
    }
    return Observation(timeline=timeline, facts=facts)


def judge(obs: Observation):
    f = obs.facts
    if f["completed"] is None:
        tail = f": {quote(f['error'], 140)}" if f["error"] else ""
        return unexpected("turn 1 never sent response.completed" + tail)
    completed = f["completed"]
    position = {key: n for n, key in enumerate(completed)}
    added = [(index, key) for what, index, key in f["announced"] if what == "added"]
    done = [(index, key) for what, index, key in f["announced"] if what == "done"]
    missing = [k for k in completed if k not in {key for _, key in added}]
    extra = [k for _, k in added if k not in position]
    twice = sorted({k for k in completed if completed.count(k) > 1})
    if missing or extra or twice:
        return unexpected(
            f"announced items and response.completed output differ (never announced: {missing or 'none'}; "
            f"announced but not in the output: {extra or 'none'}; twice in the output: {twice or 'none'})"
        )
    problems = []
    by_index: dict[int, list[str]] = {}
    for index, key in added:
        by_index.setdefault(index, []).append(key)
    for index, keys in sorted(by_index.items()):
        if len(keys) > 1:
            problems.append(f"{len(keys)} items announced at output_index {index} ({', '.join(keys)})")
    for index, key in added:
        if index != position[key]:
            problems.append(f"{key} announced at {index} but is #{position[key]} of the completed output")
    for index, key in done:
        if key in position and index != position[key] and all(key not in p for p in problems):
            problems.append(f"{key} closed at {index} but is #{position[key]} of the completed output")
    # Turn 1 is judged whatever happens after it; a later failure is reported, never hidden.
    later = f"; the run then raised {quote(f['error'], 90)}" if f["error"] else ""
    if problems:
        return reproduced("; ".join(problems) + later)
    if f["error"] is not None:
        return unexpected("turn 1's indexes agree" + later)
    if f["final_output"] != ANSWER or f["tool_calls"] != 2:
        return unexpected(
            f"the run finished with {quote(f['final_output'])} after {f['tool_calls']} tool calls, expected 2"
        )
    return fixed(
        f"{len(added)} items announced at output_index {', '.join(str(i) for i, _ in added)}, "
        "each its position in response.completed output and closed at the same index"
    )


# --- builds used to prove the oracles (tests only) -------------------------------------------
# 0.24.0 has the bug. The reference fix wraps agents/models/chatcmpl_stream_handler.py
# `ChatCmplStreamHandler.handle_stream`: an item's slot is the next free one when it is first
# announced (output_item.added); every event of the item carries that slot; response.completed's
# output is ordered by slot. (Function-call events are matched by their original index, which is
# unique among function calls; the message and the reasoning item are one each per response.)


def _slot_key(item: Any) -> tuple:
    kind = getattr(item, "type", None)
    return ("function_call", getattr(item, "call_id", None)) if kind == "function_call" else (kind,)


def _event_key(event: Any, calls_by_index: dict[int, tuple]) -> tuple | None:
    kind = getattr(event, "type", "")
    if kind.startswith("response.reasoning"):
        return ("reasoning",)
    if kind.startswith(("response.output_text", "response.content_part", "response.refusal")):
        return ("message",)
    if kind.startswith("response.function_call_arguments"):
        return calls_by_index.get(event.output_index)
    return None


@contextlib.contextmanager
def _slot_per_item():
    from agents.models.chatcmpl_stream_handler import ChatCmplStreamHandler

    original = ChatCmplStreamHandler.__dict__["handle_stream"]
    inner = original.__func__

    async def handle_stream(cls, *args, **kwargs):
        slots: dict[tuple, int] = {}
        calls_by_index: dict[int, tuple] = {}
        async for event in inner(cls, *args, **kwargs):
            kind = getattr(event, "type", "")
            if kind in ("response.output_item.added", "response.output_item.done"):
                key = _slot_key(event.item)
                if key[0] == "function_call":
                    calls_by_index.setdefault(event.output_index, key)
                event.output_index = slots.setdefault(key, len(slots))
            elif kind == "response.completed":
                response = event.response.model_copy()
                response.output = sorted(event.response.output, key=lambda i: slots.get(_slot_key(i), len(slots)))
                event.response = response
            elif hasattr(event, "output_index"):
                key = _event_key(event, calls_by_index)
                if key is not None:
                    event.output_index = slots.setdefault(key, len(slots))
            yield event

    ChatCmplStreamHandler.handle_stream = classmethod(handle_stream)
    try:
        yield
    finally:
        ChatCmplStreamHandler.handle_stream = original


@contextlib.contextmanager
def _message_slot_ignores_reasoning():
    from agents.models.chatcmpl_stream_handler import _StreamOutputLayout

    original = _StreamOutputLayout.__dict__["_reasoning_output_count"]
    # The assistant message and the function calls are placed as if no reasoning item came
    # before them: the misalignment #3109 / #3176 fixed, put back for the control's proof.
    _StreamOutputLayout._reasoning_output_count = staticmethod(lambda state: 0)
    try:
        yield
    finally:
        _StreamOutputLayout._reasoning_output_count = original


REFERENCE_FIX = InProcess(
    "0.24.0 with ChatCmplStreamHandler.handle_stream wrapped: each item gets the next free output slot "
    "when first announced, response.completed ordered by slot (reference fix, not #5042's code)",
    _slot_per_item,
)
AS_INSTALLED_BUG = AsInstalled("the pinned release (0.24.0, the latest) still announces a late reasoning item at 0")
BROKEN_CONTROL = InProcess(
    "0.24.0 with _StreamOutputLayout placing the message and calls as if no reasoning came first (#3109 put back)",
    _message_slot_ignores_reasoning,
)

# --- edges: observations no build makes, one step across an oracle's line (nox -s mutants) ----


def _without_first(what: str):
    """An alteration: the stream lacks the first output_item.<what> event."""

    def alter(obs: Observation) -> None:
        announced = obs.facts["announced"]
        announced.remove(next(a for a in announced if a[0] == what))

    return alter


def _closed_elsewhere(obs: Observation) -> None:
    announced = obs.facts["announced"]
    n, (what, _, key) = next((n, a) for n, a in enumerate(announced) if a[0] == "done")
    announced[n] = (what, len(obs.facts["completed"]), key)


def _announced_twice(obs: Observation) -> None:
    announced = obs.facts["announced"]
    announced.append(next(a for a in announced if a[0] == "added"))


def _completed_twice(obs: Observation) -> None:
    obs.facts["completed"].append(obs.facts["completed"][0])


def _three_tool_calls(obs: Observation) -> None:
    obs.facts["tool_calls"] = 3


EDGES = (
    Edge("unexpected", "an item of the completed output was never announced", _without_first("added"), REFERENCE_FIX),
    Edge("unexpected", "an item twice in the completed output", _completed_twice, REFERENCE_FIX),
    Edge("reproduced", "an item closed at another index than its position", _closed_elsewhere, REFERENCE_FIX),
    Edge(
        "reproduced",
        "an item announced twice at its own index: two announcements at one output_index",
        _announced_twice,
        REFERENCE_FIX,
    ),
    # The oracle checks the closings there are; an item never closed is not one of its figures.
    Edge("fixed", "an item announced at its position but never closed", _without_first("done"), REFERENCE_FIX),
    Edge("unexpected", "the indexes agree, but get_weather ran three times", _three_tool_calls, REFERENCE_FIX),
)

SCENARIO = Scenario(
    id="agents-chat-stream-late-reasoning-index",
    framework="openai-agents",
    links=(
        "https://github.com/openai/openai-agents-python/issues/5041",
        "https://github.com/openai/openai-agents-python/pull/5042",
        "https://github.com/openai/openai-agents-python/pull/3176",
    ),
    description=(
        "On OpenAIChatCompletionsModel streams, a reasoning_content delta that arrives after text "
        "or a tool call is announced at output_index 0, which another item already holds, and "
        "response.completed puts it first: announced indexes and completed positions disagree."
    ),
    expected=(
        "Every output item is announced once, at the index that is its position in "
        "response.completed output, and closed at that index, whatever order the deltas come in."
    ),
    cases=(
        Case(
            "reasoning-after-text",
            partial(replay, "reasoning-after-text"),
            judge,
            {"reproduced": AS_INSTALLED_BUG, "fixed": REFERENCE_FIX},
            "chunks: text, reasoning_content, two tool calls (the issue's order)",
            edges=EDGES,
        ),
        Case(
            "reasoning-after-tool-call",
            partial(replay, "reasoning-after-tool-call"),
            judge,
            {"reproduced": AS_INSTALLED_BUG, "fixed": REFERENCE_FIX},
            "chunks: a tool call, reasoning_content, a second tool call",
        ),
        Case(
            "reasoning-first",
            partial(replay, "reasoning-first"),
            judge,
            {"reproduced": BROKEN_CONTROL, "fixed": AsInstalled("the pinned release (0.24.0)")},
            "control: reasoning_content, text, two tool calls: the order the handler expects",
            control=True,
        ),
    ),
)
