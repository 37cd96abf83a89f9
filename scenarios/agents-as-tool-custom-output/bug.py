"""agents-as-tool-custom-output: what the harness needs beside repro.py."""

import contextlib

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess, Release


@contextlib.contextmanager
def _blank_as_tool():
    """as_tool returns "" whatever the sub-run's final output (what the control must never show)."""
    from agents import Agent

    original = Agent.as_tool

    def as_tool(self, *args, **kwargs):
        async def blank(run_result):
            return ""

        kwargs["custom_output_extractor"] = blank
        return original(self, *args, **kwargs)

    Agent.as_tool = as_tool  # type: ignore[method-assign]
    try:
        yield
    finally:
        Agent.as_tool = original  # type: ignore[method-assign]


BUGGY = Release("openai-agents==0.6.1", "the last release before PR #2112")
FIXED = Release("openai-agents==0.6.2", "the first release with PR #2112 (as_tool returns final_output)")
# Observations no build makes, one step across the judge's lines (nox -s mutants).
EDGES = (
    Edge("unexpected", "the lead received some other text", lambda obs: obs.facts.update(received=["something else"])),
    Edge("unexpected", "the lead received two outputs for the call",
         lambda obs: obs.facts.update(received=obs.facts["received"] * 2)),
)  # fmt: skip

BUG = Bug(
    links=(
        "https://github.com/openai/openai-agents-python/issues/2110",
        "https://github.com/openai/openai-agents-python/pull/2112",
    ),
    description=(
        "A sub-agent used through Agent.as_tool whose run ends on its own tool (stop_on_first_tool, "
        "or a custom tool_use_behavior returning ToolsToFinalOutputResult) hands the lead agent an "
        "empty string as the tool's output."
    ),
    expected="The lead agent receives the sub-agent's final output (the tool's result, or the custom final output).",
    claims=Claim(
        pr="#2112",
        pr_state="merged",
        quote="Return `final_output` instead. It already handles early tool-return scenarios correctly.",
        source="PR #2112 (merged), 'Fix as_tool returning blank string on early tool termination'",
    ),
    cases={
        "stop-on-first-tool": CaseRole(
            'the sub-agent has tool_use_behavior="stop_on_first_tool"', reproduced=BUGGY, fixed=FIXED, edges=EDGES
        ),
        "custom-tools-to-final-output": CaseRole(
            "the sub-agent's tool_use_behavior is a function returning ToolsToFinalOutputResult (issue #2110)",
            reproduced=BUGGY, fixed=FIXED,
        ),
        "control": CaseRole(
            "the sub-agent answers with text: the lead receives that text on every release",
            reproduced=InProcess("as_tool given an extractor that returns an empty string", _blank_as_tool),
            fixed=AsInstalled("the sub-agent's text reaches the lead on the pinned release (0.24.0)"),
            control=True,
        ),
    },
)  # fmt: skip
