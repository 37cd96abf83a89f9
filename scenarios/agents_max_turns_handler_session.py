"""openai-agents: a max_turns error handler's final output is not saved to the session by Runner.run.

Upstream: https://github.com/openai/openai-agents-python/pull/4160 ("persist the max-turns
handler output to the session"; its description holds the reproduction and its test). A run
given ``error_handlers={"max_turns": handler}`` whose handler returns
``RunErrorHandlerResult(final_output=..., include_in_history=True)`` ends with that output
instead of ``MaxTurnsExceeded``, and the synthesized assistant message is meant to join the
history. ``Runner.run`` saved it with ``save_result_to_session`` while
``run_state._current_turn_persisted_item_count`` still counted the previous turn's items, and
that count is a slice offset into the one-item list it was given: after any turn that saved
items (a tool turn) nothing was saved, so the next run on the session has no record of the
answer. The streamed runner reset the counter first and saved the message. Related:
https://github.com/openai/openai-agents-python/issues/4393 (the handler's output and output
guardrails; not replayed here, no guardrail is set).

The replay: one agent with a recording tool ``lookup``; the scripted model calls it in turn 1;
``max_turns=1``, so turn 2 exceeds the limit and the handler answers ``HANDLER_TEXT``. The
session is ``SQLiteSession`` on a real file, read back through a second ``SQLiteSession``.

Timeline: how the run ended (its final output or the exception), the handler's calls, what the
tool ran with, and every item stored in the session file. The oracle: ``fixed`` when the file
holds the user's message, the call, its output and the handler's assistant message;
``reproduced`` when it holds the first three and not the handler's message; ``unexpected`` for
anything else (the handler not called once, the run not ending with the handler's output,
other items).

What the harness found (every final release; ``error_handlers`` came in 0.8.0, PR #2347, so
0.0.2-0.7.0 are ``not-applicable``):

- run (not streamed): reproduced 0.8.0-0.19.2, fixed from 0.19.3. 0.19.3's ``agents/run.py``
  passes ``None`` instead of ``run_state`` to ``save_result_to_session`` for the synthesized
  item, with PR #4160's comment (diff of the two releases' installed sources).
- streamed: fixed from 0.8.1, as the PR says. 0.8.0 is ``unexpected``: its session holds the
  user's message and the handler's message but not the tool's call and output, the streamed
  bug of 0.8.0 that ``agents-streamed-session-tool-items`` replays (issue #2426, PR #2433).
  No release shows the streamed case reproduced, so its ``reproduced`` proof drops the
  handler's message in process.
"""

from __future__ import annotations

import contextlib
from functools import partial

from harness.runtime.outcomes import fixed, reproduced, unexpected
from harness.runtime.scenario import AsInstalled, Case, Edge, InProcess, NotApplicable, Observation, Release, Scenario
from harness.runtime.timeline import Placeholders, quote

USER_TEXT = "What is the status of ticket 7?"
TOOL = "lookup"
TOOL_RESULT = "ticket 7: open"
CALL_ID = "call-lookup"
HANDLER_TEXT = "I ran out of steps; ticket 7 is open."


async def replay(*, streamed: bool) -> Observation:
    """One tool turn, then the turn limit: the handler's output must be stored in the session."""
    try:
        from agents import RunErrorHandlerResult
    except ImportError as exc:
        raise NotApplicable(f"agents has no RunErrorHandlerResult (error_handlers): {exc}") from exc
    from agents import Agent, Runner

    from harness.runtime.fakes import agents_sessions
    from harness.runtime.fakes import openai_agents as oa

    handled: list[str] = []

    def on_max_turns(data):
        handled.append(type(data.error).__name__)
        return RunErrorHandlerResult(final_output=HANDLER_TEXT, include_in_history=True)

    tool = oa.RecordingTool(TOOL, {"ticket": "string"}, result=TOOL_RESULT)
    model = oa.ScriptedModel(
        "support",
        [[oa.function_call(TOOL, {"ticket": "7"}, call_id=CALL_ID)], [oa.text_message("never sent")]],
    )
    agent = Agent(name="Support", model=model, tools=[tool.tool])
    ids = Placeholders()
    ids.keep(CALL_ID)
    handlers = {"max_turns": on_max_turns}
    final = raised = None
    with agents_sessions.SessionFile() as store:
        session = store.open()
        try:
            if streamed:
                result = Runner.run_streamed(agent, USER_TEXT, session=session, max_turns=1, error_handlers=handlers)
                await oa.drain_stream(result)
            else:
                result = await Runner.run(agent, USER_TEXT, session=session, max_turns=1, error_handlers=handlers)
            final = str(result.final_output)
        except Exception as exc:  # MaxTurnsExceeded when the handler is not applied; recorded, judged
            raised = type(exc).__name__
        stored, stored_lines = await store.read_back(ids)
    verb = "run_streamed" if streamed else "run"
    ending = f"final output {quote(final)}" if raised is None else raised
    return Observation(
        timeline=[
            f"{verb} ended with {ending}",
            f"max_turns handler called {len(handled)} times with {handled}",
            *tool.call_lines(ids),
            *stored_lines,
        ],
        facts={
            "final": final,
            "raised": raised,
            "handled": len(handled),
            "tool_runs": len(tool.calls),
            "stored": [_shape(oa.raw_item(item)) for item in stored],
        },
    )


