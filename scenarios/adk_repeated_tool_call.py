"""google-adk: a repeated identical tool call runs the tool again.

Symptom (#3940): a model re-emits an identical function call, in the same response while a
slow tool is still running or in a later step, and ADK runs the tool once per call. The seed
PR (#7193, successor of #4189) adds an opt-in ``RunConfig.dedupe_tool_calls``: within one
invocation, identical calls (same agent, branch, tool name and canonical arguments) share one
tool execution through a single-flight cache, and each duplicate still gets its own function
response event, marked ``custom_metadata['adk_tool_call_cache_hit']``.

The repeat comes in the next model step (``across-steps``), in the same model response, where
the calls run concurrently (``same-step``), or with the same arguments in another key order
(``reordered-args``, canonically identical). ``different-args`` is a control case: calls that
differ in an argument must both run on every release, fix or no fix; there, ``reproduced``
means a dedupe that is too broad answered one call with the other's result (its proof is
such a dedupe, installed in process).

The replay passes ``RunConfig(dedupe_tool_calls=True)`` where the release's RunConfig has the
field; other releases run with the default RunConfig, as they have no way to share a run.

Timeline: the RunConfig used; the session's events (call ids normalised, ``[cache-hit]`` on a
response event the fix marked, the arguments as sent when their key order is not sorted); the
tool's executions, as the tool recorded them; the number of model calls.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import copy
import json
from collections.abc import Callable
from functools import partial
from typing import Any

from harness.runtime.outcomes import fixed, reproduced, unexpected
from harness.runtime.scenario import AsInstalled, Case, Edge, InProcess, Observation, Scenario
from harness.runtime.timeline import Placeholders

APP = "weather_app"
AGENT = "weather_agent"
TOOL = "get_weather"
QUESTION = "What is the weather in Paris?"
TOOL_LATENCY = 0.05  # seconds: a slow tool, so a same-step duplicate arrives while it runs
CACHE_HIT_KEY = "adk_tool_call_cache_hit"  # the seed's mark on a shared response event

# Scripted model turns, as data: a turn is a list of get_weather arguments (one function
# call each, in one model response) or the final text answer.
PARIS = {"city": "Paris"}
PARIS_C = {"city": "Paris", "unit": "C"}
PARIS_C_REORDERED = {"unit": "C", "city": "Paris"}
LONDON = {"city": "London"}
ANSWER = "It is sunny in Paris."

ACROSS_STEPS = ([PARIS], [PARIS], ANSWER)
SAME_STEP = ([PARIS, PARIS], ANSWER)
REORDERED_ARGS = ([PARIS_C], [PARIS_C_REORDERED], ANSWER)
DIFFERENT_ARGS = ([PARIS], [LONDON], "It is sunny in Paris and in London.")


def _canonical(args: dict | None) -> str:
    """The arguments as the seed compares them: key order does not matter."""
    return json.dumps(args or {}, sort_keys=True)


def _weather_tool(executions: list[tuple[str | None, dict]]):
    """A ``get_weather`` function tool that records each execution in ``executions``."""
    from google.adk.tools import ToolContext

    async def get_weather(city, unit="C", tool_context=None):
        """Returns the current weather in a city."""
        executions.append((tool_context.function_call_id, {"city": city, "unit": unit}))
        await asyncio.sleep(TOOL_LATENCY)
        return {"city": city, "unit": unit, "forecast": "sunny"}

    # Real types, not the strings `from __future__ import annotations` leaves: ADK builds the
    # function declaration from them, and 2.x finds the context parameter by its annotation.
    get_weather.__annotations__ = {"city": str, "unit": str, "tool_context": ToolContext, "return": dict}
    return get_weather


def _script(turns) -> list:
    from harness.runtime.fakes import adk

    return [adk.text(t) if isinstance(t, str) else adk.calls(*((TOOL, a) for a in t)) for t in turns]


def _run_config():
    """``RunConfig(dedupe_tool_calls=True)`` where the release has the field, else the default."""
    from google.adk.agents import RunConfig

    if "dedupe_tool_calls" in RunConfig.model_fields:
        return RunConfig(dedupe_tool_calls=True), "run_config dedupe_tool_calls=True"
    return RunConfig(), "run_config default (this RunConfig has no dedupe_tool_calls)"


# The proof builds install a reference dedupe through the agent's public tool callbacks; a
# context variable (copied into the case's event loop by asyncio.run) tells replay to.
_REFERENCE_KEY: contextvars.ContextVar[Callable | None] = contextvars.ContextVar("_REFERENCE_KEY", default=None)


async def replay(*, turns) -> Observation:
    """Ask once; the scripted model plays ``turns``; collect calls, responses and executions."""
    from google.adk.agents import LlmAgent

    from harness.runtime.fakes import adk

    executions: list[tuple[str | None, dict]] = []
    llm = adk.ScriptedLlm(model="scripted", script=_script(turns))
    callbacks, header = {}, []
    if (key := _REFERENCE_KEY.get()) is not None:
        flights = _SingleFlight(key)
        callbacks = {"before_tool_callback": flights.before_tool, "after_tool_callback": flights.after_tool}
        header.append(f"tool callbacks: reference single-flight dedupe keyed on {key.__doc__}")
    agent = LlmAgent(
        name=AGENT,
        model=llm,
        instruction="Answer weather questions with get_weather.",
        tools=[_weather_tool(executions)],
        **callbacks,
    )
    run_config, config_line = _run_config()
    session = await adk.run_agent(agent, QUESTION, run_config=run_config, app_name=APP)

    ids = Placeholders()
    lines = [config_line, *header]
    calls, answered, cache_hits = [], set(), 0
    for event in session.events:
        line = adk.event_line(event, ids)
        for fc in event.get_function_calls():
            calls.append((ids("call", fc.id), _canonical(fc.args)))
            if list(fc.args or {}) != sorted(fc.args or {}):
                line += f" (args as sent: {json.dumps(fc.args)})"
        responses = event.get_function_responses()
        answered.update(ids("call", fr.id) for fr in responses)
        if (getattr(event, "custom_metadata", None) or {}).get(CACHE_HIT_KEY):
            cache_hits += 1
            line += " [cache-hit]"
        lines.append(line)
    # In same-step the two calls run as concurrent tasks (the flow gathers one task per call,
    # flows/llm_flows/tools/_batch_executor.py), so the order in which they start is the event
    # loop's, not the bug's: list executions in the order of the calls they ran for.
    order = {call: i for i, (call, _) in enumerate(calls)}
    runs = sorted(
        ((ids("call", cid), _canonical(a)) for cid, a in executions), key=lambda run: order.get(run[0], len(order))
    )
    lines += [f"executed {TOOL}({args}) for {call}" for call, args in runs]
    lines.append(adk.model_calls_line(llm))
    return Observation(
        timeline=lines,
        facts={"calls": calls, "answered": answered, "executions": runs, "cache_hits": cache_hits},
    )


def _figures(obs: Observation, kind: str) -> tuple[int, int, list[str], str]:
    calls, runs = obs.facts["calls"], obs.facts["executions"]
    n, k = len(runs), len(calls)
    unanswered = [c for c, _ in calls if c not in obs.facts["answered"]]
    return n, k, unanswered, f"{TOOL} executed {n} time{'s' if n != 1 else ''} for {k} {kind} calls"


def judge_shared(obs: Observation):
    """The documented bug: an identical call runs the tool again instead of sharing its run."""
    n, k, unanswered, figures = _figures(obs, "identical")
    if k != 2 or len({a for _, a in obs.facts["calls"]}) != 1:
        args = [a for _, a in obs.facts["calls"]]
        return unexpected(f"the session holds {k} {TOOL} calls with arguments {args}, expected 2 identical calls")
    if n == 2:
        return reproduced(figures + ", expected 1")
    if n == 1 and not unanswered:
        hits = obs.facts["cache_hits"]
        marked = f"{hits} response event{'s' if hits != 1 else ''} marked as cache hit"
        return fixed(f"{figures}; both calls answered, {marked}")
    if n == 1:
        return unexpected(figures + f", but {', '.join(unanswered)} got no function response")
    return unexpected(figures + ", expected 1 shared execution")


def judge_distinct(obs: Observation):
    """Non-regression: calls that differ in an argument each run the tool and get their own answer."""
    n, k, unanswered, figures = _figures(obs, "distinct")
    wanted = [a for _, a in obs.facts["calls"]]
    if k != 2 or len(set(wanted)) != 2:
        return unexpected(f"the session holds {k} {TOOL} calls with arguments {wanted}, expected 2 distinct calls")
    ran_for = {c for c, _ in obs.facts["executions"]}
    dropped = [c for c, _ in obs.facts["calls"] if c not in ran_for]
    if n == 2 and not dropped and not unanswered:
        return fixed(figures + "; both calls answered")
    if n == 1 and len(dropped) == 1:
        fate = "got no function response" if dropped[0] in unanswered else "was answered from the other call's run"
        return reproduced(figures + f", expected 2: {dropped[0]} did not run and {fate}")
    return unexpected(figures + f"; calls that never ran: {dropped or 'none'}; unanswered: {unanswered or 'none'}")


# --- builds used to prove the oracles (tests only) ----------------------------------------


def _identical_call(tool, args, tool_context):
    """invocation, agent, tool name and canonical arguments"""
    # The seed's identity; the branch is left out, as this agent has no sub-agents.
    return (tool_context.invocation_id, tool_context.agent_name, tool.name, _canonical(args))


def _tool_name_only(tool, args, tool_context):
    """invocation, agent and tool name only (ignores the arguments)"""
    return (tool_context.invocation_id, tool_context.agent_name, tool.name)


class _SingleFlight:
    """A reference dedupe through the public ``before_tool_callback``/``after_tool_callback``.

    The first call for a key runs the tool and publishes its result from the after-tool
    callback; a later or concurrent call with the same key waits for that result, and its
    before-tool callback returns a copy, which skips the execution but still answers the call.
    The scenario's tool never fails, so there is no eviction path (the seed evicts failed runs).
    """

    def __init__(self, key: Callable[..., Any]):
        self._key = key
        self._flights: dict[Any, tuple[str | None, asyncio.Future]] = {}

    async def before_tool(self, tool, args, tool_context):
        flight = self._flights.get(self._key(tool, args, tool_context))
        if flight is None:
            future = asyncio.get_running_loop().create_future()
            self._flights[self._key(tool, args, tool_context)] = (tool_context.function_call_id, future)
            return None  # this call runs the tool
        return copy.deepcopy(await asyncio.shield(flight[1]))

    async def after_tool(self, tool, args, tool_context, tool_response):
        owner, future = self._flights.get(self._key(tool, args, tool_context), (None, None))
        if future is not None and owner == tool_context.function_call_id and not future.done():
            future.set_result(copy.deepcopy(tool_response))
        return None


@contextlib.contextmanager
def _reference_dedupe(key: Callable[..., Any]):
    token = _REFERENCE_KEY.set(key)
    try:
        yield
    finally:
        _REFERENCE_KEY.reset(token)


RUNS_EVERY_CALL = AsInstalled(
    "the pinned release, unpatched: its RunConfig has no dedupe_tool_calls, so every call runs the tool"
)
SEED_DEDUPE = InProcess(
    "a single-flight dedupe keyed like the seed's (invocation, agent, tool, canonical arguments), "
    "through the agent's public before/after tool callbacks",
    lambda: _reference_dedupe(_identical_call),
)
TOOL_NAME_DEDUPE = InProcess(
    "an over-eager single-flight dedupe keyed on the tool name only, through the same callbacks",
    lambda: _reference_dedupe(_tool_name_only),
)

# --- edges: observations no build makes, one step across an oracle's line (nox -s mutants) ----


def _repeat_with_other_args(obs: Observation) -> None:
    (first, args), (second, _) = obs.facts["calls"]
    obs.facts["calls"] = [(first, args), (second, _canonical(LONDON))]


def _second_call_unanswered(obs: Observation) -> None:
    obs.facts["answered"].discard(obs.facts["calls"][1][0])


def _same_args(obs: Observation) -> None:
    (first, args), (second, _) = obs.facts["calls"]
    obs.facts["calls"] = [(first, args), (second, args)]


def _both_runs_for_first_call(obs: Observation) -> None:
    first, args = obs.facts["calls"][0]
    obs.facts["executions"] = [(first, args), (first, args)]


REPEAT_WITH_OTHER_ARGS = Edge(
    "unexpected",
    "the repeat carries other arguments: not the identical calls the case is about",
    _repeat_with_other_args,
    RUNS_EVERY_CALL,
)
SHARED_RUN_ANSWERS_ONE = Edge(
    "unexpected",
    "one shared execution, but the repeat got no function response",
    _second_call_unanswered,
    SEED_DEDUPE,
)

SCENARIO = Scenario(
    id="adk-repeated-tool-call",
    framework="google-adk",
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
    cases=(
        Case(
            "across-steps",
            partial(replay, turns=ACROSS_STEPS),
            judge_shared,
            {"reproduced": RUNS_EVERY_CALL, "fixed": SEED_DEDUPE},
            "get_weather(city='Paris'), then the identical call in the next model step",
            edges=(REPEAT_WITH_OTHER_ARGS, SHARED_RUN_ANSWERS_ONE),
        ),
        Case(
            "same-step",
            partial(replay, turns=SAME_STEP),
            judge_shared,
            {"reproduced": RUNS_EVERY_CALL, "fixed": SEED_DEDUPE},
            "one model response holds get_weather(city='Paris') twice",
        ),
        Case(
            "reordered-args",
            partial(replay, turns=REORDERED_ARGS),
            judge_shared,
            {"reproduced": RUNS_EVERY_CALL, "fixed": SEED_DEDUPE},
            "the repeat carries the same arguments in another key order",
        ),
        Case(
            "different-args",
            partial(replay, turns=DIFFERENT_ARGS),
            judge_distinct,
            {"reproduced": TOOL_NAME_DEDUPE, "fixed": RUNS_EVERY_CALL},
            "Paris, then London in the next step: both calls must run",
            control=True,
            edges=(
                Edge(
                    "unexpected",
                    "the two calls carry the same arguments: not the case's distinct calls",
                    _same_args,
                    RUNS_EVERY_CALL,
                ),
                Edge(
                    "unexpected",
                    "two executions, both for the first call: the second call never ran, yet nothing was shared",
                    _both_runs_for_first_call,
                    RUNS_EVERY_CALL,
                ),
            ),
        ),
    ),
)
