"""google-adk: the sync ``Runner.run()`` ends quietly when the model fails at turn N.

Symptom (google/adk-python#5567): ``Runner.run()``, the synchronous wrapper, runs
``run_async`` on a background thread and hands its events over a queue. When the run raises
(a model error: a 503, a quota, an auth failure), the background thread's ``finally`` puts
the end marker and the exception escapes on that thread only: it reaches
``threading.excepthook`` (stderr), while the caller's loop over ``Runner.run()`` just ends,
as if the agent had finished. A caller cannot tell a failed turn from a complete one. The
thread names the same class of bug on ``run_sse`` (#4244) and ``run_live`` (#5494).

The fix forwards the exception through the queue and re-raises it on the calling thread
once the events produced before the failure have been yielded (google/adk/runners.py,
``Runner.run``: "Whatever the agent raised, re-raised on the calling thread").

Cases (the model is a scripted fake whose turn N raises ``ScriptedModelError``,
harness/runtime/fakes/adk.py ``fails``):

- ``error-at-turn-2``: turn 1 calls a tool, turn 2 fails; ``Runner.run()`` is iterated to
  its end on a worker thread, as a sync caller would.
- ``error-at-turn-1``: the first model call fails, as in the thread's reproducer (no event
  reaches the caller).
- ``run-async-control`` (a control): the same failure at turn 2 through ``run_async``,
  which raises it on every release.

Timeline: the events the caller received (author and parts), how the caller's iteration
ended (the exception it got, or a plain end), what reached ``threading.excepthook`` during
the run, and the session's stored events. Oracle: ``fixed`` when the caller got the
scripted error after the events before it; ``reproduced`` when the iteration ended without
it (the error went to the background thread's excepthook, or nowhere).

What the harness found (bisect over every final release from 1.0.0): reproduced on every
release up to 2.7.1, the 1.x line included (1.39.1, released after 2.8.0, still has it);
fixed from 2.8.0 (source diff 2.7.1 -> 2.8.0 of google/adk/runners.py: the queue carries the
exception and ``run`` re-raises it). The 2.x releases also yield an error event
(``error_code``/``error_message``) before the run ends, so there a caller that reads every
event's ``error_code`` could tell, but the iteration still ends without the exception up to
2.7.1. Checked outside the harness: a script after the thread's reproducer (``run_async``
replaced by one that raises ``RuntimeError("boom")``, ``list(runner.run(...))``) returns 0
events and no exception on 1.0.0, 1.39.1 and 2.7.1 (the error reaches ``threading.excepthook``),
and raises ``RuntimeError('boom')`` on 2.8.0 and 2.13.0.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading

from harness.runtime.outcomes import fixed, reproduced, unexpected
from harness.runtime.scenario import AsInstalled, Case, Edge, InProcess, Observation, Release, Scenario
from harness.runtime.timeline import Placeholders, quote

APP = "sync_run_app"
USER = "user-1"
QUESTION = "What is the weather in Paris?"
ERROR = "503 UNAVAILABLE: the model is overloaded (scripted)"


def _agent(error_turn: int):
    from google.adk.agents import LlmAgent

    from harness.runtime.fakes.adk import FailingScriptedLlm, calls, fails

    def get_weather(city: str) -> dict:
        """Returns the weather in a city."""
        return {"city": city, "weather": "sunny"}

    # Real annotations: ``from __future__ import annotations`` would make them strings,
    # which ADK 1.0-1.1 cannot parse for a function tool.
    get_weather.__annotations__ = {"city": str, "return": dict}
    script = [calls(("get_weather", {"city": "Paris"}))] * (error_turn - 1) + [fails(ERROR)]
    llm = FailingScriptedLlm(model="scripted", script=script, requests=[])
    return LlmAgent(name="assistant", model=llm, instruction="Answer.", tools=[get_weather]), llm


def _message():
    from google.genai import types

    return types.Content(role="user", parts=[types.Part(text=QUESTION)])


@contextlib.contextmanager
def _excepthook_recorder(seen: list[BaseException]):
    """Record (and keep off stderr) what reaches threading.excepthook during the run."""
    original = threading.excepthook

    def hook(args):
        seen.append(args.exc_value)

    threading.excepthook = hook
    try:
        yield
    finally:
        threading.excepthook = original


def _describe_exc(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {quote(str(exc), 100)}"


async def replay(*, error_turn: int, sync: bool) -> Observation:
    """Run one turn whose model call ``error_turn`` fails, through Runner.run or run_async."""
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService

    from harness.runtime.fakes.adk import describe_part

    agent, llm = _agent(error_turn)
    sessions = InMemorySessionService()
    runner = Runner(app_name=APP, agent=agent, session_service=sessions)
    session = await sessions.create_session(app_name=APP, user_id=USER)
    received, hooked = [], []
    raised: BaseException | None = None

    def consume_sync() -> None:
        for event in runner.run(user_id=USER, session_id=session.id, new_message=_message()):
            received.append(event)

    with _excepthook_recorder(hooked):
        try:
            if sync:
                # The caller's thread is a worker thread, so the case's event loop (and its
                # timeout) stays free while Runner.run() blocks.
                await asyncio.to_thread(consume_sync)
            else:
                async for event in runner.run_async(user_id=USER, session_id=session.id, new_message=_message()):
                    received.append(event)
        except Exception as exc:  # the outcome under test: recorded, judged
            raised = exc

    stored = await sessions.get_session(app_name=APP, user_id=USER, session_id=session.id)
    ids = Placeholders()

    def line(e) -> str:
        parts = e.content.parts if e.content and e.content.parts else []
        body = " ".join(describe_part(p, ids) for p in parts)
        # 2.x records the failure as an event of its own (error_code, error_message).
        error = getattr(e, "error_code", None) or getattr(e, "error_message", None)
        if error:
            body += f" error={e.error_code} {quote(e.error_message or '', 100)}"
        return f"{e.author} " + (body.strip() or "<no content>")

    api = "Runner.run()" if sync else "Runner.run_async()"
    timeline = [f"{api}: model turn {error_turn} raises ScriptedModelError"]
    timeline += [f"caller received: {line(e)}" for e in received]
    timeline.append(
        f"caller's iteration ended: {'raised ' + _describe_exc(raised) if raised else 'normally, no exception'}"
    )
    timeline += [f"threading.excepthook got: {_describe_exc(e)}" for e in hooked] or [
        "threading.excepthook got: nothing"
    ]
    timeline.append(f"model calls: {len(llm.requests)}")
    timeline += [f"stored: {line(e)}" for e in stored.events]
    return Observation(
        timeline=timeline,
        facts={
            "api": api,
            "received": len(received),
            "error_events": sum(1 for e in received if getattr(e, "error_code", None)),
            "raised": raised,
            "hooked": hooked,
            "model_calls": len(llm.requests),
            "error_turn": error_turn,
        },
    )


def _is_scripted(exc: BaseException | None) -> bool:
    from harness.runtime.fakes.adk import ScriptedModelError

    return isinstance(exc, ScriptedModelError) and ERROR in str(exc)


def judge(obs: Observation):
    """The caller must get the model's error after the events before it."""
    f = obs.facts
    if f["model_calls"] != f["error_turn"]:
        return unexpected(
            f"the model was called {f['model_calls']} times, expected {f['error_turn']} (the last one fails)"
        )
    got = f"{f['received']} event{'s' if f['received'] != 1 else ''} received"
    if _is_scripted(f["raised"]):
        return fixed(f"{f['api']} raised the model's ScriptedModelError to the caller after {got}")
    if f["raised"] is not None:
        return unexpected(f"{f['api']} raised another error: {_describe_exc(f['raised'])}; {got}")
    where = (
        "it reached the background thread's excepthook only"
        if any(_is_scripted(e) for e in f["hooked"])
        else "it reached no handler the harness can see"
    )
    if f["error_events"]:
        got += f", {f['error_events']} of them an error event"
    return reproduced(f"{f['api']} ended normally after {got}; the model's exception was lost to the caller ({where})")


