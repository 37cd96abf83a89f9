"""openai-agents: a streamed run with a session does not save the tool call and its output.

Upstream: https://github.com/openai/openai-agents-python/issues/2426 (reported on 0.8.0),
fixed by https://github.com/openai/openai-agents-python/pull/2433. With a session, a run
through ``Runner.run_streamed`` whose model calls a function tool saved the user's message and
the final answer, but not the ``function_call`` and its ``function_call_output``: the stream
showed ``tool_called`` / ``tool_output``, the session never got them, so the next turn's
model had no record of the call and called the tool again. The streamed loop of 0.8.0
(``agents/run_internal/run_loop.py`` ``start_streaming``) saved a turn's items on a final
output, a handoff or an interruption, but not when the turn ended in ``NextStepRunAgain`` (a
tool ran, the model goes again); the fix adds that save, as ``Runner.run`` always had.

The replay: one agent, one recording tool ``get_weather``, the scripted model calls it and
then answers; the session is the framework's ``SQLiteSession`` on a real file in a temporary
directory, read back through a second ``SQLiteSession`` opened on the same file.

Timeline: the run's item stream events (streamed case), what the tool was called with, and
every item stored in the session file, numbered. The oracle reads the stored items:
``fixed`` when they are the user's message, the call, its output and the answer, in that
order; ``reproduced`` when the tool ran but its call and/or output is missing while the
message and the answer are there; ``unexpected`` for anything else (the tool did not run
exactly once, an item stored twice, another order).

What the harness found (every final release from 0.2.0, the first with ``SQLiteSession``;
0.0.x-0.1.0 are not-applicable): only 0.8.0 reproduces. 0.2.0-0.7.0 save a run-again turn
from the streamed loop in ``agents/run.py``; 0.8.0 moved that loop to
``agents/run_internal/run_loop.py`` without the save (introduced 0.7.0 -> 0.8.0); 0.8.1 carries
PR #2433 (commit 56ec673e, the only change to run_loop.py or session_persistence.py between
the two tags; first fixed 0.8.0 -> 0.8.1). A binary search over the whole range cannot see a
one-release window (both ends are fixed), so each boundary was bisected on its own half
(``--to 0.8.0`` and ``--from 0.8.0``). The non-streamed path (the ``not-streamed`` control)
saves the call and its output on every release from 0.2.0.
"""

from __future__ import annotations

import contextlib
from functools import partial

from harness.runtime.outcomes import fixed, reproduced, unexpected
from harness.runtime.scenario import AsInstalled, Case, Edge, InProcess, Observation, Release, Scenario
from harness.runtime.timeline import Placeholders

USER_TEXT = "What is the weather in Paris?"
ANSWER = "It is sunny in Paris."
CALL_ID = "call-weather"
TOOL = "get_weather"
TOOL_RESULT = "sunny"


def _expected(ids: Placeholders) -> list[str]:
    """The stored items the report expects, described as the timeline describes them."""
    from harness.runtime.fakes import openai_agents as oa

    return _described(
        [
            {"role": "user", "content": USER_TEXT},
            oa.function_call(TOOL, {"city": "Paris"}, call_id=CALL_ID),
            {"type": "function_call_output", "call_id": CALL_ID, "output": TOOL_RESULT},
            oa.text_message(ANSWER, "msg-answer"),
        ],
        ids,
    )


def _described(items, ids: Placeholders) -> list[str]:
    """Each item as one line without its number, for comparing item sequences."""
    from harness.runtime.fakes import openai_agents as oa

    return [oa.describe_item(oa.raw_item(item), ids) for item in items]


async def replay(*, streamed: bool) -> Observation:
    """One tool turn and one answer, through a session on a real SQLite file."""
    from agents import Agent, Runner

    from harness.runtime.fakes import agents_sessions
    from harness.runtime.fakes import openai_agents as oa

    weather = oa.RecordingTool(TOOL, {"city": "string"}, result=TOOL_RESULT)
    model = oa.ScriptedModel(
        "weather",
        [[oa.function_call(TOOL, {"city": "Paris"}, call_id=CALL_ID)], [oa.text_message(ANSWER, "msg-answer")]],
    )
    agent = Agent(name="Weather", model=model, tools=[weather.tool])
    ids = Placeholders()
    ids.keep(CALL_ID, "msg-answer")
    lines: list[str] = []
    with agents_sessions.SessionFile() as store:
        session = store.open()
        if streamed:
            result = Runner.run_streamed(agent, USER_TEXT, session=session)
            events = await oa.drain_stream(result)
            lines.append(oa.item_events_line(events, "run_streamed item events"))
        else:
            result = await Runner.run(agent, USER_TEXT, session=session)
            lines.append(f"run: {len(result.new_items)} new items, final output {result.final_output!r}")
        stored, stored_lines = await store.read_back(ids)
    return Observation(
        timeline=[*lines, *weather.call_lines(ids), *stored_lines],
        facts={
            "stored": _described(stored, ids),
            "expected": _expected(ids),
            "tool_runs": len(weather.calls),
            "types": oa.counts_by_type(stored),
        },
    )


