# /// script
# requires-python = ">=3.10"
# dependencies = ["openai-agents"]
# ///
"""openai-agents: a sub-agent used through Agent.as_tool that ends on its own tool hands the lead "".

Upstream: https://github.com/openai/openai-agents-python/issues/2110 and the fix
https://github.com/openai/openai-agents-python/pull/2112 ("Fix as_tool returning blank string on early
tool termination"). `as_tool`'s wrapper returned `ItemHelpers.text_message_outputs(output.new_items)`, the
text of the sub-run's assistant messages: a sub-agent whose run ends on its own tool (stop_on_first_tool,
or a tool_use_behavior function returning ToolsToFinalOutputResult) wrote none, so the lead got "".

Scripted `Model` subclasses: the lead `Support` calls `orders_agent` (the sub-agent `Orders` through
`as_tool`), then answers; the sub-agent calls its tool `get_order_status` or, in the control, answers
with text. No custom_output_extractor (the thread's workaround). Prints the sub-agent's tool calls, its
final output (from its AgentHooks.on_end), what the lead's model received for `orders_agent`, and the
lead's final output.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import dataclasses
import json
import os
import sys

CASES = {
    "stop-on-first-tool": dict(variant="stop-on-first-tool"),
    "custom-tools-to-final-output": dict(variant="custom"),
    "control": dict(variant="control"),
}
RESULT = "order 42: shipped"
CUSTOM_PREFIX = "status from tool: "
SUB_TEXT = "Order 42 has shipped."
EXPECTED = {"stop-on-first-tool": RESULT, "custom": CUSTOM_PREFIX + RESULT, "control": SUB_TEXT}


class NotApplicable(Exception):
    """The release lacks what the case needs."""


async def observe(say, variant):
    """The lead calls the sub-agent through as_tool; say what each side saw; return what the verdict reads."""
    # As the harness runs it, and from any shell: no trace leaves the process, and a placeholder key,
    # never a real one (openai-agents 0.0.x builds an OpenAI client on import and needs a key; the
    # scripted model sends no request).
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    os.environ["OPENAI_API_KEY"] = "sk-placeholder-not-used"
    import agents
    from agents import Agent, AgentHooks, Runner, function_tool
    from agents.items import ModelResponse
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText

    agents.set_tracing_disabled(True)
    behavior = {}
    if variant != "control":
        if "tool_use_behavior" not in {f.name for f in dataclasses.fields(Agent)}:
            raise NotApplicable("agents.Agent has no tool_use_behavior field")
        behavior["tool_use_behavior"] = "stop_on_first_tool"
    if variant == "custom":
        if not hasattr(agents, "ToolsToFinalOutputResult"):
            raise NotApplicable("agents has no ToolsToFinalOutputResult")

        def to_final_output(context, tool_results):  # a plain function, as in the issue
            output = CUSTOM_PREFIX + str(tool_results[0].output)
            return agents.ToolsToFinalOutputResult(is_final_output=True, final_output=output)

        behavior["tool_use_behavior"] = to_final_output

    def call(name, args, call_id):
        return ResponseFunctionToolCall(id="fc-" + call_id, call_id=call_id, type="function_call", name=name,
                                        arguments=json.dumps(args), status="completed")  # fmt: skip

    def text(t):
        part = ResponseOutputText(type="output_text", text=t, annotations=[])
        return ResponseOutputMessage(id="msg", type="message", role="assistant", status="completed", content=[part])

    response_fields = {f.name for f in dataclasses.fields(ModelResponse)}

    class Scripted(Model):
        def __init__(self, turns):
            self.turns, self.inputs = turns, []

        async def get_response(self, *args, **kwargs):
            self.inputs.append(kwargs["input"] if "input" in kwargs else args[1])
            kw = dict(output=self.turns[len(self.inputs) - 1], usage=Usage(), response_id="r", referenceable_id="r")
            return ModelResponse(**{k: v for k, v in kw.items() if k in response_fields})

        def stream_response(self, *args, **kwargs):
            raise NotImplementedError

    tool_calls, sub_outputs = [], []

    @function_tool
    def get_order_status(order_id: str) -> str:
        """Order status."""
        tool_calls.append(order_id)
        return RESULT

    class RecordEnd(AgentHooks):
        async def on_end(self, context, agent, output):
            sub_outputs.append(str(output))

    sub_turns = [text(SUB_TEXT)] if variant == "control" else [call("get_order_status", {"order_id": "42"}, "call-sub")]
    sub = Agent(name="Orders", model=Scripted([sub_turns]), tools=[get_order_status], hooks=RecordEnd(), **behavior)
    lead_model = Scripted([[call("orders_agent", {"input": "status of order 42"}, "call-lead")],
                           [text("Your order is on its way.")]])  # fmt: skip
    lead_tool = sub.as_tool(tool_name="orders_agent", tool_description="Looks up orders.")
    result = await Runner.run(Agent(name="Support", model=lead_model, tools=[lead_tool]), "Where is my order 42?")
    items = [i if isinstance(i, dict) else i.model_dump() for i in (lead_model.inputs[1:2] or [[]])[0]]
    outputs = [i for i in items if i.get("type") == "function_call_output" and i.get("call_id") == "call-lead"]
    received = [str(i.get("output")) for i in outputs]
    for order_id in tool_calls:
        say(f"sub-agent's get_order_status ran with order_id={order_id!r}")
    for output in sub_outputs:
        say(f"sub-agent Orders final output: {output!r}")
    for output in received:
        say(f"lead's model received for orders_agent: {output!r}")
    say(f"lead's model calls: {len(lead_model.inputs)}")
    say(f"lead final output: {str(result.final_output)!r}")
    return dict(variant=variant, sub_tool_runs=len(tool_calls), sub_outputs=sub_outputs, received=received,
                expected=EXPECTED[variant])  # fmt: skip


def judge(facts):
    """(outcome, detail): the lead must receive the sub-agent's final output as the tool's output."""
    expected, received = facts["expected"], facts["received"]
    if facts["variant"] == "control" and facts["sub_tool_runs"] != 0:
        return "unexpected", f"the sub-agent's tool ran {facts['sub_tool_runs']} times, expected never"
    if facts["sub_outputs"] != [expected]:
        return "unexpected", f"the sub-agent's run ended with {facts['sub_outputs']}, expected [{expected!r}]"
    if len(received) != 1:
        return "unexpected", f"the lead's model received {len(received)} outputs for orders_agent, expected 1"
    if received[0] == expected:
        return "fixed", f"the lead received the sub-agent's final output {expected!r} as orders_agent's output"
    if received[0] == "":
        return "reproduced", (
            f"the sub-agent ended with {expected!r} but the lead received an empty string as orders_agent's output"
        )
    return "unexpected", f"the lead received {received[0]!r} for orders_agent, the sub-agent ended with {expected!r}"


# --- the same in every reproduction: run the cases named on the command line -------------------


def run(case):
    """Run one case: its timeline, then its verdict line; return its outcome."""
    print(f"== {case}")
    try:
        outcome, detail = judge(asyncio.run(observe(print, **CASES[case])))
    except NotApplicable as exc:
        outcome, detail = "not-applicable", str(exc)
    except Exception as exc:
        outcome, detail = "error", f"{type(exc).__name__}: {exc}"
    print(f"verdict: {outcome}: {' '.join(str(detail).split())}")
    return outcome


def main(argv):
    """Exit 3 if a case reproduced, else 0 if every case is fixed, else 125 (git bisect run's bad, good, skip)."""
    if any(case not in CASES for case in argv):
        print(f"verdict: error: unknown case in {argv}; valid: {', '.join(CASES)}")
        return 125
    outcomes = [run(case) for case in argv or CASES]
    return 3 if "reproduced" in outcomes else 0 if set(outcomes) == {"fixed"} else 125


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
