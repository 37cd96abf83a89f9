"""agents-mcp-error-aborts-run: what the harness needs beside repro.py (the bug itself is there)."""

import contextlib
from collections.abc import Iterator

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, Explanation, InProcess, Release


@contextlib.contextmanager
def hide_result() -> Iterator[None]:
    """MCPUtil.invoke_mcp_tool answers every call with an empty output (what the control must never show)."""
    from agents.mcp.util import MCPUtil

    original = MCPUtil.__dict__["invoke_mcp_tool"]

    async def invoke_mcp_tool(cls, *args, **kwargs):
        await original.__func__(cls, *args, **kwargs)
        return ""

    MCPUtil.invoke_mcp_tool = classmethod(invoke_mcp_tool)  # type: ignore[method-assign, assignment]
    try:
        yield
    finally:
        MCPUtil.invoke_mcp_tool = original  # type: ignore[method-assign]


@contextlib.contextmanager
def swallow_when_asked_to_raise() -> Iterator[None]:
    """MCPServer ignores failure_error_function=None (a fix gone too far: every error goes to the model)."""
    from agents.mcp import MCPServer
    from agents.tool import default_tool_error_function

    original = MCPServer._get_failure_error_function

    def get_failure_error_function(self, agent_failure_error_function):
        return original(self, agent_failure_error_function) or default_tool_error_function

    MCPServer._get_failure_error_function = get_failure_error_function  # type: ignore[method-assign]
    try:
        yield
    finally:
        MCPServer._get_failure_error_function = original  # type: ignore[method-assign]


BUGGY = Release("openai-agents==0.7.0", "the last release before PR #2249 wrapped MCP tool failures")
FIXED = Release("openai-agents==0.8.0", "the first release with PR #2249 (the error reaches the model)")
# Observations no build makes, one step across the judge's lines (nox -s mutants).
EDGES = (
    Edge("unexpected", "the run went on but ended with another answer",
         lambda obs: obs.facts.update(final_output="Something else.")),
    Edge("unexpected", "the model received the output twice",
         lambda obs: obs.facts.update(received=obs.facts["received"] * 2)),
    Edge("unexpected", "the model received some other output", lambda obs: obs.facts.update(received=["ok"])),
    Edge("unexpected", "the model received only the SDK's generic error, not the server's",
         lambda obs: obs.facts.update(received=["An error occurred while running the tool. Please try again."])),
    Edge("unexpected", "the run raised the server's error, but only after a second model call",
         lambda obs: obs.facts.update(model_calls=2), BUGGY),
    Edge("unexpected", "the run raised after one model call, without the server's error",
         lambda obs: obs.facts.update(error="RuntimeError: boom"), BUGGY),
)  # fmt: skip
RAISED_EDGES = (
    Edge("unexpected", "the run raised without the server's error",
         lambda obs: obs.facts.update(error="RuntimeError: boom", received=[])),
    Edge("unexpected", "the run went on and the model received something else",
         lambda obs: obs.facts.update(error=None, received=["ok"], final_output="Here is what I found.")),
)  # fmt: skip

BUG = Bug(
    explanations=(
        Explanation(
            "mcp-error", ">=0.23.1",
            "From 0.23.1 the SDK's default_tool_error_function (agents/tool.py) returns a fixed message \"without "
            "exposing the exception to the model\": the run goes on, but the server's error reaches the model only "
            "through an application's own failure_error_function (measured: 0.22.3 still appends 'Error: ...').",
        ),
    ),
    links=(
        "https://github.com/openai/openai-agents-python/issues/879",
        "https://github.com/openai/openai-agents-python/pull/2598",
        "https://github.com/openai/openai-agents-python/issues/1788",
        "https://github.com/openai/openai-agents-python/pull/2378",
        "https://github.com/openai/openai-agents-python/pull/2249",
    ),
    description=(
        "An McpError raised by an MCP server's call_tool (a JSON-RPC error: an upstream HTTP failure, a "
        "bad argument) is re-raised by MCPUtil.invoke_mcp_tool as AgentsException and ends Runner.run."
    ),
    expected=(
        "The error reaches the model as the tool's output and the run continues; a server built with "
        "failure_error_function=None still has the error raised."
    ),
    claims=Claim(
        pr="#2598",
        pr_state="merged",
        fixed_in="0.10.5",
        source="PR #2598 'fix: #879 return McpError as a structured error result instead of crashing the "
        "agent run' (released in 0.10.5); the configurable handlers of PR #2378 (#1788) came before it",
    ),
    cases={
        "mcp-error": CaseRole(
            "the fake server's call_tool raises McpError(INTERNAL_ERROR, 'upstream returned HTTP 502')",
            reproduced=BUGGY, fixed=FIXED, edges=EDGES,
        ),
        "raise-when-asked": CaseRole(
            "the same server built with failure_error_function=None: the error must end the run",
            reproduced=InProcess("MCPServer ignores failure_error_function=None", swallow_when_asked_to_raise),
            fixed=AsInstalled("the pinned release raises when the server asks for it"),
            non_regression=True, edges=RAISED_EDGES,
        ),
        "control-success": CaseRole(
            "the fake server answers with text: the text reaches the model on every release",
            reproduced=InProcess("invoke_mcp_tool answers with an empty output", hide_result),
            fixed=AsInstalled("the pinned release hands the model the server's text"),
            control=True,
        ),
    },
)  # fmt: skip
