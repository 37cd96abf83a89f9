"""adk-async-generator-tool-run-async: what the harness needs beside repro.py (the bug itself is there)."""

import collections.abc
import contextlib
import inspect
from collections.abc import Iterator

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, Explanation, InProcess, Release


@contextlib.contextmanager
def _function_tool_result(change) -> Iterator[None]:
    """``FunctionTool.run_async`` with generator tools called as plain functions (2.x runs them as a FunctionNode
    outside live mode) and ``change`` applied to every result."""
    from google.adk.tools import FunctionTool

    original = FunctionTool.__dict__["run_async"]
    as_node = FunctionTool.__dict__.get("_should_run_generator_as_node")

    async def run_async(self, *, args, tool_context):
        return await change(await original(self, args=args, tool_context=tool_context))

    FunctionTool.run_async = run_async  # type: ignore[method-assign]
    if as_node is not None:
        FunctionTool._should_run_generator_as_node = lambda self, tool_context: False  # type: ignore[method-assign]
    try:
        yield
    finally:
        FunctionTool.run_async = original  # type: ignore[method-assign]
        if as_node is not None:
            FunctionTool._should_run_generator_as_node = as_node  # type: ignore[method-assign]


async def _drained(result):
    """PR #4447's fix: an async generator result is consumed into a list before it is returned."""
    return [item async for item in result] if inspect.isasyncgen(result) else result


async def _every_iterable_drained(result):
    """A fix that goes too far: every iterable result (a dict included) becomes a list."""
    if inspect.isasyncgen(result):
        return [item async for item in result]
    if isinstance(result, collections.abc.Iterable) and not isinstance(result, (str, bytes)):
        return list(result)
    return result


async def _raises(result):
    raise RuntimeError("the tool failed")


REPORTED = Release("google-adk==1.21.0", "#3955's release (current on 2025-12-17): the run fails on the streaming tool")
NEWEST = Release("google-adk==2.13.0", "the newest release: the generator tool runs as a node and fails")
DRAINED = InProcess(
    "PR #4447's drain applied in process on the pinned release: the generator's items are returned as a list",
    lambda: _function_tool_result(_drained),
)
PINNED = AsInstalled("the pinned release (2.13.0): a coroutine tool's result reaches the model as returned")
TOOL_FAILS = InProcess("every FunctionTool call raises, in process", lambda: _function_tool_result(_raises))
TOO_FAR = InProcess(
    "a fix that goes too far, in process: every iterable result is drained into a list, a dict into its keys",
    lambda: _function_tool_result(_every_iterable_drained),
)


def _facts(**changes):
    return lambda obs: obs.facts.update(changes)


REFUSED = Edge(
    "fixed",
    "the agent refuses the streaming tool when built, naming it",
    _facts(build_error="ValueError: monitor_stock_price is a streaming tool: use run_live", model_calls=0),
)
REFUSED_UNNAMED = Edge(
    "unexpected", "building the agent raises without naming the tool", _facts(build_error="ValueError: bad tool")
)
ONE_VALUE = Edge(
    "unexpected",
    "the model is sent the generator's first value only",
    _facts(sent='{"result": "the price for GOOGL is 300"}', run_error=None, model_calls=2),
)
CALLED_AGAIN = Edge("unexpected", "the model was called a third time", _facts(model_calls=3), DRAINED)
FAILED_LATE = Edge(
    "unexpected", "the run failed after the drained values were sent", _facts(run_error="RuntimeError: late"), DRAINED
)
STREAMING = (REFUSED, REFUSED_UNNAMED, ONE_VALUE, CALLED_AGAIN, FAILED_LATE)

