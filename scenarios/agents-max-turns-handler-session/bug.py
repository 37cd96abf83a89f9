"""agents-max-turns-handler-session: what the harness needs beside repro.py."""

import contextlib
import json

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, Explanation, InProcess, Release

HANDLER_TEXT = "I ran out of steps; ticket 7 is open."


@contextlib.contextmanager
def _session_drops_handler_message():
    """SQLiteSession.add_items drops the handler's message: what Runner.run stored before PR #4160,
    for the streamed case, which no release shows reproduced."""
    from agents.memory import SQLiteSession

    original = SQLiteSession.add_items

    async def add_items(self, items):
        return await original(self, [i for i in items if HANDLER_TEXT not in json.dumps(i, default=str)])

    SQLiteSession.add_items = add_items
    try:
        yield
    finally:
        SQLiteSession.add_items = original


EDGES = (
    Edge("unexpected", "the handler called twice", lambda obs: obs.facts.update(handled=2)),
    Edge("unexpected", "the tool ran twice", lambda obs: obs.facts.update(tool_runs=2)),
    Edge("unexpected", "the run ended with another output", lambda obs: obs.facts.update(final="something else")),
)

BUG = Bug(
    explanations=(
        Explanation(
            "streamed",
            "==0.8.0",
            "The handler's message is saved, but 0.8.0's run_streamed does not save a tool turn to "
            "the session, so the lookup call and its output are missing: another bug, "
            "openai/openai-agents-python#2426 (agents-streamed-session-tool-items: reproduced on "
            "0.8.0, fixed by PR #2433 in 0.8.1).",
        ),
    ),
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
    claims=Claim(
        pr="#4160",
        pr_state="merged",
        quote="the non-streamed runner never wrote the synthesized assistant message to the session.",
        source="PR #4160 thread (merged 2026-08-04), 'fix(run): persist the max-turns handler output to the "
        "session'; commit 945332da, first tag v0.19.3",
    ),
    cases={
        "run": CaseRole(
            "Runner.run, max_turns=1 after a tool turn, a handler with include_in_history=True",
            reproduced=Release("openai-agents==0.19.2", "the last release before PR #4160"),
            fixed=Release("openai-agents==0.19.3", "the first release with PR #4160"),
            edges=EDGES,
        ),
        "streamed": CaseRole(
            "the same through Runner.run_streamed",
            reproduced=InProcess("the session drops the handler's message", _session_drops_handler_message),
            fixed=AsInstalled("the pinned release (0.24.0) saves the handler's message"),
        ),
    },
)
