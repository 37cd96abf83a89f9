"""adk-mcp-stdio-close-cancel-scope: what the harness needs beside repro.py (the bug itself is there)."""

import contextlib
from collections.abc import Iterator

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, Explanation, InProcess, Release


@contextlib.contextmanager
def _tool_call_fails() -> Iterator[None]:
    """Break the control: every MCP tool call answers an error instead of calling the server."""
    from google.adk.tools.mcp_tool.mcp_tool import McpTool

    original = McpTool.run_async

    async def run_async(self, *, args, tool_context):
        return {"error": "the MCP tool call broken in process"}

    McpTool.run_async = run_async  # type: ignore[method-assign]
    try:
        yield
    finally:
        McpTool.run_async = original  # type: ignore[method-assign]


@contextlib.contextmanager
def _close_skips_the_session() -> Iterator[None]:
    """A fix that goes too far: McpToolset.close() does nothing (no cancel scope is exited, so no error),
    which leaves the MCP server process running."""
    from google.adk.tools.mcp_tool.mcp_toolset import McpToolset

    original = McpToolset.close

    async def close(self):
        return None

    McpToolset.close = close  # type: ignore[method-assign]
    try:
        yield
    finally:
        McpToolset.close = original  # type: ignore[method-assign]


REPORTED = Release("google-adk==1.8.0", "#2196's release (current on 2025-07-27): close prints the cancel-scope error")
FIRST_FIXED_1X = Release(
    "google-adk==1.34.1", "the first 1.x release measured closing cleanly: _MCP_GRACEFUL_ERROR_HANDLING on by default"
)
SESSION_TASK = Release(
    "google-adk==2.0.0", "the session runs in SessionContext's own task, which logs the cancel-scope error"
)
PINNED = AsInstalled("the pinned release (2.13.0) closes the session cleanly, from any task")
CANCELLED_CLOSE = (
    "Before SessionContext (1.23.0), Runner.close() wraps toolset.close() in asyncio.wait_for, which on CPython "
    "3.11 runs it in a task of its own, so the stdio client's cancel scope, entered in the turn's task, cancels "
    "the close instead of reporting the cancel-scope sentence: a CancelledError 'Cancelled by cancel scope' "
    "raised out of close (1.1.0 to at least 1.11.0; 1.8.0 in the record), or the toolset's cleanup cancelled by "
    "the scope, logged (from 1.17.0 or earlier to 1.22.1); the sentence itself comes only at the event loop's "
    "shutdown. The server's exit is not checked there (it races the cancellation). "
    "CPython 3.12's wait_for runs in the caller's task (1.22.0 closes cleanly there, measured by hand)."
)


def _reported(line):
    return lambda obs: obs.facts["reported"].append(line)


BUG = Bug(
    links=(
        "https://github.com/google/adk-python/issues/2196",
        "https://github.com/google/adk-python/issues/362",
        "https://github.com/google/adk-python/issues/4155",
    ),
    description=(
        "Closing a Runner whose MCPToolset talks to a local stdio MCP server reports anyio's 'Attempted to exit "
        "cancel scope in a different task than it was entered in': the stdio client's cancel scope is entered in "
        "the task that ran the turn and exited in the task that closes (MCPSessionManager.close prints it; from "
        "1.23.0 SessionContext's task logs it)."
    ),
    expected=(
        "runner.close() tears the MCP session down without the cancel-scope error, from whichever task calls it, "
        "and the server process exits."
    ),
    requires=("mcp<2",),
    claims=Claim(
        still_open=True,
        source="#362 (the MCP demo's cleanup, 'Attempted to exit cancel scope in a different task', open; a "
        "maintainer: close the runners on shutdown); #2196 (AgentEvaluator.evaluate's teardown with a stdio "
        "MCPToolset, reported 2025-07-27, closed, no fix named; workaround in the thread: await toolset.close() "
        "yourself); #4155 (parallel eval runners closing a shared MCPToolset, 1.22.1, open)",
        quote="RuntimeError: Attempted to exit cancel scope in a different task than it was entered in",
    ),
    range_notes=(
        "Measured on CPython 3.11: not applicable before 1.1.0 (no Runner.close()); close from another task reports "
        "the sentence 1.1.0-1.34.0 (MCPSessionManager.close prints it on stderr; from 1.23.0 SessionContext's task "
        "logs 'Error on session runner task: ...'), and from the turn's own task 1.23.0-1.34.0; both close cleanly "
        "from 1.34.1, whose _feature_registry turns _MCP_GRACEFUL_ERROR_HANDLING on by default, so "
        "SessionContext._run enters the stdio client without asyncio.wait_for (which on 3.11 entered its cancel "
        "scope in a task of its own); 2.0.0 still has the flag off and reports it again, 2.1.0 turns it on. With "
        "ADK_DISABLE_MCP_GRACEFUL_ERROR_HANDLING=1 the newest release (2.13.0) reports it again.",
    ),
    explanations=(Explanation("close-same-task", ">=1.1.0,<1.23.0", CANCELLED_CLOSE),),
    cases={
        "close-other-task": CaseRole(
            "the turn runs in a task, runner.close() is awaited from another: what close reports (#2196)",
            reproduced=REPORTED,
            fixed=FIRST_FIXED_1X,
            edges=(
                Edge("unexpected", "close raised another error",
                     lambda obs: obs.facts.update(raised="ValueError: boom"), FIRST_FIXED_1X),
                Edge("unexpected", "no error, but the server still runs",
                     lambda obs: obs.facts.update(server="running"), FIRST_FIXED_1X),
                Edge("reproduced", "the error raised out of close",
                     lambda obs: obs.facts.update(raised="RuntimeError: Attempted to exit cancel scope in a "
                                                  "different task than it was entered in"), FIRST_FIXED_1X),
                Edge("unexpected", "the turn had no answer", lambda obs: obs.facts.update(answer=None), REPORTED),
            ),
        ),
        "close-same-task": CaseRole(
            "the turn and runner.close() in one task (as `async with Runner(...)` does): what close reports",
            reproduced=SESSION_TASK,
            fixed=PINNED,
            edges=(Edge("reproduced", "a logged cancel-scope error",
                        _reported("WARNING Failed to close MCP session: Attempted to exit cancel scope in a "
                                  "different task than it was entered in")),),
        ),
        "tool-call": CaseRole(
            "control: server_pid's result (the server's process id) reaches the model, which answers",
            reproduced=InProcess("the MCP tool call broken in process", _tool_call_fails),
            fixed=PINNED,
            control=True,
        ),
        "server-exits": CaseRole(
            "non-regression: after runner.close() (from another task) the MCP server process exits; a fix that "
            "skips the session's teardown to avoid the error goes too far",
            reproduced=InProcess("a fix too far: McpToolset.close() does nothing", _close_skips_the_session),
            fixed=PINNED,
            non_regression=True,
            edges=(
                Edge("unexpected", "no process id from the tool", lambda obs: obs.facts.update(pid=False)),
                Edge("unexpected", "close raised, the server not checked",
                     lambda obs: obs.facts.update(raised="CancelledError: boom", server=None)),
            ),
        ),
    },
)  # fmt: skip