def _shape(item: dict) -> tuple:
    kind = item.get("type") or "message"
    if kind in ("function_call", "function_call_output"):
        return (kind, item.get("call_id"))
    from harness.runtime.fakes.openai_agents import content_text

    return (item.get("role") or kind, content_text(item.get("content")))


BEFORE = [("user", USER_TEXT), ("function_call", CALL_ID), ("function_call_output", CALL_ID)]
EXPECTED = [*BEFORE, ("assistant", HANDLER_TEXT)]


def judge(obs: Observation):
    f = obs.facts
    if f["raised"] is not None or f["final"] != HANDLER_TEXT:
        return unexpected(f"the run ended with {f['raised'] or repr(f['final'])}, expected the handler's output")
    if f["handled"] != 1:
        return unexpected(f"the max_turns handler was called {f['handled']} times, expected once")
    if f["tool_runs"] != 1:
        return unexpected(f"the tool ran {f['tool_runs']} times, expected once")
    stored = f["stored"]
    if stored == EXPECTED:
        return fixed("the session holds the user's message, the call, its output and the handler's message (4 items)")
    if stored == BEFORE:
        return reproduced(
            "the run ended with the handler's output but the session holds 3 items: "
            "the handler's assistant message was not saved"
        )
    return unexpected(f"the session holds {len(stored)} items: {stored}")


def _handler_twice(obs: Observation) -> None:
    obs.facts["handled"] = 2


def _tool_twice(obs: Observation) -> None:
    obs.facts["tool_runs"] = 2


def _other_final(obs: Observation) -> None:
    obs.facts["final"] = "something else"


@contextlib.contextmanager
def _session_drops_handler_message():
    """SQLiteSession.add_items drops the handler's message: what Runner.run stored before 0.19.3,
    for the streamed case, which no release shows reproduced."""
    from agents.memory import SQLiteSession

    from harness.runtime.fakes.openai_agents import content_text, raw_item

    original = SQLiteSession.add_items

    async def add_items(self, items):
        kept = [i for i in items if content_text(raw_item(i).get("content")) != HANDLER_TEXT]
        return await original(self, kept)

    SQLiteSession.add_items = add_items  # type: ignore[method-assign]
    try:
        yield
    finally:
        SQLiteSession.add_items = original  # type: ignore[method-assign]


FIXED = AsInstalled("the pinned release (0.24.0) saves the handler's message")
EDGES = (
    Edge("unexpected", "the handler called twice", _handler_twice),
    Edge("unexpected", "the tool ran twice", _tool_twice),
    Edge("unexpected", "the run ended with another output", _other_final),
)

SCENARIO = Scenario(
    id="agents-max-turns-handler-session",
    framework="openai-agents",
    links=(
        "https://github.com/openai/openai-agents-python/pull/4160",
        "https://github.com/openai/openai-agents-python/issues/4393",
    ),
    description=(
        "When a max_turns error handler returns a final output with include_in_history=True after a "
        "tool turn, Runner.run ends with that output but does not save the handler's assistant "
        "message to the session."
    ),
    expected="The session holds the handler's assistant message after the turn's items, streamed or not.",
    cases=(
        Case(
            "run",
            partial(replay, streamed=False),
            judge,
            {
                "reproduced": Release("openai-agents==0.19.2", "the last release before PR #4160"),
                "fixed": Release("openai-agents==0.19.3", "the first release with PR #4160"),
            },
            "Runner.run, max_turns=1 after a tool turn, a handler with include_in_history=True",
            edges=EDGES,
        ),
        Case(
            "streamed",
            partial(replay, streamed=True),
            judge,
            {
                "reproduced": InProcess("the session drops the handler's message", _session_drops_handler_message),
                "fixed": FIXED,
            },
            "the same through Runner.run_streamed",
        ),
    ),
)
