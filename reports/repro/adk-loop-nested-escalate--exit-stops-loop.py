# /// script
# requires-python = ">=3.11"
# dependencies = [
#   "google-adk==2.13.0",
# ]
# [tool.uv]
# exclude-newer = "2026-10-23T18:26:35Z"
# ///
# adk-loop-nested-escalate:exit-stops-loop. Run: uv run THIS_FILE (exit 0 fixed, 3 reproduced, 125 cannot judge).
# Checked beside the harness's case on every release below; to try one, set its version and its
# exclude-newer date above. By the case's outcome / this script's verdict, release (date):
#   fixed / fixed: 1.39.1 (2026-08-27T21:55:07Z), 2.0.0 (2026-05-19T16:17:11Z),
#     2.1.0 (2026-05-23T00:14:00Z), 2.2.0 (2026-06-04T22:15:16Z), 2.3.0 (2026-06-18T18:47:09Z),
#     2.4.0 (2026-07-07T19:46:15Z), 2.5.0 (2026-07-16T20:43:07Z), 2.6.3 (2026-08-07T21:18:45Z),
#     2.7.1 (2026-08-17T18:33:12Z), 2.8.0 (2026-08-26T23:26:21Z), 2.9.2 (2026-09-18T18:10:47Z),
#     2.10.0 (2026-09-25T19:02:07Z), 2.11.0 (2026-10-02T00:46:26Z), 2.12.0 (2026-10-13T16:42:59Z),
#     2.13.0 (2026-10-23T18:26:35Z)
"""Control for #526/#2808: exit_loop ends a single LoopAgent and the step after it still runs.

Bug: https://github.com/google/adk-python/issues/526 (nested loops; this is the plain case).
SequentialAgent([loop, after_loop]) where loop = LoopAgent(max_iterations=3,
sub_agents=[worker]) and worker is an LlmAgent with the exit_loop tool (a scripted model
calls it). The loop must stop at its first exit_loop and after_loop must run once.

reproduced (the control broke): exit_loop is called more than once (it did not stop the loop).
Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (missing API, a third behaviour, any error).
"""

import asyncio
import sys


async def main() -> int:
    from google.adk.agents import BaseAgent, LlmAgent, LoopAgent, SequentialAgent
    from google.adk.events import Event
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.adk.tools import exit_loop
    from google.genai import types

    class ExitLoopModel(BaseLlm):  # calls exit_loop; answers the tool's response with text
        async def generate_content_async(self, llm_request, stream=False):
            last = llm_request.contents[-1]
            if any(p.function_response for p in last.parts or []):
                part = types.Part(text="Done.")
            else:
                part = types.Part(function_call=types.FunctionCall(name="exit_loop", args={}))
            yield LlmResponse(content=types.Content(role="model", parts=[part]))

    runs = []

    class AfterLoop(BaseAgent):
        async def _run_async_impl(self, ctx):
            runs.append(1)
            yield Event(
                author=self.name,
                invocation_id=ctx.invocation_id,
                content=types.Content(role="model", parts=[types.Part(text="after the loop")]),
            )

    worker = LlmAgent(
        name="worker", model=ExitLoopModel(model="fake"), instruction="Call exit_loop.", tools=[exit_loop]
    )
    loop = LoopAgent(name="loop", max_iterations=3, sub_agents=[worker])
    pipeline = SequentialAgent(name="pipeline", sub_agents=[loop, AfterLoop(name="after_loop")])
    sessions = InMemorySessionService()
    session = await sessions.create_session(app_name="app", user_id="user")
    runner = Runner(app_name="app", agent=pipeline, session_service=sessions)
    message = types.Content(role="user", parts=[types.Part(text="Refine the plan.")])
    exit_calls = 0
    async for event in runner.run_async(user_id="user", session_id=session.id, new_message=message):
        calls = [p.function_call.name for p in (event.content.parts or []) if p.function_call] if event.content else []
        exit_calls += calls.count("exit_loop")
        print(f"event {event.author}: calls={calls} escalate={event.actions.escalate}")
    print(f"exit_loop called {exit_calls} times, after_loop ran {len(runs)} times")
    if exit_calls == 1 and len(runs) == 1:
        print("verdict: fixed (the loop stopped at its first exit_loop; the next step ran)")
        return 0
    if exit_calls >= 2 and len(runs) == 1:
        print("verdict: reproduced (exit_loop did not stop the loop)")
        return 3
    print("verdict: cannot judge (expected 1 and 1)")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:  # any failure: cannot judge
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
