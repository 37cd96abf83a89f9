# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk"]
# ///
"""google-adk: the sync `Runner.run()` ends quietly when the model fails at turn N.

Upstream: https://github.com/google/adk-python/issues/5567 (the same class of bug on run_sse:
https://github.com/google/adk-python/issues/4244). `Runner.run()` runs `run_async` on a background
thread and hands its events over a queue; when the run raises (a 503, a quota), the exception
reaches only that thread's `threading.excepthook` and the caller's loop just ends, as if the agent
had finished. The fix (google/adk/runners.py `Runner.run`) re-raises it on the calling thread.

Faked: the model (a `BaseLlm` subclass that calls get_weather, then raises `ScriptedModelError`
at turn N). Prints the events the caller received, how its iteration ended, what reached
`threading.excepthook`, the model calls and the session's stored events. The control runs the
same failure through `run_async`, which raises it.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import inspect
import json
import sys
import threading

CASES = {
    "error-at-turn-2": dict(error_turn=2, sync=True),
    "error-at-turn-1": dict(error_turn=1, sync=True),
    "run-async-control": dict(error_turn=2, sync=False),
}
ERROR = "503 UNAVAILABLE: the model is overloaded (scripted)"


class NotApplicable(Exception):
    """The release lacks what the case needs."""


class ScriptedModelError(RuntimeError):
    """What the scripted model raises, as a provider's client would."""


def described(exc):
    return f"{type(exc).__name__}: {str(exc)[:100]}"


async def settled(value):
    """``value``, awaited where it is awaitable: google-adk 0.x's session and memory services are
    synchronous (0.5.0's ``InMemorySessionService.create_session`` returns the Session itself)."""
    return await value if inspect.isawaitable(value) else value


async def observe(say, error_turn, sync):
    """Run one turn whose model call `error_turn` fails, through Runner.run or run_async."""
    from google.adk.agents import LlmAgent
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    model_calls = []

    class ScriptedLlm(BaseLlm):
        async def generate_content_async(self, llm_request, stream=False):
            model_calls.append(1)
            if len(model_calls) == error_turn:
                raise ScriptedModelError(ERROR)
            part = types.Part.from_function_call(name="get_weather", args={"city": "Paris"})
            yield LlmResponse(content=types.Content(role="model", parts=[part]))

    def get_weather(city: str) -> dict:
        """Returns the weather in a city."""
        return {"city": city, "weather": "sunny"}

    def line(e):
        parts = e.content.parts if e.content and e.content.parts else []
        body = [
            f"call {p.function_call.name}({json.dumps(p.function_call.args)})"
            if p.function_call
            else f"response {p.function_response.name} -> {json.dumps(p.function_response.response)}"
            if p.function_response
            else repr(p.text)
            for p in parts
        ]
        if getattr(e, "error_code", None) or getattr(e, "error_message", None):  # 2.x: an error event
            body.append(f"error={e.error_code} {(e.error_message or '')[:100]!r}")
        return f"{e.author} {' '.join(body) or '<no content>'}"

    agent = LlmAgent(name="assistant", model=ScriptedLlm(model="scripted"), instruction="Answer.", tools=[get_weather])
    sessions = InMemorySessionService()
    runner = Runner(app_name="sync_run_app", agent=agent, session_service=sessions)
    session = await settled(sessions.create_session(app_name="sync_run_app", user_id="u"))
    message = types.Content(role="user", parts=[types.Part(text="What is the weather in Paris?")])
    received, hooked, raised = [], [], None

    def consume_sync():  # on a worker thread, so this event loop stays free while Runner.run() blocks
        received.extend(runner.run(user_id="u", session_id=session.id, new_message=message))

    original, threading.excepthook = threading.excepthook, lambda args: hooked.append(args.exc_value)
    try:
        if sync:
            await asyncio.to_thread(consume_sync)
        else:
            async for event in runner.run_async(user_id="u", session_id=session.id, new_message=message):
                received.append(event)
    except Exception as exc:  # the outcome under test
        raised = exc
    finally:
        threading.excepthook = original
    api = "Runner.run()" if sync else "Runner.run_async()"
    say(f"{api}: model turn {error_turn} raises ScriptedModelError")
    for e in received:
        say(f"caller received: {line(e)}")
    say(f"caller's iteration ended: {'raised ' + described(raised) if raised else 'normally, no exception'}")
    for e in hooked or ["nothing"]:
        say(f"threading.excepthook got: {e if e == 'nothing' else described(e)}")
    say(f"model calls: {len(model_calls)}")
    stored = await settled(sessions.get_session(app_name="sync_run_app", user_id="u", session_id=session.id))
    for e in stored.events:
        say(f"stored: {line(e)}")
    scripted = [isinstance(e, ScriptedModelError) and ERROR in str(e) for e in (raised, *hooked)]
    return dict(
        api=api,
        received=len(received),
        error_events=sum(1 for e in received if getattr(e, "error_code", None)),
        raised=raised and described(raised),
        raised_scripted=scripted[0],
        hooked_scripted=any(scripted[1:]),
        model_calls=len(model_calls),
        error_turn=error_turn,
    )


def judge(facts):
    """(outcome, detail): the caller must get the model's error after the events before it."""
    f = facts
    if f["model_calls"] != f["error_turn"]:
        return (
            "unexpected",
            f"the model was called {f['model_calls']} times, expected {f['error_turn']} (the last one fails)",
        )
    got = f"{f['received']} event{'s' if f['received'] != 1 else ''} received"
    if f["raised_scripted"]:
        return "fixed", f"{f['api']} raised the model's ScriptedModelError to the caller after {got}"
    if f["raised"] is not None:
        return "unexpected", f"{f['api']} raised another error: {f['raised']}; {got}"
    where = (
        "it reached the background thread's excepthook only"
        if f["hooked_scripted"]
        else "it reached no handler the harness can see"
    )
    if f["error_events"]:
        got += f", {f['error_events']} of them an error event"
    return (
        "reproduced",
        f"{f['api']} ended normally after {got}; the model's exception was lost to the caller ({where})",
    )


# --- the same in every reproduction: run the cases named on the command line -------------------


def run(case):
    """Run one case: its timeline, then its verdict line; return its outcome."""
    print(f"== {case}")
    try:
        outcome, detail = judge(asyncio.run(observe(print, **CASES[case])))
    except NotApplicable as exc:
        outcome, detail = "not-applicable", str(exc)
    except Exception as exc:
        outcome, detail = "error", f"{type(exc).__name__}: {exc}"
    print(f"verdict: {outcome}: {' '.join(str(detail).split())}")
    return outcome


def main(argv):
    """Exit 3 if a case reproduced, else 0 if every case is fixed, else 125 (git bisect run's bad, good, skip)."""
    if any(case not in CASES for case in argv):
        print(f"verdict: error: unknown case in {argv}; valid: {', '.join(CASES)}")
        return 125
    outcomes = [run(case) for case in argv or CASES]
    return 3 if "reproduced" in outcomes else 0 if set(outcomes) == {"fixed"} else 125


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
