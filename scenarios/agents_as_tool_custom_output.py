"""openai-agents: a sub-agent used through Agent.as_tool that ends on its own tool hands the lead an empty string.

Upstream: https://github.com/openai/openai-agents-python/issues/2110 (a sub-agent with a custom
``tool_use_behavior`` returning ``ToolsToFinalOutputResult``, used through ``as_tool``: the lead
agent receives nothing) and https://github.com/openai/openai-agents-python/pull/2112 ("Fix
as_tool returning blank string on early tool termination", which says ``stop_on_first_tool`` and
``StopAtTools`` are hit too). ``as_tool``'s wrapper returned
``ItemHelpers.text_message_outputs(output.new_items)``: the text of the sub-run's assistant
messages. When the sub-agent's run ends on its own tool, its final output is the tool's result
and it never wrote a message, so the lead got ``""`` as the tool's output. The fix returns
``run_result.final_output``.

The replay: a lead agent ``Support`` with one tool, the sub-agent ``Orders`` through
``as_tool(tool_name="orders_agent")``; the lead's scripted model calls ``orders_agent`` and then
answers with text; the sub-agent's scripted model calls its tool ``get_order_status`` (a
recording tool answering ``order 42: shipped``) or, in the control, answers with text.

Timeline: what the sub-agent's tool ran with, the sub-agent's final output as its own run saw
it, the ``function_call_output`` the lead's model received for ``orders_agent``, and the lead's
final output. The oracle: ``fixed`` when the
lead received the sub-agent's final output, ``reproduced`` when it received ``""`` while the
sub-agent's own final output was not empty, ``unexpected`` otherwise.

The replay passes no ``custom_output_extractor`` (the thread's workaround, which would hide the
bug); it reads the sub-run's final output from the sub-agent's ``AgentHooks.on_end``.

What the harness found (bisected per case over every final release, 0.0.2-0.24.0):

- stop-on-first-tool, custom-tools-to-final-output: not-applicable 0.0.2-0.0.4 (``Agent`` has
  no ``tool_use_behavior`` before 0.0.5), reproduced 0.0.5-0.6.1, fixed from 0.6.2. PR #2112
  was merged 2025-11-21, the day after 0.6.1; 0.6.1's ``agents/agent.py`` returns
  ``ItemHelpers.text_message_outputs(output.new_items)``, 0.6.2's ``output.final_output``.
- control (the sub-agent answers with text): fixed on every release from 0.0.2.
"""

from __future__ import annotations

import contextlib
from functools import partial

from harness.runtime.outcomes import fixed, reproduced, unexpected
from harness.runtime.scenario import AsInstalled, Case, Edge, InProcess, NotApplicable, Observation, Release, Scenario
from harness.runtime.timeline import Placeholders, quote

QUESTION = "Where is my order 42?"
SUB_TOOL = "get_order_status"
SUB_RESULT = "order 42: shipped"
CUSTOM_PREFIX = "status from tool: "
SUB_TEXT = "Order 42 has shipped."
LEAD_TOOL = "orders_agent"
LEAD_CALL = "call-lead"
SUB_CALL = "call-sub"
LEAD_ANSWER = "Your order is on its way."


def _behavior(variant: str):
    if variant == "stop-on-first-tool":
        return "stop_on_first_tool"
    if variant == "custom":
        try:
            from agents import ToolsToFinalOutputResult
        except ImportError as exc:
            raise NotApplicable(f"agents has no ToolsToFinalOutputResult: {exc}") from exc

        def to_final_output(context, tool_results):  # a plain function, as in the issue
            return ToolsToFinalOutputResult(
                is_final_output=True, final_output=CUSTOM_PREFIX + str(tool_results[0].output)
            )

        return to_final_output
    return "run_llm_again"


def _sub_turns(variant: str) -> list:
    from harness.runtime.fakes import openai_agents as oa

    if variant == "control":
        return [[oa.text_message(SUB_TEXT, id="msg-sub")]]
    return [[oa.function_call(SUB_TOOL, {"order_id": "42"}, call_id=SUB_CALL)]]


