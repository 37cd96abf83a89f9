# /// script
# requires-python = ">=3.11"
# dependencies = [
#   "google-adk==2.7.1",
# ]
# [tool.uv]
# exclude-newer = "2026-08-17T18:33:12Z"
# ///
# adk-sync-run-model-error:error-at-turn-2. Run: uv run THIS_FILE (exit 0 fixed, 3 reproduced, 125 cannot judge).
# Checked beside the harness's case on every release below; to try one, set its version and its
# exclude-newer date above. By the case's outcome / this script's verdict, release (date):
#   reproduced / reproduced: 1.1.1 (2025-05-29T00:13:32Z), 1.39.1 (2026-08-27T21:55:07Z),
#     2.0.0 (2026-05-19T16:17:11Z), 2.1.0 (2026-05-23T00:14:00Z), 2.2.0 (2026-06-04T22:15:16Z),
#     2.3.0 (2026-06-18T18:47:09Z), 2.4.0 (2026-07-07T19:46:15Z), 2.5.0 (2026-07-16T20:43:07Z),
#     2.6.3 (2026-08-07T21:18:45Z), 2.7.1 (2026-08-17T18:33:12Z)
#   fixed / fixed: 2.8.0 (2026-08-26T23:26:21Z), 2.9.2 (2026-09-18T18:10:47Z),
#     2.10.0 (2026-09-25T19:02:07Z), 2.11.0 (2026-10-02T00:46:26Z), 2.12.0 (2026-10-13T16:42:59Z),
#     2.13.0 (2026-10-23T18:26:35Z)
"""google-adk: the sync Runner.run() ends quietly when the model raises at turn N.

Issue: https://github.com/google/adk-python/issues/5567 (same class: #4244 on run_sse).
Runner.run() runs run_async on a background thread; an exception there reached only
threading.excepthook, and the caller's loop just ended, as if the agent had finished.

A scripted model calls get_weather at turn 1 and raises at turn 2 (a 503). The caller iterates
Runner.run() on a thread of its own, joined with a timeout (a hang cannot hang the script; it
cannot be judged). ``reproduced``: the caller's loop ended normally, without the model's error;
``fixed``: the caller got the error after the events before it.

Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (missing API, another behaviour, any error).
"""

import asyncio
import os
import sys
import threading

ERROR_TURN, TIMEOUT = 2, 60  # the model call that raises; seconds the caller waits for Runner.run()
model_calls = []


def main() -> int:
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
    session = asyncio.run(sessions.create_session(app_name="sync_run_app", user_id="u"))
    message = types.Content(role="user", parts=[types.Part(text="What is the weather in Paris?")])
    received, raised, hooked = [], [], []
    threading.excepthook = lambda args: hooked.append(args.exc_value)  # Runner.run's background thread

    def caller() -> None:
        try:
            for event in runner.run(user_id="u", session_id=session.id, new_message=message):
                received.append(event)
                parts = event.content.parts if event.content and event.content.parts else []
                error = f" error_code={event.error_code}" if getattr(event, "error_code", None) else ""
                print(f"caller received: {event.author} {', '.join(describe(p) for p in parts)}{error}")
        except Exception as exc:
            raised.append(exc)

    thread = threading.Thread(target=caller, daemon=True)
    thread.start()
    thread.join(TIMEOUT)
    if thread.is_alive():
        print(f"verdict: cannot judge (Runner.run() still running after {TIMEOUT} s)", flush=True)
        os._exit(125)  # the run's own thread may not be a daemon: do not wait for it at exit
    print(f"caller's loop ended: {f'raised {raised[0]!r}' if raised else 'normally'}; excepthook got {hooked}")
    if len(model_calls) != ERROR_TURN:
        print(f"verdict: cannot judge (the model was called {len(model_calls)} times, expected {ERROR_TURN})")
        return 125
    if raised:
        fixed = isinstance(raised[0], ModelError)
        verdict = "fixed" if fixed else "cannot judge"
        print(f"verdict: {verdict} (Runner.run() raised {raised[0]!r} after {len(received)} events)")
        return 0 if fixed else 125
    where = "threading.excepthook only" if any(isinstance(e, ModelError) for e in hooked) else "no handler seen"
    print(f"verdict: reproduced (Runner.run() ended normally after {len(received)} events; error to {where})")
    return 3


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as exc:
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