def judge(obs: Observation):
    f = obs.facts
    stored, expected = f["stored"], f["expected"]
    if f["tool_runs"] != 1:
        return unexpected(f"the tool ran {f['tool_runs']} times, expected once; session holds {len(stored)} items")
    if stored == expected:
        return fixed(f"session holds the call and its output: {len(stored)} items, {_summary(f)}")
    user, call, output, answer = expected
    # The symptom: the turn's messages are there, the tool turn's items are not (and nothing else is).
    if user in stored and answer in stored and (call not in stored or output not in stored) and len(stored) < 4:
        missing = [name for name, line in (("the function_call", call), ("its output", output)) if line not in stored]
        return reproduced(
            f"the tool ran once but the session holds {len(stored)} items ({_summary(f)}): "
            f"{' and '.join(missing)} of {CALL_ID} not saved"
        )
    return unexpected(
        f"session holds {len(stored)} items ({_summary(f)}), expected user, call, output, answer in order"
    )


def _summary(facts: dict) -> str:
    return ", ".join(f"{kind} x{n}" for kind, n in facts["types"].items()) or "nothing"


# --- proofs -------------------------------------------------------------------------------------
# 0.24.0 saves the tool turn from the streamed loop (agents/run_internal/run_loop.py
# `start_streaming`, the NextStepRunAgain branch, since PR #2433): the streamed case's fixed
# proof; 0.8.0 is its reproduced proof. The control holds on every release, so its reproduced
# proof breaks 0.24.0 in process: every agents module that imported
# `save_result_to_session` (agents/run_internal/session_persistence.py) gets a version that
# drops tool call items and their outputs before saving, which is what the session of a
# streamed run on 0.8.0 missed.

_TOOL_ITEM_TYPES = {"tool_call_item", "tool_call_output_item"}


@contextlib.contextmanager
def _drop_tool_items():
    import sys

    from agents.run_internal import session_persistence

    name = "save_result_to_session"
    original = getattr(session_persistence, name)

    async def save_without_tool_items(session, original_input, new_items, *args, **kwargs):
        kept = [item for item in new_items if getattr(item, "type", None) not in _TOOL_ITEM_TYPES]
        return await original(session, original_input, kept, *args, **kwargs)

    holders = [m for k, m in list(sys.modules.items()) if k.startswith("agents") and getattr(m, name, None) is original]
    for module in holders:
        setattr(module, name, save_without_tool_items)
    try:
        yield
    finally:
        for module in holders:
            setattr(module, name, original)


ONLY_RELEASE_WITH_THE_BUG = Release("openai-agents==0.8.0", "the release of the report, before PR #2433")
AS_INSTALLED = AsInstalled("the pinned release (0.24.0) saves the streamed tool turn (PR #2433, since 0.8.1)")

# --- edges: observations no build makes, one step across an oracle's line (nox -s mutants) ----


def _stored(*names: str):
    """An alteration: the session holds these of (user, call, output, answer), in that order."""

    def alter(obs: Observation) -> None:
        items = dict(zip(("user", "call", "output", "answer"), obs.facts["expected"], strict=True))
        obs.facts["stored"] = [items[name] for name in names]

    return alter


EDGES = (
    Edge("unexpected", "the tool turn saved but the answer lost", _stored("user", "call", "output"), AS_INSTALLED),
    Edge("reproduced", "the function_call saved but its output lost", _stored("user", "call", "answer"), AS_INSTALLED),
    Edge(
        "unexpected",
        "no tool item, but the turn's messages saved twice",
        _stored("user", "answer", "user", "answer"),
        AS_INSTALLED,
    ),
)

SCENARIO = Scenario(
    id="agents-streamed-session-tool-items",
    framework="openai-agents",
    links=(
        "https://github.com/openai/openai-agents-python/issues/2426",
        "https://github.com/openai/openai-agents-python/pull/2433",
    ),
    description=(
        "With a session, Runner.run_streamed saves the user's message and the final answer but "
        "not the tool call and its output of a turn that ran a tool, so the next turn's model "
        "never sees that the tool was called."
    ),
    expected=(
        "The session holds the user's message, the function_call, its function_call_output and "
        "the answer, in order, streamed or not."
    ),
    cases=(
        Case(
            "streamed",
            partial(replay, streamed=True),
            judge,
            {
                "reproduced": ONLY_RELEASE_WITH_THE_BUG,
                "fixed": AS_INSTALLED,
            },
            "Runner.run_streamed with a SQLiteSession on a file: one tool turn, then the answer",
            edges=EDGES,
        ),
        Case(
            "not-streamed",
            partial(replay, streamed=False),
            judge,
            {
                "reproduced": InProcess(
                    "0.24.0 with agents.run's save_result_to_session dropping tool call items", _drop_tool_items
                ),
                "fixed": AsInstalled("the pinned release (0.24.0) saves the tool turn of Runner.run"),
            },
            "the same run through Runner.run: must hold on every release",
            control=True,
        ),
    ),
)
