"""google-adk control: run_async raises the model's error at turn N (beside the Runner.run() bug).

Issue: https://github.com/google/adk-python/issues/5567 (same class: #4244 on run_sse).
Runner.run() runs run_async on a background thread; an exception there reached only
threading.excepthook, and the caller's loop just ended, as if the agent had finished.

A control: a scripted model calls get_weather at turn 1 and raises at turn 2 (a 503); the
caller iterates ``run_async`` directly (with a timeout: a hang cannot be judged), which raises
the error on every release. ``fixed``: run_async raised the model's error after the events
before it; ``reproduced`` means the behaviour beside the bug broke: run_async ended quietly.

Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (missing API, another behaviour, any error).
"""

import asyncio
import sys

ERROR_TURN, TIMEOUT = 2, 60  # the model call that raises; seconds the caller waits for run_async
model_calls = []


async def main() -> int:
    from google.adk.agents import LlmAgent
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    class ModelError(RuntimeError):
        """What the scripted model raises, as a provider's client would."""

    class ScriptedLlm(BaseLlm):
        async def generate_content_async(self, llm_request, stream=False):
            model_calls.append(llm_request)
            if len(model_calls) == ERROR_TURN:
                raise ModelError("503 UNAVAILABLE: the model is overloaded (scripted)")
            part = types.Part.from_function_call(name="get_weather", args={"city": "Paris"})
            yield LlmResponse(content=types.Content(role="model", parts=[part]))

    def get_weather(city: str) -> dict:
        """Returns the weather in a city."""
        return {"city": city, "weather": "sunny"}

    def describe(p) -> str:
        fc, fr = p.function_call, p.function_response
        return f"call {fc.name}({fc.args})" if fc else f"response {fr.name} -> {fr.response}" if fr else repr(p.text)

    agent = LlmAgent(name="assistant", model=ScriptedLlm(model="scripted"), tools=[get_weather])
    sessions = InMemorySessionService()
    runner = Runner(app_name="sync_run_app", agent=agent, session_service=sessions)
    session = await sessions.create_session(app_name="sync_run_app", user_id="u")
    message = types.Content(role="user", parts=[types.Part(text="What is the weather in Paris?")])
    received, raised = [], []

    async def caller() -> None:
        async for event in runner.run_async(user_id="u", session_id=session.id, new_message=message):
            received.append(event)
            parts = event.content.parts if event.content and event.content.parts else []
            error = f" error_code={event.error_code}" if getattr(event, "error_code", None) else ""
            print(f"caller received: {event.author} {', '.join(describe(p) for p in parts)}{error}")

    try:
        await asyncio.wait_for(caller(), TIMEOUT)
    except TimeoutError:
        print(f"verdict: cannot judge (run_async still running after {TIMEOUT} s)")
        return 125
    except Exception as exc:
        raised.append(exc)
    print(f"caller's loop ended: {f'raised {raised[0]!r}' if raised else 'normally'}")
    if len(model_calls) != ERROR_TURN:
        print(f"verdict: cannot judge (the model was called {len(model_calls)} times, expected {ERROR_TURN})")
        return 125
    if raised:
        fixed = isinstance(raised[0], ModelError)
        verdict = "fixed" if fixed else "cannot judge"
        print(f"verdict: {verdict} (run_async raised {raised[0]!r} after {len(received)} events)")
        return 0 if fixed else 125
    print(f"verdict: reproduced (run_async ended normally after {len(received)} events, without the ModelError)")
    return 3


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
