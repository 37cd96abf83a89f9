# /// script
# requires-python = ">=3.11"
# dependencies = [
#   "openai-agents==0.8.0",
# ]
# [tool.uv]
# exclude-newer = "2026-02-05T02:51:53Z"
# ///
# agents-streamed-session-tool-items:streamed. Run: uv run THIS_FILE (exit 0 fixed, 3 reproduced, 125 cannot judge).
# Checked beside the harness's case on every release below; to try one, set its version and its
# exclude-newer date above. By the case's outcome / this script's verdict, release (date):
#   not-applicable / cannot-judge: 0.1.0 (2025-06-27T20:58:04Z)
#   fixed / fixed: 0.2.0 (2025-07-15T15:49:35Z), 0.6.9 (2026-01-20T01:57:01Z),
#     0.7.0 (2026-01-23T00:06:36Z)
#   reproduced / reproduced: 0.8.0 (2026-02-05T02:51:53Z)
#   fixed / fixed: 0.8.1 (2026-02-06T22:44:25Z), 0.8.4 (2026-02-11T19:14:31Z),
#     0.9.3 (2026-02-20T22:56:23Z), 0.10.5 (2026-03-05T20:44:00Z), 0.11.1 (2026-03-09T06:34:08Z),
#     0.12.5 (2026-03-19T07:19:17Z), 0.13.6 (2026-04-09T04:10:52Z), 0.14.8 (2026-04-29T03:40:08Z),
#     0.15.3 (2026-05-06T12:13:01Z), 0.16.1 (2026-05-07T11:02:40Z), 0.17.8 (2026-07-06T23:37:13Z),
#     0.18.3 (2026-07-17T03:40:26Z), 0.19.4 (2026-08-05T02:59:13Z), 0.20.0 (2026-08-11T03:12:50Z),
#     0.21.1 (2026-08-16T22:29:36Z), 0.22.3 (2026-09-17T22:20:45Z), 0.23.1 (2026-10-02T15:42:07Z),
#     0.24.0 (2026-10-15T02:38:22Z)
"""Runner.run_streamed with a session does not save the tool call and its output.

Upstream: https://github.com/openai/openai-agents-python/issues/2426 (reported on 0.8.0),
fixed by https://github.com/openai/openai-agents-python/pull/2433 (0.8.1).

One agent with a get_weather tool; a scripted model calls it, then answers. The run goes
through Runner.run_streamed with a SQLiteSession on a file in a temporary folder, read back
through a second SQLiteSession.
reproduced: the tool ran once, the session holds the user message and the answer but not the
function_call and/or its function_call_output.
Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (no SQLiteSession, anything else).
"""

import asyncio
import os
import sys
import tempfile

STREAMED = True
CALLS = []


async def main():
    from agents import Agent, Runner, function_tool, set_tracing_disabled
    from agents.items import ModelResponse
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types import responses as rt

    set_tracing_disabled(True)

    @function_tool
    def get_weather(city: str) -> str:
        """Weather of a city."""
        CALLS.append(city)
        return "sunny"

    class Scripted(Model):
        """Turn 1 calls get_weather(city="Paris"), turn 2 answers."""

        def __init__(self):
            call = rt.ResponseFunctionToolCall(
                id="fc-1",
                call_id="call-weather",
                type="function_call",
                name="get_weather",
                arguments='{"city": "Paris"}',
            )
            part = rt.ResponseOutputText(type="output_text", text="Sunny in Paris.", annotations=[])
            answer = rt.ResponseOutputMessage(
                id="msg-1", type="message", role="assistant", status="completed", content=[part]
            )
            self.turns = [[call], [answer]]

        async def get_response(self, *args, **kwargs):
            return ModelResponse(output=self.turns.pop(0), usage=Usage(), response_id=None)

        async def stream_response(self, *args, **kwargs):
            response = rt.Response(
                id="resp-1", created_at=0, model="scripted", object="response", output=self.turns.pop(0),
                tool_choice="auto", tools=[], top_p=None, parallel_tool_calls=False, status="completed",
            )  # fmt: skip
            yield rt.ResponseCompletedEvent(type="response.completed", response=response, sequence_number=0)

    from agents.memory import SQLiteSession

    agent = Agent(name="Weather", model=Scripted(), tools=[get_weather])
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "session.db")
        question = "What is the weather in Paris?"
        if STREAMED:
            result = Runner.run_streamed(agent, question, session=SQLiteSession("s1", path))
            names = [e.name async for e in result.stream_events() if e.type == "run_item_stream_event"]
            print(f"stream item events: {', '.join(names)}")
        else:
            await Runner.run(agent, question, session=SQLiteSession("s1", path))
        stored = await SQLiteSession("s1", path).get_items()
    kinds = ["user" if item.get("role") == "user" else item.get("type") or item.get("role") for item in stored]
    print(f"get_weather ran {len(CALLS)} time(s); session holds {len(stored)} items: {', '.join(kinds)}")
    expected = ["user", "function_call", "function_call_output", "message"]
    if len(CALLS) == 1 and kinds == expected:
        print("verdict: fixed (the session holds the message, the call, its output and the answer)")
        return 0
    lost = [k for k in ("function_call", "function_call_output") if k not in kinds]
    if len(CALLS) == 1 and lost and kinds[0] == "user" and kinds[-1] == "message" and len(kinds) < 4:
        print(f"verdict: reproduced (the tool ran once, but the session lacks {' and '.join(lost)})")
        return 3
    print(f"verdict: cannot judge (tool ran {len(CALLS)} times; session items {kinds})")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