BUG = Bug(
    links=(
        "https://github.com/google/adk-python/issues/3955",
        "https://github.com/google/adk-python/issues/2977",
        "https://github.com/google/adk-python/issues/960",
        "https://github.com/google/adk-python/issues/1862",
        "https://github.com/google/adk-python/pull/4447",
        "https://github.com/google/adk-python/pull/2958",
        "https://github.com/google/adk-web/issues/383",
    ),
    description=(
        "A streaming tool (an async def that yields, the streaming-tools guide's monitor_stock_price) called "
        "under run_async fails: with the return annotation AsyncGenerator[str, None] the Vertex AI declaration "
        "raises 'Failed to parse the parameter return_value'; without it FunctionTool.run_async returns the async "
        "generator object itself, unconsumed, and the run fails where the event holding it is copied or "
        "serialized (\"cannot pickle 'async_generator' object\", or the trace's or the request's JSON); where a "
        "generator tool runs as a FunctionNode, its second yielded value raises 'Output already set'."
    ),
    expected=(
        "The tool runs and what it yielded reaches the model in the function response (PR #4447 drains the "
        "generator into a list), or the agent refuses the tool when it is built, naming it (streaming tools are "
        "for run_live)."
    ),
    claims=Claim(
        pr="#4447",
        pr_state="closed",
        still_open=True,
        quote="consumes the `async_generator` result into a list before returning, making it serializable",
        source="#3955 open (labels documentation, good first issue, live, request clarification, stale; "
        "reported 2025-12-17); #2977 and #960 open; #1862 closed (label live) with no fix named; PR #4447 "
        "('Closes: #3955') and PR #2958 (#1862) shown closed, no merge shown; adk-web #383 / PR #382 (open) "
        "call it an adk-web matter: text chat does not use live mode",
    ),
    range_notes=(
        "Measured: every case with the streaming tool fails under run_async on every release of 0.x, 1.x and 2.x "
        "(0.0.2-2.13.0), so no release is fixed; only where it fails moves. annotated: the Vertex AI declaration "
        "raises 'Failed to parse the parameter return_value: AsyncGenerator[str, NoneType]' on 0.0.2-1.21.0 "
        "(#3955's first error); 1.23.0 maps an AsyncGenerator return to its yield type (code absent from the "
        "release before it), and from there the tool is called "
        "and the unconsumed generator object fails in contents._get_contents' copy.deepcopy of the event "
        "(\"cannot pickle 'async_generator' object\", 1.23.0-2.3.0); 2.4.0 replaces that deepcopy with "
        "model_copy, and the generator object reaches the model request, whose JSON fails (2.4.0-2.11.0: "
        "'Object of type async_generator is not JSON serializable', what google-genai's json.dumps raises); "
        "2.12.0 runs a generator tool outside live mode as a FunctionNode (FunctionTool."
        "_should_run_generator_as_node), whose second yielded value raises 'Output already set. A node can "
        "produce at most one output' (2.12.0, 2.13.0).",
        "unannotated fails on the tool's result on every release (0.x and 1.0.0: pydantic's 'Unable to "
        "serialize unknown type: <class 'async_generator'>', #3955's own words; later the pickle, JSON and node "
        "errors as above). future-annotations: 1.2.0 resolves string annotations (typing.get_type_hints in "
        "from_function_with_options); from there the return annotation fails to parse up to 1.39.1, and 2.0.0 "
        "on fail as annotated does.",
    ),
    explanations=(
        Explanation(
            "future-annotations", "<1.2.0",
            "the tool's parameter annotation 'str' itself fails to parse: releases before 1.2.0 do not resolve "
            "string annotations (`from __future__ import annotations`) at all, for any tool, so the streaming "
            "bug is not reached (from_function_with_options gained typing.get_type_hints in 1.2.0)",
        ),
    ),
    cases={
        "annotated": CaseRole(
            "the guide's monitor_stock_price(stock_symbol: str) -> AsyncGenerator[str, None] under run_async, "
            "Vertex AI variant (#3955's first error, #2977)",
            reproduced=REPORTED, fixed=DRAINED, edges=STREAMING,
        ),
        "unannotated": CaseRole(
            "the same tool without its return annotation (#3955's second error, #960, #1862: cannot pickle)",
            reproduced=REPORTED, fixed=DRAINED, edges=STREAMING,
        ),
        "future-annotations": CaseRole(
            "the same tool with its annotations as strings, as `from __future__ import annotations` stores them "
            "(PR #4447's first problem)",
            reproduced=REPORTED, fixed=DRAINED, edges=STREAMING,
        ),
        "control-coroutine-tool": CaseRole(
            "control: a plain async def tool returning a string: its result reaches the model",
            reproduced=TOOL_FAILS, fixed=PINNED, control=True,
            edges=(Edge("unexpected", "the model was called once only", _facts(model_calls=1)),),
        ),
        "dict-result-kept": CaseRole(
            "non-regression: a coroutine tool's dict result reaches the model as the dict, not drained into its keys",
            reproduced=TOO_FAR, fixed=PINNED, non_regression=True,
            edges=(Edge("unexpected", "the dict reached the model wrapped", _facts(
                sent='{"result": {"prices": [300, 400], "stock_symbol": "GOOGL"}}')),),
        ),
    },
)  # fmt: skip
