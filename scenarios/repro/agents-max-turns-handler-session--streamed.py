"""Runner.run_streamed: does it save a max_turns error handler's output to the session after a tool turn?

Upstream: https://github.com/openai/openai-agents-python/pull/4160 (the streamed twin of Runner.run's bug;
the PR says the streamed path saved the message). Through ``Runner.run_streamed``: one agent with a tool
``lookup``; the scripted model calls it in turn 1; ``max_turns=1``, so turn 2 exceeds the limit
and the ``max_turns`` handler returns ``RunErrorHandlerResult(final_output=..., include_in_history=True)``.
The session is a ``SQLiteSession`` on a file in a temporary folder, read back through a second one.
Scripted model, no network, tracing disabled.

reproduced: the run ends with the handler's output but the session holds the user's message,
the call and its output, without the handler's assistant message.
Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (missing API, a third behaviour, any error).
"""

import asyncio
import dataclasses
import json
import os
import sys
import tempfile

STREAMED = True
ANSWER = "I ran out of steps; ticket 7 is open."


async def main() -> int:
    os.environ.setdefault("OPENAI_API_KEY", "sk-dummy-not-used")  # some releases build a client on import
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    import agents
    from agents import Agent, Runner, function_tool
    from agents.items import ModelResponse
    from agents.memory import SQLiteSession
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types.responses import Response, ResponseCompletedEvent, ResponseFunctionToolCall

    try:
        from agents import RunErrorHandlerResult
    except ImportError as exc:
        print(f"verdict: cannot judge (no error_handlers: {exc})")
        return 125
    agents.set_tracing_disabled(True)
    fields = {f.name for f in dataclasses.fields(ModelResponse)}
    d = dict(id="fc-1", call_id="call-1", type="function_call", name="lookup", arguments=json.dumps({"ticket": "7"}))
    call = ResponseFunctionToolCall(status="completed", **d)

    class Scripted(Model):
        async def get_response(self, *args, **kwargs):
            kw = {"output": [call], "usage": Usage(), "response_id": "r1", "referenceable_id": "r1"}
            return ModelResponse(**{k: v for k, v in kw.items() if k in fields})

        async def stream_response(self, *args, **kwargs):
            d = dict(id="r1", created_at=0, model="scripted", object="response", tool_choice="auto", tools=[])
            resp = Response(output=[call], top_p=None, parallel_tool_calls=False, status="completed", usage=None, **d)
            kw = {"type": "response.completed", "response": resp, "sequence_number": 0}
            yield ResponseCompletedEvent(**{k: v for k, v in kw.items() if k in ResponseCompletedEvent.model_fields})

    @function_tool
    def lookup(ticket: str) -> str:
        """Ticket status."""
        return "ticket 7: open"

    agent = Agent(name="Support", model=Scripted(), tools=[lookup])
    handlers = {"max_turns": lambda data: RunErrorHandlerResult(final_output=ANSWER, include_in_history=True)}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "session.db")
        kw = {"session": SQLiteSession("s", path), "max_turns": 1, "error_handlers": handlers}
        if STREAMED:
            result = Runner.run_streamed(agent, "What is the status of ticket 7?", **kw)
            async for _ in result.stream_events():
                pass
        else:
            result = await Runner.run(agent, "What is the status of ticket 7?", **kw)
        items = await SQLiteSession("s", path).get_items()
    kinds = [i.get("type") or i.get("role") for i in items]
    print(f"final output: {result.final_output!r}")
    print(f"session file holds {len(items)} items: {kinds}")
    has_tool = "function_call" in kinds and "function_call_output" in kinds
    saved = [i for i in items if i.get("role") == "assistant" and ANSWER in json.dumps(i.get("content"))]
    if result.final_output != ANSWER or not has_tool or len(items) != 3 + len(saved):
        print("verdict: cannot judge (not the run this script expects)")
        return 125
    if len(saved) == 1:
        print("verdict: fixed (the session holds the handler's assistant message after the tool turn)")
        return 0
    print("verdict: reproduced (the run ended with the handler's output, the session lacks its message)")
    return 3


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:  # any failure is "cannot judge", never a verdict
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
