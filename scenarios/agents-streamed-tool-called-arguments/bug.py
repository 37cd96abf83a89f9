"""agents-streamed-tool-called-arguments: what the harness needs beside repro.py (the bug itself is there)."""

import contextlib
from collections.abc import Iterator

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess, Release


@contextlib.contextmanager
def blank_arguments() -> Iterator[None]:
    """Every ToolCallItem the run records is built with empty arguments (what the control must never show)."""
    from agents import items

    original = items.ToolCallItem.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        raw = self.raw_item
        if getattr(raw, "arguments", None):
            self.raw_item = raw.model_copy(update={"arguments": ""})

    items.ToolCallItem.__init__ = init  # type: ignore[method-assign]
    try:
        yield
    finally:
        items.ToolCallItem.__init__ = original  # type: ignore[method-assign]


# Observations no build makes, one step across the judge's lines (nox -s mutants).
EDGES = (
    Edge("unexpected", "the run ended with another answer", lambda obs: obs.facts.update(final_output="Bye.")),
    Edge("unexpected", "the call was reported twice, both times complete",
         lambda obs: obs.facts.update(called=obs.facts["called"] * 2)),
    Edge("unexpected", "no tool_called event at all", lambda obs: obs.facts.update(called=[])),
)  # fmt: skip

BUG = Bug(
    links=(
        "https://github.com/openai/openai-agents-python/issues/1629",
        "https://github.com/openai/openai-agents-python/issues/1651",
        "https://github.com/openai/openai-agents-python/pull/1636",
        "https://github.com/openai/openai-agents-python/pull/1300",
    ),
    description=(
        "Runner.run_streamed emits the tool_called run-item event on response.output_item.added, when the "
        "function call's arguments are still empty, so the event's ToolCallItem carries arguments ''."
    ),
    expected="The tool_called event carries the call's complete arguments (emitted once they have arrived).",
    claims=Claim(
        pr="#1636",
        pr_state="merged",
        introduced_in="0.2.10",
        source="issue #1629: reported on 0.2.10 as a regression from PR #1300; PR #1636 'Fix #1629'",
    ),
    cases={
        "streamed": CaseRole(
            "run_streamed: a get_weather call streamed as added (no arguments), delta, done, completed",
            reproduced=Release("openai-agents==0.2.10", "the only release with PR #1300 and without PR #1636"),
            fixed=Release("openai-agents==0.2.11", "the first release with PR #1636"),
            edges=EDGES,
        ),
        "control-not-streamed": CaseRole(
            "Runner.run: the recorded ToolCallItem carries the full arguments on every release",
            reproduced=InProcess("every ToolCallItem built with its arguments blanked", blank_arguments),
            fixed=AsInstalled("the pinned release records the call's arguments"),
            control=True,
        ),
    },
)  # fmt: skip