# --- builds that prove the oracles (tests only) ------------------------------------------


@contextlib.contextmanager
def _patched(name: str, replacement):
    from google.adk.runners import Runner

    original = getattr(Runner, name)
    setattr(Runner, name, replacement)
    try:
        yield
    finally:
        setattr(Runner, name, original)


def _swallowing_run_async(original):
    """Breaks the control: run_async that ends quietly when the agent raises."""

    async def run_async(self, **kwargs):
        try:
            async for event in original(self, **kwargs):
                yield event
        except Exception:
            return

    return run_async


def _break_run_async():
    from google.adk.runners import Runner

    return _patched("run_async", _swallowing_run_async(Runner.run_async))


PRE_FIX_RUN = Release(
    "google-adk==2.7.1", "the last release whose Runner.run leaves the exception on the background thread"
)
PINNED = AsInstalled("the pinned release re-raises on the calling thread (Runner.run, 2.8.0 on)")
PINNED_RUN_ASYNC = AsInstalled("the pinned release's run_async raises the model's error")
SWALLOWING_RUN_ASYNC = InProcess("run_async wrapped to end quietly when the agent raises", _break_run_async)

# --- edges: observations no build makes, one step across an oracle's line (nox -s mutants) ----


def _other_type_same_message(obs: Observation) -> None:
    obs.facts["raised"] = RuntimeError(str(obs.facts["raised"]))


SCENARIO = Scenario(
    id="adk-sync-run-model-error",
    framework="google-adk",
    links=(
        "https://github.com/google/adk-python/issues/5567",
        "https://github.com/google/adk-python/issues/4244",
    ),
    description=(
        "When the model raises at turn N, the sync Runner.run() ends its event loop normally: the "
        "exception reaches only the background thread's excepthook, never the caller."
    ),
    expected=(
        "Runner.run() yields the events produced before the failure, then raises the model's "
        "exception on the calling thread."
    ),
    cases=(
        Case(
            "error-at-turn-2",
            lambda: replay(error_turn=2, sync=True),
            judge,
            {"reproduced": PRE_FIX_RUN, "fixed": PINNED},
            "Runner.run(): turn 1 calls get_weather, model turn 2 raises",
            edges=(
                Edge(
                    "unexpected",
                    "the caller gets another exception type carrying the model error's message",
                    _other_type_same_message,
                    PINNED,
                ),
            ),
        ),
        Case(
            "error-at-turn-1",
            lambda: replay(error_turn=1, sync=True),
            judge,
            {"reproduced": PRE_FIX_RUN, "fixed": PINNED},
            "Runner.run(): the first model call raises (the thread's reproducer)",
        ),
        Case(
            "run-async-control",
            lambda: replay(error_turn=2, sync=False),
            judge,
            {"reproduced": SWALLOWING_RUN_ASYNC, "fixed": PINNED_RUN_ASYNC},
            "control: the same failure through run_async raises on every release",
            control=True,
        ),
    ),
)
