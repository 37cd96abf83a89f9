"""google-adk: a sub-agent paused on its second long-running tool never resumes.

Issue: https://github.com/google/adk-python/issues/5349 (works in 1.26.0, broken from 1.27.0;
community fix google/adk-python#5385). A resumable App: the orchestrator transfers to a worker
with two LongRunningFunctionTools, called one after the other, each returning
{"status": "pending"}. The client answers each pause by sending the function response as the
next new_message. ``reproduced``: a resume reached no worker model call (the invocation ended
silently); ``fixed``: both resumes reached the worker's model, which answered 'booked'.
Releases with no resumable apps, or that do not pause here (2.x), cannot judge.

Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (missing API, another behaviour, any error).
"""

import asyncio
import sys

from google.adk.agents import LlmAgent
from google.adk.models import BaseLlm, LlmResponse
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService
from google.genai import types

SCRIPTS = {  # each agent's model turns: (tool, args) calls, or the answer
    "orchestrator": [("transfer_to_agent", {"agent_name": "worker"})],
    "worker": [("pick_slot", {"day": "monday"}), ("confirm_booking", {"slot": "9am"}), "booked"],
}
MODEL_CALLS = {"orchestrator": 0, "worker": 0}
REPLIES = {"pick_slot": {"slot": "9am"}, "confirm_booking": {"confirmed": True}}


class ScriptedLlm(BaseLlm):
    async def generate_content_async(self, llm_request, stream=False):
        MODEL_CALLS[self.model] += 1
        turn = SCRIPTS[self.model].pop(0)
        fc = None if isinstance(turn, str) else types.FunctionCall(name=turn[0], args=turn[1])
        part = types.Part(text=turn) if fc is None else types.Part(function_call=fc)
        yield LlmResponse(content=types.Content(role="model", parts=[part]))


def pick_slot(day: str) -> dict:
    """Asks the user to pick a time slot for the day."""
    return {"status": "pending"}


def confirm_booking(slot: str) -> dict:
    """Asks the user to confirm the booking of the slot."""
    return {"status": "pending"}


async def main() -> int:
    try:
        from google.adk.apps import App, ResumabilityConfig
        from google.adk.tools import LongRunningFunctionTool
    except ImportError as exc:
        print(f"verdict: cannot judge (no resumable apps in this release: {exc})")
        return 125
    tools = [LongRunningFunctionTool(pick_slot), LongRunningFunctionTool(confirm_booking)]
    worker = LlmAgent(name="worker", model=ScriptedLlm(model="worker"), description="Books slots.", tools=tools)
    root = LlmAgent(name="orchestrator", model=ScriptedLlm(model="orchestrator"), sub_agents=[worker])
    app = App(name="booking", root_agent=root, resumability_config=ResumabilityConfig(is_resumable=True))
    sessions = InMemorySessionService()
    runner = Runner(app=app, session_service=sessions)
    session = await sessions.create_session(app_name="booking", user_id="u")
    message = types.Content(role="user", parts=[types.Part(text="Book me a slot on Monday.")])
    answered, worker_calls = set(), []
    for run in range(3):  # the first message, then up to two resumes
        before, pending = MODEL_CALLS["worker"], []
        async for event in runner.run_async(user_id="u", session_id=session.id, new_message=message):
            for fc in event.get_function_calls():
                if fc.id in (event.long_running_tool_ids or ()) and fc.id not in answered:
                    pending.append(fc)
            print(f"run {run + 1}: {event.author}: {[p.function_call or p.text for p in event.content.parts]}"
                  if event.content and event.content.parts else f"run {run + 1}: {event.author}: <no content>")
        worker_calls.append(MODEL_CALLS["worker"] - before)
        print(f"run {run + 1}: worker model calls {worker_calls[-1]}, long-running calls left: {len(pending)}")
        if run > 0 and worker_calls[-1] == 0:
            print(f"verdict: reproduced (resume {run} reached no worker model call; worker model calls "
                  f"{MODEL_CALLS['worker']} of 3, no answer)")
            return 3
        if not pending:
            break
        fc = pending[0]
        answered.add(fc.id)
        reply = types.FunctionResponse(id=fc.id, name=fc.name, response=REPLIES[fc.name])
        message = types.Content(role="user", parts=[types.Part(function_response=reply)])
    if len(worker_calls) == 1:
        print("verdict: cannot judge (this release does not pause on a long-running tool that returned a value)")
        return 125
    if len(worker_calls) == 3 and MODEL_CALLS["worker"] == 3 and not SCRIPTS["worker"]:
        print("verdict: fixed (both resumes reached the worker's model, 3 worker model calls, answered 'booked')")
        return 0
    print(f"verdict: cannot judge ({len(worker_calls) - 1} resumes, worker model calls {MODEL_CALLS['worker']})")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:
        print(f"verdict: cannot judge ({type(exc).__name__}: {exc})")
        sys.exit(125)
