"""openai-agents: RunHooks.on_llm_start / on_llm_end passed to the Runner are never called.

Upstream: https://github.com/openai/openai-agents-python/issues/1612 ("on_llm_start /
on_llm_end hooks passed to Runner aren't triggered", reported on 0.2.9, closed), fixed by
PR #1619 ("fire on_llm_start / on_llm_end in Runner.run() for streaming & non-streaming",
commit 6904dcbb). 0.2.9 added ``on_llm_start`` / ``on_llm_end`` to both ``RunHooksBase``
and ``AgentHooksBase``, but the runner (``agents/run.py``, ``_get_new_response`` and
``_run_single_turn_streamed``) awaited only ``agent.hooks.on_llm_*``: a ``RunHooks``
given to ``Runner.run(..., hooks=...)`` got ``on_agent_start``, ``on_tool_start`` and the
rest, never the two LLM hooks. The related open issue #1909 ("on_llm_end hook not being
called for agents with handoffs", reported on 0.2.11, labelled stale) is the ``handoff``
case: with a handoff in the run the run hooks see both agents' model calls from 0.2.11 on,
so on the releases the harness runs that thread's symptom does not show after 0.2.10.

The replay: one agent with a recording tool ``lookup``; the scripted model calls the tool,
then answers; a ``RunHooks`` subclass records every hook in order (the ``handoff`` case: agent
Triage hands off to agent Expert, which answers). Timeline: the run hooks in call order, and
how many times the model was called. The oracle compares the hook names with the expected
lifecycle: ``fixed`` when every model call is bracketed by on_llm_start / on_llm_end in the
sequence (start, llm, tool, llm, end); ``reproduced`` when the sequence is exactly that with
every on_llm_* missing; ``unexpected`` otherwise. Releases before 0.2.9 have no
``RunHooksBase.on_llm_start``: not applicable.

What the harness found (bisected per case over every final release): all three cases are not
applicable up to 0.2.8, reproduce on 0.2.9 and 0.2.10, and are fixed from 0.2.11 (the first
release holding commit 6904dcbb) through 0.24.0, every release of the matrix. Outside the
harness: the short scripts in ``scenarios/repro/`` give the same verdict as the case on every
release of the matrix (exit 125 on 0.2.8, 3 on 0.2.9/0.2.10, 0 from 0.2.11), and the diff of
``agents/run.py`` between 0.2.10 and 0.2.11 is the change from awaiting ``agent.hooks.on_llm_*``
alone to gathering ``hooks.on_llm_*`` with it, in both the streamed and the plain path.
"""

from __future__ import annotations

from functools import partial

from harness.runtime.outcomes import fixed, reproduced, unexpected
from harness.runtime.scenario import AsInstalled, Case, NotApplicable, Observation, Release, Scenario

QUESTION = "Look up the opening hours."
TOOL = "lookup"
ANSWER = "Open 9 to 5."

# The lifecycle each case must show: (hook, agent) in call order.
EXPECTED = {
    "single": [
        ("on_agent_start", "Assistant"),
        ("on_llm_start", "Assistant"),
        ("on_llm_end", "Assistant"),
        ("on_tool_start", "Assistant"),
        ("on_tool_end", "Assistant"),
        ("on_llm_start", "Assistant"),
        ("on_llm_end", "Assistant"),
        ("on_agent_end", "Assistant"),
    ],
    "handoff": [
        ("on_agent_start", "Triage"),
        ("on_llm_start", "Triage"),
        ("on_llm_end", "Triage"),
        ("on_handoff", "Triage -> Expert"),
        ("on_agent_start", "Expert"),
        ("on_llm_start", "Expert"),
        ("on_llm_end", "Expert"),
        ("on_agent_end", "Expert"),
    ],
}
LLM_HOOKS = ("on_llm_start", "on_llm_end")


def _recording_hooks(log: list):
    """A RunHooks subclass recording each hook as (name, agent name); parameter names are the
    base class's, since recent runners pass some hooks' arguments by keyword."""
    from agents import RunHooks

    class Recording(RunHooks):
        async def on_agent_start(self, context, agent):
            log.append(("on_agent_start", agent.name))

        async def on_agent_end(self, context, agent, output):
            log.append(("on_agent_end", agent.name))

        async def on_llm_start(self, context, agent, system_prompt, input_items):
            log.append(("on_llm_start", agent.name))

        async def on_llm_end(self, context, agent, response):
            log.append(("on_llm_end", agent.name))

        async def on_tool_start(self, context, agent, tool):
            log.append(("on_tool_start", agent.name))

        async def on_tool_end(self, context, agent, tool, result):
            log.append(("on_tool_end", agent.name))

        async def on_handoff(self, context, from_agent, to_agent):
            log.append(("on_handoff", f"{from_agent.name} -> {to_agent.name}"))

    return Recording()


