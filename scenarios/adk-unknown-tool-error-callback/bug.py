"""adk-unknown-tool-error-callback: what the harness needs beside repro.py (the bug itself is there)."""

import contextlib
import difflib
from collections.abc import Iterator

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess, Release


@contextlib.contextmanager
def _error_escapes_the_callbacks() -> Iterator[None]:
    """Break on_tool_error_callback: the error a tool call raises escapes before any callback runs (the order
    of the releases before the lookup moved inside the try block)."""
    from google.adk.plugins.plugin_manager import PluginManager

    original = PluginManager.run_on_tool_error_callback

    async def run_on_tool_error_callback(self, *, error, **kwargs):
        raise error

    PluginManager.run_on_tool_error_callback = run_on_tool_error_callback  # type: ignore[method-assign]
    try:
        yield
    finally:
        PluginManager.run_on_tool_error_callback = original  # type: ignore[method-assign]


@contextlib.contextmanager
def _names_corrected() -> Iterator[None]:
    """A fix that goes too far: an unknown name is corrected to the closest tool of the agent, which then runs."""
    from google.adk.flows.llm_flows.tools import _caller

    original = _caller._get_tool

    def _get_tool(function_call, tools_dict):
        close = difflib.get_close_matches(function_call.name or "", list(tools_dict), n=1)
        return tools_dict[close[0]] if close else original(function_call, tools_dict)

    _caller._get_tool = _get_tool
    try:
        yield
    finally:
        _caller._get_tool = original


REPORTED = Release(
    "google-adk==1.14.0", "#2933's release (current on 2025-09-12): the plugin's callback is never called"
)
FIRST_FIXED = Release(
    "google-adk==1.17.0", "the first release whose lookup error reaches the plugins' on_tool_error_callback"
)
PINNED = AsInstalled("the pinned release (2.13.0): the callbacks get every tool call's error")
REPORTED_4005 = Release(
    "google-adk==1.21.0", "#4005's release (current on 2025-12-23): the agent's callback is called and answers"
)
ESCAPES = InProcess(
    "the tool call's error raised before any on_tool_error_callback runs, in process on the pinned release",
    _error_escapes_the_callbacks,
)
CORRECTED = InProcess(
    "a fix that goes too far, in process: an unknown name is corrected to the closest tool, which runs",
    _names_corrected,
)


def _facts(**changes):
    return lambda obs: obs.facts.update(changes)


def _answered(build):
    """Edges of a case whose callback answers: each part of the fixed verdict, crossed alone."""
    return (
        Edge("unexpected", "the callback was called twice", lambda obs: obs.facts["seen"].append(
            obs.facts["seen"][0]), build),
        Edge("unexpected", "the model was called a third time", _facts(model_calls=3), build),
        Edge("unexpected", "the run failed after the answer was sent", _facts(run_error="RuntimeError: late"), build),
        Edge("unexpected", "the model was sent another response", _facts(sent='{"result": null}'), build),
        Edge("unexpected", "the callback saw another tool's error", _facts(seen=["other: ValueError: x"]), build),
    )  # fmt: skip


BUG = Bug(
    links=(
        "https://github.com/google/adk-python/issues/2933",
        "https://github.com/google/adk-python/issues/2346",
        "https://github.com/google/adk-python/pull/2310",
        "https://github.com/google/adk-python/pull/2345",
        "https://github.com/google/adk-python/issues/2050",
        "https://github.com/google/adk-python/issues/4005",
        "https://github.com/google/adk-js/issues/789",
    ),
    description=(
        "A function call naming a tool the agent does not have (a hallucinated name) bypasses "
        "on_tool_error_callback: _execute_single_function_call_async looked the tool up before the try block "
        "that routes a tool's exception to the callbacks, so the lookup's ValueError ('Function get_wether is "
        "not found in the tools_dict.') ends the run and the plugin's callback that would answer it never runs."
    ),
    expected=(
        "The lookup error reaches on_tool_error_callback (the plugins', and the agent's where it has one); the "
        "callback's answer becomes the function response the model is sent, and the run continues."
    ),
    claims=Claim(
        pr="#2310 / #2345",
        pr_state="closed",
        still_open=False,
        quote="sometimes Gemini calls function with wrong tool name, will cause a ValueError, how can I handle "
        "this Error",
        source="#2933 (1.14.0, label question) closed; #2346 (2025-08-05) with PRs #2310 and #2345 (catch the "
        "lookup error), both shown closed, no merge shown; #2050 (feature request, 1.7.0) closed; #4005 "
        "(2025-12-23, 1.21.0) closed, titled 'Tool lookup errors not gracefully handled by "
        "on_tool_error_callback' while its body says the error 'is caught' and the callbacks 'are invoked'",
    ),
    range_notes=(
        "Measured: not applicable before BasePlugin has on_tool_error_callback; the plugin's callback is "
        "bypassed for an unknown name (reproduced) from its first release to 1.16.0 and called from 1.17.0 on, "
        "where _execute_single_function_call_async wraps the lookup in try/except ValueError and runs "
        "_run_on_tool_error_callbacks with a BaseTool(name=..., description='Tool not found'). The agent's own "
        "on_tool_error_callback is called for it on every release that has the field, so agent-callback is "
        "never reproduced by a release (its reproduced proof is in process).",
        "#4005's title names the bypass, but on its release (1.21.0) the callbacks are called and answer: the "
        "thread describes code already fixed; what it asks for (a callback's chance when none answers) is the "
        "re-raise that callback-declines checks. From 2.9.0 (2.8.0 still ends the run) a declined lookup error "
        "reaches the model as an error response instead of ending the run (build_tool_not_found_response in "
        "flows/llm_flows/_tool_error_handler.py: 'A name the model invented is the model's own mistake to "
        "correct'); callback-declines accepts both.",
    ),
    cases={
        "plugin-callback": CaseRole(
            "a plugin's on_tool_error_callback answers; the model calls get_wether, the agent has get_weather "
            "(#2933, #2346)",
            reproduced=REPORTED, fixed=FIRST_FIXED, edges=_answered(FIRST_FIXED),
        ),
        "agent-callback": CaseRole(
            "the agent's own on_tool_error_callback answers the unknown name (#4005's words)",
            reproduced=ESCAPES, fixed=REPORTED_4005, edges=_answered(PINNED),
        ),
        "control-tool-raises": CaseRole(
            "control: the registered get_weather raises; the plugin's callback answers and the model is sent it",
            reproduced=ESCAPES, fixed=PINNED, control=True,
        ),
        "callback-declines": CaseRole(
            "non-regression: the plugin's callback returns None: the unknown call does not succeed and no other "
            "tool runs in its place",
            reproduced=CORRECTED, fixed=PINNED, non_regression=True,
            edges=(
                Edge("unexpected", "the lookup error ended the run after a second model call", _facts(
                    run_error="ValueError: Tool 'get_wether' not found.", sent=None, model_calls=2)),
                Edge("reproduced", "the model was sent a success for the unknown call", _facts(
                    sent='{"result": "sunny"}')),
                Edge("fixed", "the lookup error ended the run", _facts(
                    run_error="ValueError: Tool 'get_wether' not found.", sent=None, model_calls=1)),
            ),
        ),
    },
)  # fmt: skip