async def replay(*, variant: str) -> Observation:
    """The lead calls the sub-agent through as_tool; the sub-agent ends on its tool (or on text)."""
    import dataclasses

    from agents import Agent, AgentHooks, Runner

    from harness.runtime.fakes import openai_agents as oa

    if variant != "control" and "tool_use_behavior" not in {f.name for f in dataclasses.fields(Agent)}:
        raise NotApplicable("agents.Agent has no tool_use_behavior field")
    sub_outputs: list = []

    class RecordEnd(AgentHooks):
        async def on_end(self, context, agent, output):
            sub_outputs.append(output)

    status = oa.RecordingTool(SUB_TOOL, {"order_id": "string"}, result=SUB_RESULT)
    sub_model = oa.ScriptedModel("orders", _sub_turns(variant))
    sub = Agent(
        name="Orders",
        model=sub_model,
        tools=[status.tool],
        hooks=RecordEnd(),
        **({} if variant == "control" else {"tool_use_behavior": _behavior(variant)}),
    )
    lead_model = oa.ScriptedModel(
        "support",
        [
            [oa.function_call(LEAD_TOOL, {"input": "status of order 42"}, call_id=LEAD_CALL)],
            [oa.text_message(LEAD_ANSWER, id="msg-lead")],
        ],
    )
    lead = Agent(
        name="Support",
        model=lead_model,
        tools=[sub.as_tool(tool_name=LEAD_TOOL, tool_description="Looks up orders.")],
    )
    result = await Runner.run(lead, QUESTION)
    ids = Placeholders()
    ids.keep(LEAD_CALL, SUB_CALL)
    received = [
        oa._get(item, "output")
        for item in (oa.as_input_list(lead_model.inputs[1]) if len(lead_model.inputs) > 1 else [])
        if oa._get(item, "type") == "function_call_output" and oa._get(item, "call_id") == LEAD_CALL
    ]
    timeline = [
        *status.call_lines(ids),
        *(f"sub-agent Orders final output: {quote(str(o))}" for o in sub_outputs),
        *(f"lead's model received for {LEAD_TOOL}: {quote(str(r))}" for r in received),
        f"lead's model calls: {len(lead_model.inputs)}",
        f"lead final output: {quote(str(result.final_output))}",
    ]
    return Observation(
        timeline=timeline,
        facts={
            "sub_tool_runs": len(status.calls),
            "sub_outputs": [str(o) for o in sub_outputs],
            "received": [str(r) for r in received],
            "expected": _expected(variant),
        },
    )


def _expected(variant: str) -> str:
    if variant == "custom":
        return CUSTOM_PREFIX + SUB_RESULT
    if variant == "control":
        return SUB_TEXT
    return SUB_RESULT


def judge(obs: Observation):
    f = obs.facts
    expected = f["expected"]
    if f["sub_outputs"] != [expected]:
        return unexpected(f"the sub-agent's run ended with {f['sub_outputs']}, expected [{expected!r}]")
    if len(f["received"]) != 1:
        return unexpected(f"the lead's model received {len(f['received'])} outputs for {LEAD_TOOL}, expected 1")
    got = f["received"][0]
    if got == expected:
        return fixed(f"the lead received the sub-agent's final output {got!r} as {LEAD_TOOL}'s output")
    if got == "":
        return reproduced(
            f"the sub-agent ended with {expected!r} but the lead received an empty string as {LEAD_TOOL}'s output"
        )
    return unexpected(f"the lead received {got!r} for {LEAD_TOOL}, the sub-agent ended with {expected!r}")


def judge_control(obs: Observation):
    """The sub-agent answers with text: the lead must receive that text (every release)."""
    f = obs.facts
    if f["sub_tool_runs"] != 0:
        return unexpected(f"the sub-agent's tool ran {f['sub_tool_runs']} times, expected never")
    return judge(obs)


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


def _received(value: str):
    def alter(obs: Observation) -> None:
        obs.facts["received"] = [value]

    return alter


def _received_twice(obs: Observation) -> None:
    obs.facts["received"] = obs.facts["received"] * 2


BUG = Release("openai-agents==0.6.1", "the last release before PR #2112")
FIXED = Release("openai-agents==0.6.2", "the first release with PR #2112 (as_tool returns final_output)")
EDGES = (
    Edge("unexpected", "the lead received some other text", _received("something else")),
    Edge("unexpected", "the lead received two outputs for the call", _received_twice),
)

SCENARIO = Scenario(
    id="agents-as-tool-custom-output",
    framework="openai-agents",
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
    cases=(
        Case(
            "stop-on-first-tool",
            partial(replay, variant="stop-on-first-tool"),
            judge,
            {"reproduced": BUG, "fixed": FIXED},
            'the sub-agent has tool_use_behavior="stop_on_first_tool"',
            edges=EDGES,
        ),
        Case(
            "custom-tools-to-final-output",
            partial(replay, variant="custom"),
            judge,
            {"reproduced": BUG, "fixed": FIXED},
            "the sub-agent's tool_use_behavior is a function returning ToolsToFinalOutputResult (issue #2110)",
        ),
        Case(
            "control",
            partial(replay, variant="control"),
            judge_control,
            {
                "reproduced": InProcess("as_tool given an extractor that returns an empty string", _blank_as_tool),
                "fixed": AsInstalled("the sub-agent's text reaches the lead on the pinned release (0.24.0)"),
            },
            "the sub-agent answers with text: the lead receives that text on every release",
            control=True,
        ),
    ),
)