def _agent(flow: str, models: list):
    from agents import Agent

    from harness.runtime.fakes import openai_agents as oa

    if flow == "single":
        tool = oa.RecordingTool(TOOL, {"what": "string"}, result="9 to 5")
        model = oa.ScriptedModel(
            "assistant",
            [[oa.function_call(TOOL, {"what": "hours"}, call_id="call-lookup")], [oa.text_message(ANSWER)]],
        )
        models.append(model)
        return Agent(name="Assistant", model=model, tools=[tool.tool])
    expert_model = oa.ScriptedModel("expert", [[oa.text_message(ANSWER)]])
    expert = Agent(name="Expert", model=expert_model)
    triage_model = oa.ScriptedModel("triage", [[oa.handoff_call(expert, call_id="call-handoff")]])
    models.extend([triage_model, expert_model])
    return Agent(name="Triage", model=triage_model, handoffs=[expert])


async def replay(*, flow: str, streamed: bool) -> Observation:
    """Run the agent with a recording RunHooks; return the hooks in call order."""
    from agents import Runner, lifecycle

    from harness.runtime.fakes import openai_agents as oa

    base = getattr(lifecycle, "RunHooksBase", None) or lifecycle.RunHooks  # RunHooksBase from 0.1.x
    if not hasattr(base, "on_llm_start"):
        raise NotApplicable(f"agents.lifecycle.{base.__name__} has no on_llm_start (added in 0.2.9)")
    log: list = []
    models: list = []
    agent = _agent(flow, models)
    hooks = _recording_hooks(log)
    if streamed:
        result = Runner.run_streamed(agent, QUESTION, hooks=hooks)
        await oa.drain_stream(result)
    else:
        result = await Runner.run(agent, QUESTION, hooks=hooks)
    calls = sum(len(m.inputs) for m in models)
    verb = "run_streamed" if streamed else "run"
    timeline = [
        f"Runner.{verb} final output: {result.final_output!r}",
        f"model calls: {calls}",
        *[f"run hook {name} ({agent_name})" for name, agent_name in log],
    ]
    return Observation(timeline=timeline, facts={"flow": flow, "hooks": [list(h) for h in log], "model_calls": calls})


def judge(obs: Observation):
    f = obs.facts
    seen = [tuple(h) for h in f["hooks"]]
    expected = EXPECTED[f["flow"]]
    llm_calls = sum(1 for name, _ in seen if name == "on_llm_start")
    if f["model_calls"] != 2:
        return unexpected(f"the model was called {f['model_calls']} times, the script has 2 turns")
    if seen == expected:
        return fixed(
            f"the run hooks saw on_llm_start/on_llm_end around each of the {llm_calls} model calls, "
            f"in lifecycle order ({len(seen)} hooks)"
        )
    if seen == [h for h in expected if h[0] not in LLM_HOOKS]:
        return reproduced(
            f"the model was called {f['model_calls']} times but the run hooks got no on_llm_start/on_llm_end "
            f"(only {', '.join(sorted({n for n, _ in seen}))})"
        )
    return unexpected(f"the run hooks saw {len(seen)} hooks, neither lifecycle: {seen}")


BUG = Release("openai-agents==0.2.10", "the last release before PR #1619")
FIX = AsInstalled("the pinned release (0.24.0) calls the run hooks' on_llm_start/on_llm_end (PR #1619, from 0.2.11)")

SCENARIO = Scenario(
    id="agents-run-hooks-llm-calls",
    framework="openai-agents",
    links=(
        "https://github.com/openai/openai-agents-python/issues/1612",
        "https://github.com/openai/openai-agents-python/pull/1619",
        "https://github.com/openai/openai-agents-python/issues/1909",
    ),
    description=(
        "A RunHooks passed to Runner.run / Runner.run_streamed gets on_agent_start, on_tool_start and "
        "the rest, but on_llm_start and on_llm_end are never called: the runner calls only the "
        "agent's own hooks around a model call."
    ),
    expected=(
        "The run hooks get on_llm_start before and on_llm_end after every model call, in lifecycle "
        "order with the other hooks, streamed or not, and for each agent of a handoff."
    ),
    cases=(
        Case(
            "run",
            partial(replay, flow="single", streamed=False),
            judge,
            {"reproduced": BUG, "fixed": FIX},
            "Runner.run: the model calls a tool, then answers (issue #1612)",
        ),
        Case(
            "streamed",
            partial(replay, flow="single", streamed=True),
            judge,
            {"reproduced": BUG, "fixed": FIX},
            "the same through Runner.run_streamed",
        ),
        Case(
            "handoff",
            partial(replay, flow="handoff", streamed=False),
            judge,
            {"reproduced": BUG, "fixed": FIX},
            "Runner.run: Triage hands off to Expert, which answers (issue #1909)",
        ),
    ),
)
