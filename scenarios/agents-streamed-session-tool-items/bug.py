"""agents-streamed-session-tool-items: what the harness needs beside repro.py."""

import contextlib
import sys

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess, Release


@contextlib.contextmanager
def _drop_tool_items():
    """The control's reproduced proof: every agents module that imported `save_result_to_session`
    (agents/run_internal/session_persistence.py) gets a version that drops tool call items and their
    outputs before saving, what a streamed run on 0.8.0 missed."""
    from agents.run_internal import session_persistence

    name, tool_items = "save_result_to_session", ("tool_call_item", "tool_call_output_item")
    original = getattr(session_persistence, name)

    async def save_without_tool_items(session, original_input, new_items, *args, **kwargs):
        kept = [item for item in new_items if getattr(item, "type", None) not in tool_items]
        return await original(session, original_input, kept, *args, **kwargs)

    holders = [m for k, m in list(sys.modules.items()) if k.startswith("agents") and getattr(m, name, None) is original]
    for module in holders:
        setattr(module, name, save_without_tool_items)
    try:
        yield
    finally:
        for module in holders:
            setattr(module, name, original)


AS_INSTALLED = AsInstalled("the pinned release (0.24.0) saves the streamed tool turn (PR #2433, since 0.8.1)")


def _stored(*names):
    """An alteration of the fixed observation (user, call, output, answer): the session holds these, in order."""

    def alter(obs):
        items = dict(zip(("user", "call", "output", "answer"), obs.facts["stored"], strict=True))
        obs.facts["stored"] = [items[name] for name in names]

    return alter


# Observations no build makes, one step across a line of the judge (nox -s mutants).
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

BUG = Bug(
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
    claims=Claim(
        pr="#2433",
        pr_state="merged",
        quote="#2433 resolves this issue and the fix will be included in the upcoming patch release.",
        source="PR #2433 (merged), 'fix: #2426 persist streamed run-again tool items to session'; #2426's maintainer",
    ),
    cases={
        "streamed": CaseRole(
            "Runner.run_streamed with a SQLiteSession on a file: one tool turn, then the answer",
            reproduced=Release("openai-agents==0.8.0", "the release of the report, before PR #2433"),
            fixed=AS_INSTALLED,
            edges=EDGES,
        ),
        "not-streamed": CaseRole(
            "the same run through Runner.run: must hold on every release",
            reproduced=InProcess(
                "0.24.0 with agents.run's save_result_to_session dropping tool call items", _drop_tool_items
            ),
            fixed=AsInstalled("the pinned release (0.24.0) saves the tool turn of Runner.run"),
            control=True,
        ),
    },
)
