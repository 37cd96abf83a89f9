"""google-adk: under SSE streaming, an after_model_callback replacement turns every streamed delta into a final event.

Symptom (#7035): with ``RunConfig(streaming_mode=StreamingMode.SSE)`` the after-model callbacks
run on every streamed ``LlmResponse``, the ``partial=True`` deltas included, and a replacement
the callback returns is used as it is. ``LlmResponse.partial`` defaults to ``None``, which the
streaming protocol reads as final, so a callback that builds a new ``LlmResponse`` (what the
documented contract invites: "the provided content will be returned to user") silently makes
every delta final: the client sees N final responses, and the Runner, which stores every
non-partial event, persists each delta in the session as a separate model event (the history
the next model call reads). The fix (PRs #7036 / #7038; what shipped in 2.10.0 is PR #7038's
``_inherit_unset_streaming_fields`` in flows/llm_flows/core/_finalizer.py) carries ``partial``,
``turn_complete`` (and, from 2.12.0, ``usage_metadata``) over from the response being replaced when the
replacement leaves them unset, for the plugin callbacks and the agent's alike.

Cases: ``agent-callback`` is #7035's reproduction (the agent's ``after_model_callback``
rebuilds each response with its text upper-cased); ``plugin-callback`` is the same replacement
made by a plugin's ``after_model_callback`` (the first call site the fix covers;
not-applicable before plugins, 1.7.0). ``no-callback`` is a control: the same stream with no
callback must yield the three deltas as partial events and store only the final text.

The scripted model streams three partial deltas ("Hel", "lo ", "world") and then the final
response ("Hello world"), the protocol ``LlmResponse``'s docstring describes; it streams only
when the flow asks for it (``stream=True``, which SSE mode passes).

Timeline: every event run_async yielded (``[partial]`` where ``event.partial``), then the
session's events, then the model's calls.

What the harness found (bisect over every final release from 1.0.0, then over 2.x for the
plugin case): both bug cases reproduce on every release probed before the fix (1.0.0, 1.28.1,
1.39.1, 2.0.0, 2.6.3, 2.9.1, 2.9.2; the plugin case is not-applicable before 1.7.0, where plugins
arrived) and are fixed on 2.10.0 and 2.13.0; the boundary is 2.9.2 -> 2.10.0. 1.39.1, the last
1.x release, still has the bug: the 1.x line never got the fix. The matrix (1.39.1 and the latest
patch of every 2.x minor) agrees release by release. Outside the harness,
scenarios/repro/adk-sse-callback-partial--agent-callback.py (#7035's recipe: a streaming fake
model, a callback that rebuilds the response) prints 4 stored model events and no partial event
on 1.1.1, 1.20.0, 1.39.1, 2.0.0 and 2.9.2, and 3 partial events with one stored model event on
2.10.0 and 2.13.0. Diffing the sources agrees: 2.9.2's module-level
``_handle_after_model_callback`` (base_llm_flow.py) returns the callback's response as is;
2.10.0's ``handle_after_model_callback`` (flows/llm_flows/core/_finalizer.py) passes it through
``_inherit_unset_streaming_fields`` (PR #7038's helper name), which 2.12.0 renamed
``_inherit_unset_model_fields`` and extended to ``usage_metadata``. #7035 was filed on 2026-09-06
(2.8.0 was current; the reporter's recipe pins 2.8.0) and is closed; so are both PRs.
"""

from __future__ import annotations

import contextlib
from functools import partial

from harness.runtime.outcomes import fixed, reproduced, unexpected
from harness.runtime.scenario import AsInstalled, Case, Edge, InProcess, NotApplicable, Observation, Release, Scenario
from harness.runtime.timeline import Placeholders

AGENT = "assistant"
QUESTION = "Say hello."
DELTAS = ("Hel", "lo ", "world")
FINAL = "Hello world"


def _shout(llm_response):
    """A replacement response built from scratch (the text upper-cased): ``partial`` is left unset."""
    from google.adk.models import LlmResponse
    from google.genai import types

    text = "".join(p.text or "" for p in llm_response.content.parts) if llm_response.content else ""
    return LlmResponse(content=types.Content(role="model", parts=[types.Part(text=text.upper())]))


