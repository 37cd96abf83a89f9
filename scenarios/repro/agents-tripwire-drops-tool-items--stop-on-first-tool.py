"""An output guardrail tripwire drops a tool call that already ran from the session.

Upstream: https://github.com/openai/openai-agents-python/pull/4148 (its description holds the
repro; in 0.19.3). With tool_use_behavior="stop_on_first_tool" the tool's result is the final
output, so the tool has run before the output guardrail sees it; when the guardrail trips,
the session must still record the call and its output.

A scripted model calls book_flight once; an output guardrail always trips; the run goes
through Runner.run (not streamed) with a SQLiteSession file, read back through a second session.
reproduced: the tool ran, the tripwire fired, the session holds only the user's message.
Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (no tripwire, no SQLiteSession, ...).
"""

import asyncio
import os
import sys
import tempfile

BEHAVIOR = "stop_on_first_tool"
CALLS = []


async def main():
    from agents import Agent, GuardrailFunctionOutput, OutputGuardrail, Runner, function_tool, set_tracing_disabled
    from agents.items import ModelResponse
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types import responses as rt

    set_tracing_disabled(True)

    @function_tool
    def book_flight(city: str) -> str:
        """Book a flight."""
        CALLS.append(city)
        return "booked flight PA-1"

    async def block(context, agent, output):
        return GuardrailFunctionOutput(output_info="blocked", tripwire_triggered=True)

    class Scripted(Model):
        """One turn: call book_flight(city="Paris")."""

        def output(self):
            call = dict(id="fc-1", call_id="call-book", type="function_call", name="book_flight")
            return [rt.ResponseFunctionToolCall(**call, arguments='{"city": "Paris"}')]

        async def get_response(self, *args, **kwargs):
            return ModelResponse(output=self.output(), usage=Usage(), response_id=None)

        def stream_response(self, *args, **kwargs):
            raise NotImplementedError

    from agents.agent import StopAtTools
    from agents.memory import SQLiteSession

    behavior = BEHAVIOR if BEHAVIOR == "stop_on_first_tool" else StopAtTools(stop_at_tool_names=["book_flight"])
    guardrail = OutputGuardrail(guardrail_function=block, name="block_booking")
    agent = Agent(
        name="Booking", model=Scripted(), tools=[book_flight], tool_use_behavior=behavior, output_guardrails=[guardrail]
    )
    raised = None
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "session.db")
        try:
            await Runner.run(agent, "Book me a flight to Paris.", session=SQLiteSession("s1", path))
        except Exception as exc:
            raised = type(exc).__name__
        stored = await SQLiteSession("s1", path).get_items()
    kinds = [item.get("role") if item.get("role") == "user" else item.get("type") for item in stored]
    print(f"run ended with {raised}; book_flight ran {len(CALLS)} time(s)")
    print(f"session holds {len(stored)} items: {', '.join(map(str, kinds)) or 'nothing'}")
    if raised != "OutputGuardrailTripwireTriggered" or len(CALLS) != 1:
        print("verdict: cannot judge (expected the tripwire after one tool run)")
        return 125
    if kinds == ["user", "function_call", "function_call_output"]:
        print("verdict: fixed (the session keeps the user's message, the call and its output)")
        return 0
    if kinds == ["user"]:
        print("verdict: reproduced (the tool ran, but the session lost its function_call and output)")
        return 3
    print(f"verdict: cannot judge (session items {kinds})")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
