"""Agent.as_tool hands the lead an empty string when the sub-agent's run ends on its own tool.

Upstream: https://github.com/openai/openai-agents-python/issues/2110 (fix: PR #2112).
A lead agent calls a sub-agent through ``as_tool``; the sub-agent's ``tool_use_behavior`` is a
function returning ``ToolsToFinalOutputResult`` (the issue's setup), so its final output is
"status from tool: order 42: shipped". The script prints the ``function_call_output`` the lead's model then
receives for the sub-agent's tool. Scripted models, no network, tracing disabled.

reproduced: the lead received "" although the sub-agent's final output was the custom one.
Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (missing API, a third behaviour, any error).
"""

import asyncio
import dataclasses
import json
import os
import sys

RESULT = "order 42: shipped"
EXPECTED = "status from tool: " + RESULT


def main() -> int:
    os.environ.setdefault("OPENAI_API_KEY", "sk-dummy-not-used")  # some releases build a client on import
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    import agents
    from agents import Agent, Runner, ToolsToFinalOutputResult, function_tool
    from agents.items import ModelResponse
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText

    agents.set_tracing_disabled(True)
    fields = {f.name for f in dataclasses.fields(ModelResponse)}
    if "tool_use_behavior" not in {f.name for f in dataclasses.fields(Agent)}:
        print("verdict: cannot judge (Agent has no tool_use_behavior)")
        return 125

    def call(name, args, cid):
        d = dict(id="fc-" + cid, call_id=cid, type="function_call", name=name, arguments=json.dumps(args))
        return ResponseFunctionToolCall(status="completed", **d)

    def text(t):
        part = ResponseOutputText(type="output_text", text=t, annotations=[])
        return ResponseOutputMessage(id="m1", type="message", role="assistant", status="completed", content=[part])

    class Scripted(Model):
        def __init__(self, turns):
            self.turns, self.inputs = turns, []

        async def get_response(self, *args, **kwargs):
            self.inputs.append(kwargs["input"] if "input" in kwargs else args[1])
            out = self.turns[len(self.inputs) - 1]
            kw = {"output": out, "usage": Usage(), "response_id": "r", "referenceable_id": "r"}
            return ModelResponse(**{k: v for k, v in kw.items() if k in fields})

        def stream_response(self, *args, **kwargs):
            raise NotImplementedError

    def to_final_output(context, tool_results):  # a plain function, as in the issue
        return ToolsToFinalOutputResult(
            is_final_output=True, final_output="status from tool: " + tool_results[0].output
        )

    @function_tool
    def get_order_status(order_id: str) -> str:
        """Order status."""
        return RESULT

    sub_model = Scripted([[call("get_order_status", {"order_id": "42"}, "call-sub")]])
    sub = Agent(name="Orders", model=sub_model, tools=[get_order_status], tool_use_behavior=to_final_output)
    lead_model = Scripted(
        [[call("orders_agent", {"input": "status of order 42"}, "call-lead")], [text("Your order is on its way.")]]
    )
    as_tool = sub.as_tool(tool_name="orders_agent", tool_description="Looks up orders.")
    lead = Agent(name="Support", model=lead_model, tools=[as_tool])
    asyncio.run(Runner.run(lead, "Where is my order 42?"))
    items = [i for i in lead_model.inputs[1] if isinstance(i, dict)]
    got = [i.get("output") for i in items if i.get("type") == "function_call_output"]
    print(f"lead's model received for orders_agent: {got!r}")
    if got == [EXPECTED]:
        print(f"verdict: fixed (the lead received the sub-agent's final output {EXPECTED!r})")
        return 0
    if got == [""]:
        print(f"verdict: reproduced (the sub-agent ended with {EXPECTED!r}, the lead received '')")
        return 3
    print(f"verdict: cannot judge (the lead received {got!r})")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as exc:  # any failure is "cannot judge", never a verdict
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