def _streaming_llm():
    """A BaseLlm that streams the three deltas as ``partial=True`` responses, then the final text."""
    from harness.runtime.fakes import adk

    class StreamingScriptedLlm(adk.ScriptedLlm):
        async def generate_content_async(self, llm_request, stream: bool = False):
            self.requests.append(llm_request.contents)
            if stream:
                for delta in DELTAS:
                    response = adk.text(delta)
                    response.partial = True
                    yield response
            yield adk.text(FINAL)

    return StreamingScriptedLlm(model="scripted-stream")


def _shouting_plugin():
    try:
        from google.adk.plugins import BasePlugin
    except ImportError as exc:
        raise NotApplicable(f"no plugins in this release: {exc}") from exc

    class ShoutPlugin(BasePlugin):
        async def after_model_callback(self, *, callback_context, llm_response):
            return _shout(llm_response)

    return ShoutPlugin(name="shout_plugin")


def _text(event) -> str:
    return "".join(p.text or "" for p in event.content.parts) if event.content and event.content.parts else ""


async def replay(*, callback: str) -> Observation:
    """Ask once in SSE mode; record what run_async yields and what the session stores."""
    import inspect

    from google.adk.agents import LlmAgent
    from google.adk.agents.run_config import RunConfig, StreamingMode
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService

    from harness.runtime.fakes import adk

    llm = _streaming_llm()
    options = {}
    if callback == "agent":
        options["after_model_callback"] = lambda callback_context, llm_response: _shout(llm_response)
    agent = LlmAgent(name=AGENT, model=llm, instruction="Answer the user.", **options)
    if callback == "plugin":
        plugin = _shouting_plugin()
        if "plugins" not in inspect.signature(Runner.__init__).parameters:
            raise NotApplicable("Runner() takes no plugins in this release")
        sessions = InMemorySessionService()
        runner = Runner(app_name=adk.APP_NAME, agent=agent, session_service=sessions, plugins=[plugin])
        session = await sessions.create_session(app_name=adk.APP_NAME, user_id=adk.USER_ID)
        conversation = adk.Conversation(runner, sessions, adk.APP_NAME, adk.USER_ID, session.id)
    else:
        conversation = await adk.start(agent)

    ids = Placeholders()
    lines, yielded = [], []
    async for event in conversation.stream(QUESTION, run_config=RunConfig(streaming_mode=StreamingMode.SSE)):
        yielded.append({"partial": bool(event.partial), "text": _text(event)})
        lines.append("yielded " + ("[partial] " if event.partial else "") + adk.event_line(event, ids))
    session = await conversation.session()
    stored = [_text(e) for e in session.events if e.author == AGENT and _text(e)]
    lines += ["session:", *adk.session_timeline(session.events, ids), adk.model_calls_line(llm)]
    return Observation(timeline=lines, facts={"yielded": yielded, "stored": stored, "calls": len(llm.requests)})


def _figures(obs: Observation) -> tuple[int, list, str]:
    partials = sum(1 for e in obs.facts["yielded"] if e["partial"])
    stored = obs.facts["stored"]
    return partials, stored, f"{partials} partial events yielded, {len(stored)} model events stored {stored}"


def judge(obs: Observation):
    """Fixed: the deltas stay partial and the session stores only the final (replaced) text."""
    partials, stored, figures = _figures(obs)
    final = FINAL.upper()
    if obs.facts["calls"] != 1:
        return unexpected(figures + f"; the model was called {obs.facts['calls']} times, expected 1")
    if partials == len(DELTAS) and stored == [final]:
        return fixed(figures)
    if partials == 0 and stored == [d.upper() for d in DELTAS] + [final]:
        return reproduced(figures + ": every streamed delta lost partial and was stored as a final event")
    return unexpected(figures)


def judge_control(obs: Observation):
    """Control: with no callback the deltas are partial and only the final text is stored."""
    partials, stored, figures = _figures(obs)
    if obs.facts["calls"] != 1:
        return unexpected(figures + f"; the model was called {obs.facts['calls']} times, expected 1")
    if partials == len(DELTAS) and stored == [FINAL]:
        return fixed(figures)
    if partials < len(DELTAS) and len(stored) > 1:
        return reproduced(figures + ": streamed deltas stored as final events with no callback involved")
    return unexpected(figures)


# --- builds used to prove the oracles (tests only) ------------------------------------------


