"""google-adk: a sub-agent paused on its second long-running tool never resumes.

Issue: https://github.com/google/adk-python/issues/5349 (community fix google/adk-python#5385).
A resumable App: the orchestrator transfers to a worker whose two LongRunningFunctionTools
(called one after the other) return {"status": "pending"}; the client answers each pause by
sending the function response as the next new_message. ``reproduced``: a resume reached no
worker model call (the invocation ended silently); ``fixed``: both resumes reached the
worker's model, which answered 'booked'. No resumable apps, or no pause (2.x): cannot judge.

Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (missing API, another behaviour, any error).
"""

import asyncio
import sys

MODEL_CALLS = {"orchestrator": 0, "worker": 0}
REPLIES = {"pick_slot": {"slot": "9am"}, "confirm_booking": {"confirmed": True}}


async def main() -> int:
    from google.adk.agents import LlmAgent
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    call = types.Part.from_function_call
    SCRIPTS = {  # each agent's model turns, in order
        "orchestrator": [call(name="transfer_to_agent", args={"agent_name": "worker"})],
        "worker": [call(name="pick_slot", args={"day": "monday"}), call(name="confirm_booking", args={"slot": "9am"})]
        + [types.Part(text="booked")],
    }

    class ScriptedLlm(BaseLlm):
        async def generate_content_async(self, llm_request, stream=False):
            MODEL_CALLS[self.model] += 1
            yield LlmResponse(content=types.Content(role="model", parts=[SCRIPTS[self.model].pop(0)]))

    def pick_slot(day: str) -> dict:
        """Asks the user to pick a time slot for the day."""
        return {"status": "pending"}

    def confirm_booking(slot: str) -> dict:
        """Asks the user to confirm the booking of the slot."""
        return {"status": "pending"}

    def describe(p) -> str:
        fc, fr = p.function_call, p.function_response
        return f"call {fc.name}({fc.args})" if fc else f"response {fr.name} -> {fr.response}" if fr else repr(p.text)

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
    lro_calls = []
    for run in range(1, 4):  # the first message, then up to two resumes
        before = MODEL_CALLS["worker"]
        async for event in runner.run_async(user_id="u", session_id=session.id, new_message=message):
            lro_calls += [fc for fc in event.get_function_calls() if fc.id in (event.long_running_tool_ids or ())]
            parts = event.content.parts if event.content and event.content.parts else []
            end = " end_of_agent" if getattr(event.actions, "end_of_agent", None) else ""
            print(f"run {run}: {event.author}: {', '.join(describe(p) for p in parts) or '<no content>'}{end}")
        print(f"run {run}: worker model calls {MODEL_CALLS['worker'] - before}")
        if run > 1 and MODEL_CALLS["worker"] == before:
            print(f"verdict: reproduced (resume {run - 1} reached no model call; worker model calls {before} of 3)")
            return 3
        # Paused: the worker's model has not been asked again since its last long-running call.
        if run == 3 or MODEL_CALLS["worker"] != len(lro_calls):
            break
        fc = lro_calls[-1]
        reply = types.FunctionResponse(id=fc.id, name=fc.name, response=REPLIES[fc.name])
        message = types.Content(role="user", parts=[types.Part(function_response=reply)])
    if run == 3 and not SCRIPTS["worker"]:
        print("verdict: fixed (both resumes reached the worker's model, 3 worker model calls, answered 'booked')")
        return 0
    why = "does not pause on a long-running tool that returned a value" if run == 1 else "ends in a third way"
    print(f"verdict: cannot judge (this release {why}; worker model calls {MODEL_CALLS['worker']})")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
