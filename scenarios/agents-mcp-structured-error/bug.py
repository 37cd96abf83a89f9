"""agents-mcp-structured-error: what the harness needs beside repro.py (the bug itself is there)."""

import contextlib
from collections.abc import Iterator

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess, Release


@contextlib.contextmanager
def _invoke_with(use_structured_content: bool, error_flag_ignored: bool) -> Iterator[None]:
    """MCPUtil.invoke_mcp_tool runs with the server's use_structured_content set as given and, where asked,
    with every result read as a success (agents/mcp/util.py's result_is_error, 0.20.0 on, answers False)."""
    from agents.mcp import util

    original = util.MCPUtil.__dict__["invoke_mcp_tool"]
    original_is_error = getattr(util, "result_is_error", None)

    async def invoke_mcp_tool(cls, server, *args, **kwargs):
        asked = server.use_structured_content
        server.use_structured_content = use_structured_content
        try:
            return await original.__func__(cls, server, *args, **kwargs)
        finally:
            server.use_structured_content = asked

    util.MCPUtil.invoke_mcp_tool = classmethod(invoke_mcp_tool)  # type: ignore[method-assign, assignment]
    if error_flag_ignored and original_is_error is not None:
        util.result_is_error = lambda result: False  # type: ignore[attr-defined]
    try:
        yield
    finally:
        util.MCPUtil.invoke_mcp_tool = original  # type: ignore[method-assign]
        if original_is_error is not None:
            util.result_is_error = original_is_error  # type: ignore[attr-defined]


@contextlib.contextmanager
def never_structured() -> Iterator[None]:
    """A fix gone too far: structuredContent is never used, even for a successful result of a server that asked
    for it."""
    with _invoke_with(use_structured_content=False, error_flag_ignored=False):
        yield


@contextlib.contextmanager
def always_structured() -> Iterator[None]:
    """The structured payload replaces the content of every result, whatever the server asked and whatever isError
    says (what the control must never show)."""
    with _invoke_with(use_structured_content=True, error_flag_ignored=True):
        yield


def _received(*outputs: str):
    """An edge's alteration: the model received these tool outputs."""
    return lambda obs: obs.facts.update(received=list(outputs))


def _facts(**changes):
    """An edge's alteration: these facts changed."""
    return lambda obs: obs.facts.update(**changes)


REPORTED = Release("openai-agents==0.19.4", "PR #4224's release (current on 2026-08-05), the last before its fix")
FIXED = Release("openai-agents==0.20.0", "the first release with PR #4224: an error result keeps its content")
ERROR_TEXT, ERROR_PAYLOAD = "database connection refused", '{"orders": [], "count": 0}'
SUCCESS_TEXT, SUCCESS_PAYLOAD = "3 open orders", '{"orders": ["41", "42", "43"], "count": 3}'
# Observations no build makes (or none in the proofs), one step across the judge's lines (nox -s mutants).
RUN_EDGES = (
    Edge("unexpected", "the run raised", _facts(error="RuntimeError: boom")),
    Edge("unexpected", "the run ended with another answer", _facts(final_output="Something else.")),
    Edge("unexpected", "the model received the output twice", lambda obs: obs.facts.update(
        received=obs.facts["received"] * 2)),
    Edge("unexpected", "the model received no tool output", _received()),
)  # fmt: skip
ERROR_EDGES = (
    *RUN_EDGES,
    Edge("unexpected", "the model received something else", _received("ok")),
    Edge("fixed", "the error text with the payload after it (the 0.2.1-0.2.4 shape)",
         _received(f"{ERROR_TEXT}\n{ERROR_PAYLOAD}")),
    Edge("reproduced", "the payload alone", _received(ERROR_PAYLOAD)),
)  # fmt: skip
SUCCESS_EDGES = (
    *RUN_EDGES,
    Edge("unexpected", "the model received something else", _received("ok")),
    Edge("fixed", "the text with the payload after it (the 0.2.1-0.2.4 shape)",
         _received(f"{SUCCESS_TEXT}\n{SUCCESS_PAYLOAD}")),
    Edge("reproduced", "the text alone", _received(SUCCESS_TEXT)),
)  # fmt: skip
CONTROL_EDGES = (
    *RUN_EDGES,
    Edge("unexpected", "the model received something else", _received("ok")),
    Edge("reproduced", "the error text with the payload after it", _received(f"{ERROR_TEXT}\n{ERROR_PAYLOAD}")),
)  # fmt: skip

BUG = Bug(
    links=("https://github.com/openai/openai-agents-python/pull/4224",),
    description=(
        "With use_structured_content=True, MCPUtil.invoke_mcp_tool returns a CallToolResult's structuredContent "
        "exclusively, also for a result the server flagged isError: the error text in its content is replaced by "
        "the structured payload and the model sees an apparent success."
    ),
    expected=(
        "For a result flagged isError the error content reaches the model (as in the TypeScript SDK); a successful "
        "result of a server that asked for structured content still reaches it as its structured payload."
    ),
    claims=Claim(
        pr="#4224",
        pr_state="merged",
        quote="a server constructed with `use_structured_content=True` had its error text silently replaced by the "
        "structured payload and the model saw what looked like a successful result",
        source="PR #4224 'fix(mcp): keep MCP error content when structured output is enabled' (merged, opened "
        "2026-08-05); it names no release and no issue",
    ),
    cases={
        "error-with-structured-content": CaseRole(
            "a server with use_structured_content=True answers isError with the text 'database connection refused' "
            "and structuredContent {'orders': [], 'count': 0}: the error text must reach the model",
            reproduced=REPORTED, fixed=FIXED, edges=ERROR_EDGES,
        ),
        "success-uses-structured-content": CaseRole(
            "the same server answers a success with text and structuredContent: the model gets the payload",
            reproduced=InProcess("structuredContent is never used (content always preferred)", never_structured),
            fixed=AsInstalled("the pinned release hands a success's structured payload to the model"),
            non_regression=True, edges=SUCCESS_EDGES,
        ),
        "control-error-without-structured": CaseRole(
            "a server without use_structured_content answers the same error result: its text, not the payload",
            reproduced=InProcess("the payload replaces every result's content, isError ignored", always_structured),
            fixed=AsInstalled("the pinned release hands the error text to the model"),
            control=True, edges=CONTROL_EDGES,
        ),
    },
)  # fmt: skip