@contextlib.contextmanager
def _drop_partial_after_model():
    """Break the control in process: every response leaves the after-model step with partial unset."""
    from google.adk.flows.llm_flows.base_llm_flow import BaseLlmFlow

    original = BaseLlmFlow.__dict__["_handle_after_model_callback"]

    async def _handle_after_model_callback(self, invocation_context, llm_response, model_response_event):
        altered = await original(self, invocation_context, llm_response, model_response_event)
        return (altered or llm_response).model_copy(update={"partial": None})

    BaseLlmFlow._handle_after_model_callback = _handle_after_model_callback
    try:
        yield
    finally:
        BaseLlmFlow._handle_after_model_callback = original


LAST_WITHOUT_FIX = Release("google-adk==2.9.2", "the last 2.x release before the fix: the replacement is used as is")
FIRST_WITH_FIX = Release("google-adk==2.10.0", "the first release whose after-model step inherits partial")
CONTROL_HOLDS = AsInstalled("the pinned release, unpatched: deltas stream as partial events")
CONTROL_BROKEN = InProcess(
    "the after-model step patched in process to return every response with partial unset",
    _drop_partial_after_model,
)


# --- edges: observations no build makes, one step across an oracle's line (nox -s mutants) ----


def _called_twice(obs: Observation) -> None:
    obs.facts["calls"] = 2


def _one_delta_kept_partial(obs: Observation) -> None:
    obs.facts["yielded"][0]["partial"] = True


def _final_only_lost(obs: Observation) -> None:
    obs.facts["stored"] = obs.facts["stored"][:1]


def _two_stored(obs: Observation) -> None:
    obs.facts["stored"] = obs.facts["stored"][:2]


def _final_stored_twice(obs: Observation) -> None:
    obs.facts["stored"] = obs.facts["stored"] * 2


EDGES = (
    Edge("unexpected", "the fixed stream, but the model called twice", _called_twice, AsInstalled()),
    Edge(
        "unexpected",
        "the bug's stored events, but one delta still yielded as partial",
        _one_delta_kept_partial,
        LAST_WITHOUT_FIX,
    ),
    Edge(
        "unexpected", "the deltas stayed partial, but the final text stored twice", _final_stored_twice, AsInstalled()
    ),
)
CONTROL_EDGES = (
    Edge("unexpected", "the control's stream, but the model called twice", _called_twice, CONTROL_HOLDS),
    Edge("unexpected", "deltas lost partial, but only one model event stored", _final_only_lost, CONTROL_BROKEN),
    Edge("reproduced", "deltas lost partial, two of them stored", _two_stored, CONTROL_BROKEN),
    Edge(
        "unexpected", "the deltas stayed partial, but the final text stored twice", _final_stored_twice, CONTROL_HOLDS
    ),
)

SCENARIO = Scenario(
    id="adk-sse-callback-partial",
    framework="google-adk",
    links=(
        "https://github.com/google/adk-python/issues/7035",
        "https://github.com/google/adk-python/pull/7036",
        "https://github.com/google/adk-python/pull/7038",
    ),
    description=(
        "In SSE streaming mode, an after_model_callback that returns a newly built LlmResponse "
        "drops the partial flag of every streamed delta: each delta is yielded as a final event "
        "and stored in the session as a separate model event."
    ),
    expected=(
        "A replacement that leaves partial unset keeps the partial flag of the response it "
        "replaces: the deltas stream as partial events and the session stores only the final one."
    ),
    cases=(
        Case(
            "agent-callback",
            partial(replay, callback="agent"),
            judge,
            {"reproduced": LAST_WITHOUT_FIX, "fixed": FIRST_WITH_FIX},
            "the agent's after_model_callback rebuilds each streamed response (text upper-cased)",
            edges=EDGES,
        ),
        Case(
            "plugin-callback",
            partial(replay, callback="plugin"),
            judge,
            {"reproduced": LAST_WITHOUT_FIX, "fixed": FIRST_WITH_FIX},
            "a plugin's after_model_callback rebuilds each streamed response",
        ),
        Case(
            "no-callback",
            partial(replay, callback="none"),
            judge_control,
            {"reproduced": CONTROL_BROKEN, "fixed": CONTROL_HOLDS},
            "control: the same stream without a callback yields partial deltas and stores one event",
            control=True,
            edges=CONTROL_EDGES,
        ),
    ),
)
