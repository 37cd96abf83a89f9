"""adk-repeated-tool-call: what the harness needs beside repro.py."""

import asyncio
import contextlib
import copy
import json

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Edge, InProcess


def _identical_call(tool, args, tool_context):
    # The seed's identity; the branch is left out, as the script's agent has no sub-agents.
    return (tool_context.invocation_id, tool_context.agent_name, tool.name, json.dumps(args or {}, sort_keys=True))


def _tool_name_only(tool, args, tool_context):
    return (tool_context.invocation_id, tool_context.agent_name, tool.name)


@contextlib.contextmanager
def _reference_dedupe(key, keyed_on):
    """Every LlmAgent built in the block gets a reference single-flight dedupe as its public
    before/after tool callbacks: the first call for a key runs the tool and publishes its result
    from the after-tool callback; a later or concurrent call with the same key waits for it, and
    its before-tool callback returns a copy, which skips the execution but still answers the call.
    The script's tool never fails, so there is no eviction path (the seed evicts failed runs)."""
    from google.adk.agents import LlmAgent

    original = LlmAgent.__init__

    def __init__(self, **data):
        flights = {}

        async def before_tool(tool, args, tool_context):
            flight = flights.get(key(tool, args, tool_context))
            if flight is None:
                future = asyncio.get_running_loop().create_future()
                flights[key(tool, args, tool_context)] = (tool_context.function_call_id, future)
                return None  # this call runs the tool
            return copy.deepcopy(await asyncio.shield(flight[1]))

        async def after_tool(tool, args, tool_context, tool_response):
            owner, future = flights.get(key(tool, args, tool_context), (None, None))
            if future is not None and owner == tool_context.function_call_id and not future.done():
                future.set_result(copy.deepcopy(tool_response))

        before_tool.__doc__ = f"reference single-flight dedupe keyed on {keyed_on}"
        original(self, **{"before_tool_callback": before_tool, "after_tool_callback": after_tool, **data})

    LlmAgent.__init__ = __init__
    try:
        yield
    finally:
        LlmAgent.__init__ = original


RUNS_EVERY_CALL = AsInstalled(
    "the pinned release, unpatched: its RunConfig has no dedupe_tool_calls, so every call runs the tool"
)
SEED_DEDUPE = InProcess(
    "a single-flight dedupe keyed like the seed's (invocation, agent, tool, canonical arguments), "
    "through the agent's public before/after tool callbacks",
    lambda: _reference_dedupe(_identical_call, "invocation, agent, tool name and canonical arguments"),
)
TOOL_NAME_DEDUPE = InProcess(
    "an over-eager single-flight dedupe keyed on the tool name only, through the same callbacks",
    lambda: _reference_dedupe(_tool_name_only, "invocation, agent and tool name only (ignores the arguments)"),
)


def _calls(obs, second_args):
    """The facts' two calls, the second with `second_args` (None: the first's arguments)."""
    (first, args), (second, _) = obs.facts["calls"]
    obs.facts["calls"] = [(first, args), (second, second_args or args)]


# Observations no build makes, one step across the judge's line (nox -s mutants).
IDENTICAL_EDGES = (
    Edge("unexpected", "the repeat carries other arguments: not the identical calls the case is about",
         lambda obs: _calls(obs, '{"city": "London"}'), RUNS_EVERY_CALL),
    Edge("unexpected", "one shared execution, but the repeat got no function response",
         lambda obs: obs.facts["answered"].discard(obs.facts["calls"][1][0]), SEED_DEDUPE),
)  # fmt: skip
DISTINCT_EDGES = (
    Edge("unexpected", "the two calls carry the same arguments: not the case's distinct calls",
         lambda obs: _calls(obs, None), RUNS_EVERY_CALL),
    Edge("unexpected", "two executions, both for the first call: the second call never ran, yet nothing was shared",
         lambda obs: obs.facts.update(executions=[obs.facts["calls"][0]] * 2), RUNS_EVERY_CALL),
)  # fmt: skip

BUG = Bug(
    links=(
        "https://github.com/google/adk-python/issues/3940",
        "https://github.com/google/adk-python/pull/7193",
        "https://github.com/google/adk-python/pull/4189",
    ),
    description=(
        "When the model repeats an identical tool call within one invocation, in the same "
        "response or a later step, the tool runs again for every repeat."
    ),
    expected=(
        "With RunConfig.dedupe_tool_calls, identical calls (canonical arguments, any key order) "
        "share one execution and each call still gets its own function response; calls with "
        "different arguments all run."
    ),
    cases={
        "across-steps": CaseRole(
            "get_weather(city='Paris'), then the identical call in the next model step",
            reproduced=RUNS_EVERY_CALL, fixed=SEED_DEDUPE, edges=IDENTICAL_EDGES,
        ),
        "same-step": CaseRole(
            "one model response holds get_weather(city='Paris') twice",
            reproduced=RUNS_EVERY_CALL, fixed=SEED_DEDUPE,
        ),
        "reordered-args": CaseRole(
            "the repeat carries the same arguments in another key order",
            reproduced=RUNS_EVERY_CALL, fixed=SEED_DEDUPE,
        ),
        "different-args": CaseRole(
            "Paris, then London in the next step: both calls must run",
            reproduced=TOOL_NAME_DEDUPE, fixed=RUNS_EVERY_CALL, control=True, edges=DISTINCT_EDGES,
        ),
    },
)  # fmt: skip
