# /// script
# requires-python = ">=3.11"
# dependencies = [
#   "openai-agents==0.6.1",
# ]
# [tool.uv]
# exclude-newer = "2025-11-20T01:17:08Z"
# ///
# agents-as-tool-custom-output:custom-tools-to-final-output. Run: uv run THIS_FILE (exit 0 fixed, 3 reproduced, 125 cannot judge).
# Checked beside the harness's case on every release below; to try one, set its version and its
# exclude-newer date above. By the case's outcome / this script's verdict, release (date):
#   not-applicable / cannot-judge: 0.0.4 (2025-03-13T15:20:54Z)
#   reproduced / reproduced: 0.0.5 (2025-03-19T16:37:15Z), 0.6.1 (2025-11-20T01:17:08Z)
#   fixed / fixed: 0.6.2 (2025-12-04T22:37:29Z), 0.6.9 (2026-01-20T01:57:01Z),
#     0.7.0 (2026-01-23T00:06:36Z), 0.8.4 (2026-02-11T19:14:31Z), 0.9.3 (2026-02-20T22:56:23Z),
#     0.10.5 (2026-03-05T20:44:00Z), 0.11.1 (2026-03-09T06:34:08Z), 0.12.5 (2026-03-19T07:19:17Z),
#     0.13.6 (2026-04-09T04:10:52Z), 0.14.8 (2026-04-29T03:40:08Z), 0.15.3 (2026-05-06T12:13:01Z),
#     0.16.1 (2026-05-07T11:02:40Z), 0.17.8 (2026-07-06T23:37:13Z), 0.18.3 (2026-07-17T03:40:26Z),
#     0.19.4 (2026-08-05T02:59:13Z), 0.20.0 (2026-08-11T03:12:50Z), 0.21.1 (2026-08-16T22:29:36Z),
#     0.22.3 (2026-09-17T22:20:45Z), 0.23.1 (2026-10-02T15:42:07Z), 0.24.0 (2026-10-15T02:38:22Z)
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
