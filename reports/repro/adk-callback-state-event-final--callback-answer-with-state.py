#!/usr/bin/env -S uv run --script
# /// script
# requires-python = ">=3.11"
# dependencies = [
#     "google-adk==2.13.0",
# ]
# [tool.uv]
# exclude-newer = "2026-10-23T18:26:35Z"
# ///
"""adk-callback-state-event-final, case callback-answer-with-state: a standalone reproduction (google-adk).

Bug: An agent callback that writes state and returns None makes the agent yield an extra
event with no content, and that event's is_final_response() is True, so a loop that stops at
the first final response never reads the model's answer.

Expected: A state-only callback event is not a final response: the model's answer is the
turn's only final response, and the state write still reaches the session.

This case (callback-answer-with-state): control: before_agent_callback sets state and
answers itself; its answer stays final. It is a control: behaviour beside the bug that must
hold (fixed) on every release; reproduced means it broke.

Upstream:
    https://github.com/google/adk-python/issues/7078
    https://github.com/google/adk-python/issues/2992
    https://github.com/google/adk-python/pull/7095
    https://github.com/google/adk-python/issues/772

The inline metadata above pins google-adk==2.13.0, the newest release of the harness's
record (the case says fixed there; it reproduces on none); its dependencies are resolved as
of that release's upload (2026-10-23T18:26:35Z, uv's exclude-newer), as the harness's matrix
installs it. To try another release, change the pin and exclude-newer (or delete it).

What the harness recorded (reports/matrix.json):
    google-adk 1.6.1 – 1.39.1 (3 releases run): fixed: 1 final response (0 without content); the break-at-first-final loop reads 'Here is the answer.'
    google-adk 2.0.0 – 2.13.0 (14 releases run): fixed: 1 final response (0 without content); the break-at-first-final loop reads 'Here is the answer.'

Run it:
    uv run adk-callback-state-event-final--callback-answer-with-state.py        # in a fresh environment with the pinned release
    python adk-callback-state-event-final--callback-answer-with-state.py        # with the google-adk this Python has (e.g. your checkout, pip install -e .)

It prints the normalised timeline (ids the framework invents become placeholders such as
inv-1, in first-seen order), then one verdict line, and exits 0 when the case is fixed, 1
when it reproduces, 2 otherwise (unexpected, not-applicable, error). No network is used: the
model is a scripted fake.

The code is agent-bug-harness's own, bundled verbatim at the end of this file (BUNDLE): the
scenario module, the harness modules it imports (fakes, timeline helpers, outcomes) and the
runner that judges the case as the matrix does. A small importer makes them importable under
their own names, so the scenario runs unmodified.

The scenario's own notes (its module docstring):

    google-adk: an agent callback that only writes state yields an empty event marked as final.

    Symptom (#7078, reported earlier as #2992): a ``before_agent_callback`` that changes state and
    returns ``None`` makes ``BaseAgent`` yield an extra event with no content that carries the
    state delta (``_handle_agent_callbacks``, google/adk/agents/base_agent.py). The agent then runs
    as usual, but that first event's ``is_final_response()`` is ``True`` (google/adk/events/event.py:
    an event without function calls or responses, not partial, is final), so the loop the
    documentation teaches (``if event.is_final_response(): text = ...; break``) stops there and
    the user gets no answer. The same empty event follows the answer when an
    ``after_agent_callback`` writes state (#772): the last "final response" of the turn holds no
    text. The fix proposed in PR #7095 (open when this scenario was written): an event with no
    ``content`` and no ``output`` but a non-empty ``state_delta`` is not a final response.

    Cases: ``before-agent-state`` is #2992's reproduction (the callback sets ``state["my_state"]``;
    the consumer breaks at the first final response and must find the model's text there);
    ``after-agent-state`` is the after-callback path PR #7095 also covers (the turn's only final
    response must be the model's answer); ``plugin-before-agent-state`` is the same write made by a
    plugin's ``before_agent_callback`` (``Runner(plugins=[...])``, not-applicable on releases
    without plugins). ``callback-answer-with-state`` is a control (a non-regression variant): a
    ``before_agent_callback`` that writes state *and* returns the answer makes one event with both,
    which must stay a final response (a fix that took every event with a ``state_delta`` out of the
    final responses would lose it; ``reproduced`` there means the answer is not final).

    Timeline: every event ``run_async`` yielded, in order, with ``[final]`` where
    ``is_final_response()`` is true; the text the thread's loop ends with; the session state; the
    model's calls.

    What the harness found (bisect over every final release from 1.0.0; nine probes): the three bug
    cases reproduce on every release probed, 1.0.0 to 2.13.0, and on every default release of the
    matrix, 2.13.0 (the latest) included: the bug is open (the
    plugin case is not-applicable before 1.7.0, the first release whose Runner takes plugins).
    ``callback-answer-with-state`` holds everywhere. Outside the harness, #2992's callback and
    break-at-first-final loop, with a stand-in model, end with ``final_response_text = None`` on
    1.0.0, 1.39.1 and 2.13.0, and a bare ``Event(actions=EventActions(state_delta=...))`` says
    ``is_final_response() == True`` on each. The source agrees: ``BaseAgent`` has built the
    content-less state event since 1.0.0 (base_agent.py), and ``Event.is_final_response`` has never
    excluded it (2.x only added an ``error_code`` branch). #2992 (filed when 1.14.1 was current) is
    closed, but no release changed the behaviour; #7078 was filed when 2.8.0 was current, and PR
    #7095 was still open.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.abc
import importlib.metadata
import importlib.util
import os
import sys

SCENARIO = "adk-callback-state-event-final"
SCENARIO_MODULE = "scenarios.adk_callback_state_event_final"  # bundled below (first in BUNDLE), with what it imports
CASE = "callback-answer-with-state"
FRAMEWORK = "google-adk"
# Imported before the case starts, as the harness's workers do (harness/worker.py), so the
# framework's import time does not count against the case's timeout.
FRAMEWORK_MODULE = "google.adk.runners"
EXIT_STATUS = {"fixed": 0, "reproduced": 1}  # anything else: 2
# The file name bundled modules are compiled under: a name, not a directory (tracebacks and
# warnings show /bundle/harness/adk.py; the lines come from BUNDLE).
BUNDLE_ROOT = "/bundle"


class BundleImporter(importlib.abc.MetaPathFinder, importlib.abc.InspectLoader):
    """Imports the modules in BUNDLE under their own names (harness.timeline, scenarios.x, ...)."""

    def __init__(self, sources: dict[str, str]) -> None:
        self.sources = sources
        self.paths = {path[:-3].replace("/", ".").removesuffix(".__init__"): path for path in sources}

    def find_spec(self, name, path=None, target=None):
        if name not in self.paths:
            return None
        spec = importlib.util.spec_from_loader(name, self, origin=f"{BUNDLE_ROOT}/{self.paths[name]}",
                                               is_package=self.is_package(name))
        spec.has_location = True  # __file__ is set, and tracebacks show the bundled lines
        return spec

    def is_package(self, name: str) -> bool:
        return self.paths[name].endswith("/__init__.py")

    def get_source(self, name: str) -> str:
        return self.sources[self.paths[name]]

    def get_code(self, name: str):
        return compile(self.get_source(name), f"{BUNDLE_ROOT}/{self.paths[name]}", "exec", dont_inherit=True)


def main() -> int:
    # As the harness's workers run (harness/environments.py): set before the framework is
    # imported, so openai-agents never tries to export a trace.
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    sys.meta_path.insert(0, BundleImporter(BUNDLE))
    try:
        version = importlib.metadata.version(FRAMEWORK)
    except importlib.metadata.PackageNotFoundError:
        print(f"{SCENARIO}:{CASE}: error: {FRAMEWORK} is not installed in this Python; `uv run` this file, "
              f"or install {FRAMEWORK} (or your checkout of it) first")
        return 2
    try:
        importlib.import_module(FRAMEWORK_MODULE)
    except Exception:
        pass  # the case imports it again and reports the failure as an error

    from harness.runner import run_case  # bundled: harness/runner.py

    scenario = importlib.import_module(SCENARIO_MODULE).SCENARIO
    case = scenario.case(CASE)
    # stdout is the timeline and the verdict; whatever the framework prints goes to stderr.
    with contextlib.redirect_stdout(sys.stderr):
        result = run_case(scenario, case)
    sys.stdout.write(result.timeline)
    print(f"{scenario.id}:{case.id} on {FRAMEWORK} {version}: {result.outcome}: {result.detail}")
    return EXIT_STATUS.get(result.outcome, 2)


# --- agent-bug-harness's code for this case, verbatim: relative path -> source ----------------
BUNDLE = {
    "scenarios/adk_callback_state_event_final.py": r'''"""google-adk: an agent callback that only writes state yields an empty event marked as final.

Symptom (#7078, reported earlier as #2992): a ``before_agent_callback`` that changes state and
returns ``None`` makes ``BaseAgent`` yield an extra event with no content that carries the
state delta (``_handle_agent_callbacks``, google/adk/agents/base_agent.py). The agent then runs
as usual, but that first event's ``is_final_response()`` is ``True`` (google/adk/events/event.py:
an event without function calls or responses, not partial, is final), so the loop the
documentation teaches (``if event.is_final_response(): text = ...; break``) stops there and
the user gets no answer. The same empty event follows the answer when an
``after_agent_callback`` writes state (#772): the last "final response" of the turn holds no
text. The fix proposed in PR #7095 (open when this scenario was written): an event with no
``content`` and no ``output`` but a non-empty ``state_delta`` is not a final response.

Cases: ``before-agent-state`` is #2992's reproduction (the callback sets ``state["my_state"]``;
the consumer breaks at the first final response and must find the model's text there);
``after-agent-state`` is the after-callback path PR #7095 also covers (the turn's only final
response must be the model's answer); ``plugin-before-agent-state`` is the same write made by a
plugin's ``before_agent_callback`` (``Runner(plugins=[...])``, not-applicable on releases
without plugins). ``callback-answer-with-state`` is a control (a non-regression variant): a
``before_agent_callback`` that writes state *and* returns the answer makes one event with both,
which must stay a final response (a fix that took every event with a ``state_delta`` out of the
final responses would lose it; ``reproduced`` there means the answer is not final).

Timeline: every event ``run_async`` yielded, in order, with ``[final]`` where
``is_final_response()`` is true; the text the thread's loop ends with; the session state; the
model's calls.

What the harness found (bisect over every final release from 1.0.0; nine probes): the three bug
cases reproduce on every release probed, 1.0.0 to 2.13.0, and on every default release of the
matrix, 2.13.0 (the latest) included: the bug is open (the
plugin case is not-applicable before 1.7.0, the first release whose Runner takes plugins).
``callback-answer-with-state`` holds everywhere. Outside the harness, #2992's callback and
break-at-first-final loop, with a stand-in model, end with ``final_response_text = None`` on
1.0.0, 1.39.1 and 2.13.0, and a bare ``Event(actions=EventActions(state_delta=...))`` says
``is_final_response() == True`` on each. The source agrees: ``BaseAgent`` has built the
content-less state event since 1.0.0 (base_agent.py), and ``Event.is_final_response`` has never
excluded it (2.x only added an ``error_code`` branch). #2992 (filed when 1.14.1 was current) is
closed, but no release changed the behaviour; #7078 was filed when 2.8.0 was current, and PR
#7095 was still open.
"""

from __future__ import annotations

import contextlib
import json
from functools import partial

from harness.outcomes import fixed, reproduced, unexpected
from harness.scenario import AsInstalled, Case, Edge, InProcess, NotApplicable, Observation, Scenario
from harness.timeline import Placeholders

APP = "callback_app"
USER = "user-1"
AGENT = "assistant"
STATE_KEY = "my_state"  # #2992's key and value
STATE_VALUE = "hello"
ANSWER = "Here is the answer."
QUESTION = "Tell me something."


def _callback(answer: bool = False):
    """An agent callback that writes ``state["my_state"]``; returns None, or the answer itself."""
    from google.genai import types

    def modify_state_callback(callback_context):
        callback_context.state[STATE_KEY] = STATE_VALUE
        if answer:
            return types.Content(role="model", parts=[types.Part(text=ANSWER)])
        return None

    return modify_state_callback


def _state_plugin():
    try:
        from google.adk.plugins import BasePlugin
    except ImportError as exc:
        raise NotApplicable(f"no plugins in this release: {exc}") from exc

    class StatePlugin(BasePlugin):
        async def before_agent_callback(self, *, agent, callback_context):
            callback_context.state[STATE_KEY] = STATE_VALUE
            return None

    return StatePlugin(name="state_plugin")


async def replay(
    *, before: bool = False, after: bool = False, plugin: bool = False, answer: bool = False
) -> Observation:
    """Ask once; record every event run_async yields and what a break-at-final loop reads."""
    import inspect

    from google.adk.agents import LlmAgent
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService

    from harness import adk

    if answer:  # the callback answers: the model must not be called
        llm = adk.UncalledLlm(model="must-not-be-called")
    else:
        llm = adk.ScriptedLlm(model="scripted", script=[adk.text(ANSWER)])
    callbacks = {}
    if before:
        callbacks["before_agent_callback"] = _callback(answer)
    if after:
        callbacks["after_agent_callback"] = _callback()
    agent = LlmAgent(name=AGENT, model=llm, instruction="Answer the user.", **callbacks)
    if plugin:
        # adk.start builds a Runner without plugins; this one needs Runner(plugins=[...]).
        if "plugins" not in inspect.signature(Runner.__init__).parameters:
            raise NotApplicable("Runner() takes no plugins in this release")
        sessions = InMemorySessionService()
        runner = Runner(app_name=APP, agent=agent, session_service=sessions, plugins=[_state_plugin()])
        session = await sessions.create_session(app_name=APP, user_id=USER)
        conversation = adk.Conversation(runner, sessions, APP, USER, session.id)
    else:
        conversation = await adk.start(agent, app_name=APP, user_id=USER)

    ids = Placeholders()
    lines, yielded = [], []
    async for event in conversation.stream(QUESTION):
        final = event.is_final_response()
        text = "".join(p.text or "" for p in event.content.parts) if event.content and event.content.parts else None
        delta = dict(event.actions.state_delta or {}) if event.actions else {}
        yielded.append({"final": final, "text": text, "delta": delta})
        lines.append(("[final] " if final else "") + adk.event_line(event, ids))
    # The loop of #2992 and of ADK's quickstarts: the first final response ends the turn.
    first_final = next((e for e in yielded if e["final"]), None)
    loop_text = first_final["text"] if first_final else None
    session = await conversation.session()
    lines += [
        f"break-at-first-final loop reads: {loop_text!r}",
        adk.state_line(session.state),
        adk.model_calls_line(llm),
    ]
    return Observation(
        timeline=lines,
        facts={"yielded": yielded, "loop_text": loop_text, "state": dict(session.state)},
    )


def _finals(obs: Observation) -> tuple[list, list]:
    finals = [e for e in obs.facts["yielded"] if e["final"]]
    empty = [e for e in finals if not e["text"]]
    return finals, empty


def _figures(obs: Observation):
    """The final responses and the figures of a detail, or an ``unexpected`` verdict."""
    finals, empty = _finals(obs)
    answered = [e for e in obs.facts["yielded"] if e["text"] == ANSWER]
    figures = (
        f"{len(finals)} final response{'s' if len(finals) != 1 else ''} ({len(empty)} without content); "
        f"the break-at-first-final loop reads {obs.facts['loop_text']!r}"
    )
    if len(answered) != 1 or obs.facts["state"].get(STATE_KEY) != STATE_VALUE:
        return (
            finals,
            empty,
            figures,
            unexpected(
                figures + f"; the answer was yielded {len(answered)} times, state {json.dumps(obs.facts['state'])}"
            ),
        )
    return finals, empty, figures, None


def judge(obs: Observation):
    """The answer must be the turn's only final response; a state-only final event is the bug."""
    finals, empty, figures, odd = _figures(obs)
    if odd:
        return odd
    if len(finals) == 1 and finals[0]["text"] == ANSWER:
        return fixed(figures)
    if empty and all(e["delta"] and not e["text"] for e in empty) and len(finals) == len(empty) + 1:
        return reproduced(figures + ", expected 1 final response, the answer")
    return unexpected(figures)


def judge_callback_answer_final(obs: Observation):
    """Non-regression: a callback's answer that also carries state stays a final response."""
    finals, _empty, figures, odd = _figures(obs)
    if odd:
        return odd
    if len(finals) == 1 and finals[0]["text"] == ANSWER:
        return fixed(figures)
    if not finals:
        return reproduced(figures + ": the callback's answer, which carries a state_delta, is not a final response")
    return unexpected(figures)


# --- builds used to prove the oracles (tests only) ----------------------------------------


@contextlib.contextmanager
def _patched_is_final_response(wrap):
    from google.adk.events import Event

    original = Event.__dict__["is_final_response"]
    Event.is_final_response = wrap(original)
    try:
        yield
    finally:
        Event.is_final_response = original


def _pr_7095(original):
    """PR #7095's rule: no content, no structured output, a non-empty state_delta: not final."""

    def is_final_response(self):
        if (
            self.content is None
            and getattr(self, "output", None) is None
            and self.actions is not None
            and self.actions.state_delta
        ):
            return False
        return original(self)

    return is_final_response


def _no_state_event_final(original):
    """A fix that goes too far: any event carrying a state_delta is not final, content or not."""

    def is_final_response(self):
        if self.actions is not None and self.actions.state_delta:
            return False
        return original(self)

    return is_final_response


BUG_INSTALLED = AsInstalled("the pinned release, unpatched: a state-only callback event is a final response")
PR_7095 = InProcess(
    "PR #7095 applied in process: an event with no content or output and a non-empty state_delta is not final",
    lambda: _patched_is_final_response(_pr_7095),
)
TOO_BROAD_FIX = InProcess(
    "a fix that goes too far, in process: no event that carries a state_delta is final",
    lambda: _patched_is_final_response(_no_state_event_final),
)
ANSWER_STAYS_FINAL = AsInstalled("the pinned release, unpatched: an event with content is final")


# --- edges: observations no build makes, one step across an oracle's line (nox -s mutants) ----


def _state_lost(obs: Observation) -> None:
    obs.facts["state"] = {}


def _nothing_final(obs: Observation) -> None:
    for event in obs.facts["yielded"]:
        event["final"] = False


def _empty_final_without_delta(obs: Observation) -> None:
    for event in obs.facts["yielded"]:
        if event["final"] and not event["text"]:
            event["delta"] = {}


EDGES = (
    Edge(
        "unexpected",
        "the answer is the only final response, but the callback's state write is lost",
        _state_lost,
        PR_7095,
    ),
    Edge("unexpected", "no event is a final response, the answer included", _nothing_final, BUG_INSTALLED),
    Edge(
        "unexpected",
        "the extra final event has no content and no state_delta either: not the bug's event",
        _empty_final_without_delta,
        BUG_INSTALLED,
    ),
)

SCENARIO = Scenario(
    id="adk-callback-state-event-final",
    framework="google-adk",
    links=(
        "https://github.com/google/adk-python/issues/7078",
        "https://github.com/google/adk-python/issues/2992",
        "https://github.com/google/adk-python/pull/7095",
        "https://github.com/google/adk-python/issues/772",
    ),
    description=(
        "An agent callback that writes state and returns None makes the agent yield an extra "
        "event with no content, and that event's is_final_response() is True, so a loop that "
        "stops at the first final response never reads the model's answer."
    ),
    expected=(
        "A state-only callback event is not a final response: the model's answer is the turn's "
        "only final response, and the state write still reaches the session."
    ),
    cases=(
        Case(
            "before-agent-state",
            partial(replay, before=True),
            judge,
            {"reproduced": BUG_INSTALLED, "fixed": PR_7095},
            "before_agent_callback sets state['my_state'] and returns None",
            edges=EDGES,
        ),
        Case(
            "after-agent-state",
            partial(replay, after=True),
            judge,
            {"reproduced": BUG_INSTALLED, "fixed": PR_7095},
            "after_agent_callback sets state['my_state'] and returns None",
        ),
        Case(
            "plugin-before-agent-state",
            partial(replay, plugin=True),
            judge,
            {"reproduced": BUG_INSTALLED, "fixed": PR_7095},
            "a plugin's before_agent_callback sets state['my_state']",
        ),
        Case(
            "callback-answer-with-state",
            partial(replay, before=True, answer=True),
            judge_callback_answer_final,
            {"reproduced": TOO_BROAD_FIX, "fixed": ANSWER_STAYS_FINAL},
            "control: before_agent_callback sets state and answers itself; its answer stays final",
            control=True,
        ),
    ),
)
''',
    "harness/__init__.py": r'''"""Reproduction and regression harness for AI-agent frameworks.

The core (this package, minus the per-framework modules ``adk`` and
``openai_agents``) imports no framework, so it loads in every environment.
"""

__version__ = "0.1.0"
''',
    "harness/adk.py": r'''"""google-adk specifics: a scripted fake model, running an agent, and the session timeline.

Public API only (``google.adk.models.BaseLlm``, ``LlmResponse``, ``Runner``,
``InMemorySessionService``, session events), so it works on every google-adk release the
scenarios use (1.x and 2.x).

- :class:`ScriptedLlm` replays scripted turns (:func:`text`, :func:`calls`);
  :class:`UncalledLlm` is a model the case says must not be called: each call is recorded
  (``llm.requests``) and answered with :data:`UNCALLED_REPLY`, so the run ends and the oracle
  reads the count as a fact, instead of the case ending in ``error``.
- :func:`run_agent` runs an agent or App on a ``Runner`` with an ``InMemorySessionService``
  (create the session, run each message, read the session back); :func:`start` gives the
  :class:`Conversation` behind it, for cases that pass their own ``run_async`` arguments or
  read events as they stream.
- :func:`session_timeline` / :func:`event_line`: one line per event with its author, the
  content's role, its parts and every non-empty action; :func:`state_line`: the session state.
"""

from __future__ import annotations

import copy
import json
from collections.abc import AsyncGenerator, AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from google.adk.models import BaseLlm, LlmRequest, LlmResponse
from google.genai import types

from harness.timeline import Placeholders, quote


class ScriptExhausted(AssertionError):
    """The agent asked the fake model for more turns than the scenario scripted."""


def text(reply: str) -> LlmResponse:
    """A scripted model turn that answers with text."""
    return LlmResponse(content=types.Content(role="model", parts=[types.Part(text=reply)]))


def calls(*function_calls: tuple[str, dict[str, Any]]) -> LlmResponse:
    """A scripted model turn holding one or more function calls, as (name, args) pairs."""
    parts = [types.Part(function_call=types.FunctionCall(name=name, args=args)) for name, args in function_calls]
    return LlmResponse(content=types.Content(role="model", parts=parts))


class ScriptedLlm(BaseLlm):
    """A ``BaseLlm`` that replays scripted responses in order and records every request.

    Usage: ``ScriptedLlm(model="scripted", script=[calls(("get_weather", {"city": "Paris"})), text("done")])``.
    """

    # Pydantic fields (BaseLlm is a pydantic model): each instance gets its own copy of the default.
    script: list[Any] = []  # noqa: RUF012
    requests: list[Any] = []  # noqa: RUF012

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        # Copy the request: the flow mutates its contents list after the call.
        self.requests.append(copy.deepcopy(llm_request.contents))
        turn = len(self.requests)
        if turn > len(self.script):
            raise ScriptExhausted(
                f"ScriptedLlm: the agent asked for model turn {turn}, but the scenario scripted "
                f"only {len(self.script)}; add a response to the script or check why the agent looped"
            )
        yield self.script[turn - 1].model_copy(deep=True)


UNCALLED_REPLY = "(the scripted model was called, but this case says it must not be)"


class UncalledLlm(ScriptedLlm):
    """A model that must not be called: each call is recorded and answered with :data:`UNCALLED_REPLY`.

    The oracle reads ``len(llm.requests)`` (0 when the framework kept its promise), so a call
    is a fact with figures, not an ``error`` from an exhausted script.
    Usage: ``llm = UncalledLlm(model="must-not-be-called")``.
    """

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        self.requests.append(copy.deepcopy(llm_request.contents))
        yield text(UNCALLED_REPLY)


def model_calls_line(llm: ScriptedLlm) -> str:
    """``model calls: N``: how many turns the (scripted or uncalled) model was asked for."""
    return f"model calls: {len(llm.requests)}"


# --- running an agent ----------------------------------------------------------------------

APP_NAME = "harness_app"
USER_ID = "user-1"


def user_message(message: Any) -> Any:
    """A user ``types.Content`` from a string; Content (or None, for a resume) as given."""
    if isinstance(message, str):
        return types.Content(role="user", parts=[types.Part(text=message)])
    return message


@dataclass
class Conversation:
    """One session of an agent or App on a Runner with an InMemorySessionService.

    ``events`` holds every event ``run_async`` yielded, over every :meth:`send`/:meth:`stream`.
    """

    runner: Any
    sessions: Any  # the session service
    app_name: str
    user_id: str
    session_id: str
    events: list[Any] = field(default_factory=list)

    async def stream(self, message: Any = None, **run_async: Any) -> AsyncIterator[Any]:
        """``runner.run_async`` for ``message`` (a string, a Content, or None), event by event.

        ``run_async`` keywords (``invocation_id``, ``state_delta``, ``run_config``...) pass
        through; a None value is left out, so releases without that parameter still run.
        """
        kwargs = {k: v for k, v in run_async.items() if v is not None}
        async for event in self.runner.run_async(
            user_id=self.user_id, session_id=self.session_id, new_message=user_message(message), **kwargs
        ):
            self.events.append(event)
            yield event

    async def send(self, message: Any = None, **run_async: Any) -> list[Any]:
        """Run ``message`` to the end; the events this run yielded."""
        return [event async for event in self.stream(message, **run_async)]

    async def session(self) -> Any:
        """The session as the service stores it now (events and state)."""
        return await self.sessions.get_session(app_name=self.app_name, user_id=self.user_id, session_id=self.session_id)


async def start(
    agent_or_app: Any,
    *,
    app_name: str = APP_NAME,
    user_id: str = USER_ID,
    state: dict[str, Any] | None = None,
    session_service: Any = None,
) -> Conversation:
    """A Runner for ``agent_or_app`` (an agent, or an ``App``) and a new session."""
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService

    try:
        from google.adk.apps import App
    except ImportError:  # releases before App: every root is an agent
        App = ()
    sessions = session_service if session_service is not None else InMemorySessionService()
    if isinstance(agent_or_app, App):  # an App names itself (agents have a root_agent too)
        runner = Runner(app=agent_or_app, session_service=sessions)
        app_name = agent_or_app.name
    else:
        runner = Runner(app_name=app_name, agent=agent_or_app, session_service=sessions)
    create: dict[str, Any] = {"app_name": app_name, "user_id": user_id}
    if state is not None:
        create["state"] = state
    session = await sessions.create_session(**create)
    return Conversation(runner, sessions, app_name, user_id, session.id)


async def run_agent(agent_or_app: Any, *messages: Any, run_config: Any = None, **start_options: Any) -> Any:
    """Run each message in turn in one new session; the session read back from the service.

    Usage: ``session = await adk.run_agent(agent, "What is the weather?", run_config=config)``;
    ``session.events`` and ``session.state`` are what the service stored.
    """
    conversation = await start(agent_or_app, **start_options)
    for message in messages:
        await conversation.send(message, run_config=run_config)
    return await conversation.session()


def describe_part(part: Any, ids: Placeholders) -> str:
    """One part of an event's content, normalised: text, function call or response."""
    if part.function_call is not None:
        fc = part.function_call
        return f"call {ids('call', fc.id)} {fc.name}({json.dumps(fc.args or {}, sort_keys=True)})"
    if part.function_response is not None:
        fr = part.function_response
        return f"response {ids('call', fr.id)} {fr.name} -> {json.dumps(fr.response, sort_keys=True, default=str)}"
    if part.text is not None:
        return quote(part.text)
    return "<other part>"


def _normalised(value: Any, ids: Placeholders, key: str = "") -> Any:
    """An action's value with the ids and times the framework invents made stable."""
    if hasattr(value, "model_dump"):
        value = value.model_dump(exclude_none=True)
    if isinstance(value, dict):
        # requested_auth_configs / requested_tool_confirmations are keyed by function call id.
        keyed_by_call = key.startswith("requested_")
        return {
            (ids("call", k) if keyed_by_call else str(k)): _normalised(v, ids, str(k))
            for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))
        }
    if isinstance(value, (list, tuple)):
        return [_normalised(v, ids, key) for v in value]
    if key.endswith("timestamp") and isinstance(value, (int, float)):
        return "<time>"
    if key.endswith("invocation_id") and isinstance(value, str):
        return ids("inv", value)
    if isinstance(value, str):
        return ids.scrub(value)
    return value


def describe_actions(actions: Any, ids: Placeholders) -> str:
    """Every non-empty action of an event, ``name=<json>`` in field order ('' when none)."""
    if actions is None:
        return ""
    shown = []
    for name, value in actions.model_dump(exclude_none=True).items():
        if value is None or value == {} or value == []:
            continue
        shown.append(f"{name}={json.dumps(_normalised(value, ids, name), sort_keys=True, default=str)}")
    return " ".join(shown)


def event_line(event: Any, ids: Placeholders) -> str:
    """``[inv-1] author (role) 'text' state_delta={...}`` for one session event.

    The content's role and every non-empty action are shown: two events that differ in
    either must not read the same.
    """
    parts = event.content.parts if event.content and event.content.parts else []
    body = " ".join(describe_part(p, ids) for p in parts) or "<no content>"
    role = f" ({event.content.role})" if event.content is not None and event.content.role else ""
    line = f"[{ids('inv', event.invocation_id)}] {event.author}{role} {body}"
    actions = describe_actions(event.actions, ids)
    return f"{line} {actions}" if actions else line


def session_timeline(events: list[Any], ids: Placeholders) -> list[str]:
    """The session's events, one normalised line each, in order."""
    return [event_line(e, ids) for e in events]


def state_line(state: Any, keys: Any = None) -> str:
    """``state {...}``: the session state (or only ``keys`` of it, missing ones as null), sorted."""
    state = dict(state or {})
    if keys is not None:
        state = {k: state.get(k) for k in keys}
    return f"state {json.dumps(state, sort_keys=True, default=str)}"


# --- scripted model errors (a model error at turn N) ----------------------------------------


class ScriptedModelError(RuntimeError):
    """The error a scripted model turn raises, as a provider's client would (a 503, a quota)."""


def fails(message: str) -> ScriptedModelError:
    """A scripted model turn that raises instead of answering: ``script=[calls(...), fails("503 UNAVAILABLE")]``.

    Only :class:`FailingScriptedLlm` raises it; the plain ScriptedLlm would try to yield it.
    """
    return ScriptedModelError(message)


class FailingScriptedLlm(ScriptedLlm):
    """A ScriptedLlm whose script may hold :func:`fails` turns: the request is recorded, then raised."""

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        turn = len(self.requests) + 1
        if turn <= len(self.script) and isinstance(self.script[turn - 1], BaseException):
            self.requests.append(copy.deepcopy(llm_request.contents))
            raise self.script[turn - 1]
        async for response in super().generate_content_async(llm_request, stream):
            yield response
''',
    "harness/frameworks.py": r'''"""The frameworks the harness knows: PyPI name, import name, scenario id prefix."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Framework:
    name: str  # the PyPI name, as in reports/matrix.json
    id_prefix: str  # every scenario id of this framework starts with it
    entry_module: str  # what a scenario's first import pulls in (the bench's import floor)


FRAMEWORKS: dict[str, Framework] = {
    f.name: f
    for f in (
        Framework("google-adk", "adk-", "google.adk.runners"),
        Framework("openai-agents", "agents-", "agents"),
    )
}


class UnknownFramework(ValueError):
    pass


def get(name: str) -> Framework:
    """The framework called ``name`` (PyPI spelling, case and ``_``/``-`` insensitive)."""
    key = name.strip().lower().replace("_", "-")
    try:
        return FRAMEWORKS[key]
    except KeyError:
        raise UnknownFramework(f"unknown framework {name!r}; valid: {', '.join(sorted(FRAMEWORKS))}") from None
''',
    "harness/netguard.py": r'''"""Fail any network connection attempted while a case runs, naming the destination.

Fakes must be complete and tracing exporters off; this turns a leak into an ``error``
result instead of a call to a model provider.
"""

from __future__ import annotations

import contextlib
import socket


class NetworkBlocked(RuntimeError):
    pass


def _destination(address: object) -> str:
    if isinstance(address, tuple) and len(address) >= 2:
        return f"{address[0]}:{address[1]}"
    return str(address)


@contextlib.contextmanager
def blocked():
    """Within this block, connect(), create_connection() and getaddrinfo() raise NetworkBlocked."""
    saved = (socket.socket.connect, socket.socket.connect_ex, socket.create_connection, socket.getaddrinfo)

    def connect(self, address, *a, **k):
        if self.family == getattr(socket, "AF_UNIX", None):
            return saved[0](self, address, *a, **k)
        raise NetworkBlocked(f"network access blocked: connect to {_destination(address)}")

    def connect_ex(self, address, *a, **k):
        if self.family == getattr(socket, "AF_UNIX", None):
            return saved[1](self, address, *a, **k)
        raise NetworkBlocked(f"network access blocked: connect to {_destination(address)}")

    def create_connection(address, *a, **k):
        raise NetworkBlocked(f"network access blocked: connect to {_destination(address)}")

    def getaddrinfo(host, port, *a, **k):
        raise NetworkBlocked(f"network access blocked: name lookup of {host}:{port}")

    # Replacing the socket methods for the duration is the guard's whole job (mypy refuses
    # assignments to methods unless told).
    socket.socket.connect, socket.socket.connect_ex = connect, connect_ex  # type: ignore[method-assign]
    socket.create_connection, socket.getaddrinfo = create_connection, getaddrinfo
    try:
        yield
    finally:
        original_connect, original_connect_ex, original_create_connection, original_getaddrinfo = saved
        socket.socket.connect, socket.socket.connect_ex = original_connect, original_connect_ex  # type: ignore[method-assign]
        socket.create_connection, socket.getaddrinfo = original_create_connection, original_getaddrinfo
''',
    "harness/outcomes.py": r'''"""The five outcome words of the contract, and a verdict: an outcome with its detail."""

from __future__ import annotations

from dataclasses import dataclass

REPRODUCED = "reproduced"
FIXED = "fixed"
UNEXPECTED = "unexpected"
NOT_APPLICABLE = "not-applicable"
ERROR = "error"

OUTCOMES = (REPRODUCED, FIXED, UNEXPECTED, NOT_APPLICABLE, ERROR)


@dataclass(frozen=True)
class Verdict:
    """One outcome plus a one-line human detail with the figures."""

    outcome: str
    detail: str

    def __post_init__(self) -> None:
        if self.outcome not in OUTCOMES:
            raise ValueError(f"unknown outcome {self.outcome!r}; valid: {', '.join(OUTCOMES)}")
        if "\n" in self.detail:
            raise ValueError(f"a verdict's detail is one line, got {self.detail!r}")


def reproduced(detail: str) -> Verdict:
    return Verdict(REPRODUCED, detail)


def fixed(detail: str) -> Verdict:
    return Verdict(FIXED, detail)


def unexpected(detail: str) -> Verdict:
    return Verdict(UNEXPECTED, detail)
''',
    "harness/runner.py": r'''"""Run one case in this process and turn what happens into a result.

Every case gets a fresh event loop, a network guard, a timeout, and its logging
configuration restored afterwards, so one case cannot change what the next one sees.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import traceback
from dataclasses import asdict, dataclass

from harness import netguard
from harness.outcomes import ERROR, NOT_APPLICABLE, Verdict
from harness.scenario import Case, NotApplicable, Observation, Scenario
from harness.timeline import render

DEFAULT_TIMEOUT = 60.0

# Environment every case runs under: no provider key can be read, no tracing exported.
# (openai-agents exports traces to api.openai.com unless disabled: src/agents/tracing/__init__.py)
CASE_ENVIRONMENT = {
    "OPENAI_AGENTS_DISABLE_TRACING": "1",
    "OPENAI_API_KEY": "",
    "GOOGLE_API_KEY": "",
    "GEMINI_API_KEY": "",
    "ADK_DISABLE_TELEMETRY": "1",
}


@dataclass
class CaseResult:
    scenario: str
    case: str
    outcome: str
    detail: str
    timeline: str

    def to_dict(self) -> dict:
        return asdict(self)


_PATH_RE = re.compile(r"(?:/[^\s'\":]+)+/(?=[^\s/'\":]+)")


def strip_paths(text: str) -> str:
    """Drop directory parts of absolute paths, keeping package-relative ones when recognisable."""

    def shorten(m: re.Match) -> str:
        path = m.group(0)
        for anchor in ("/site-packages/", "/src/"):
            if anchor in path:
                return path.split(anchor, 1)[1]
        return ""

    return _PATH_RE.sub(shorten, text)


def error_detail(exc: BaseException, lines: int = 3) -> str:
    """The error's last lines, on one line, without machine paths."""
    text = "".join(traceback.format_exception(exc)).strip().splitlines()
    tail = [line.strip() for line in text[-lines:] if line.strip()]
    return strip_paths(" | ".join(tail))


# wait_for runs the case in a task of its own, as it always has; asyncio.timeout (what ASYNC109
# suggests) would run it in this one, which the frameworks' context handling could notice.
async def _observe(case: Case, timeout: float) -> Observation:  # noqa: ASYNC109
    return await asyncio.wait_for(case.run(), timeout)


def _verdict(case: Case, timeout: float) -> tuple[Verdict, str]:
    try:
        observation = asyncio.run(_observe(case, timeout))
    except NotApplicable as exc:
        return Verdict(NOT_APPLICABLE, strip_paths(str(exc).splitlines()[0] if str(exc) else "not applicable")), ""
    except TimeoutError:
        return Verdict(ERROR, f"timed out after {timeout:g}s"), ""
    except Exception as exc:  # the harness reports every failure as data, never raises
        return Verdict(ERROR, error_detail(exc)), ""
    timeline = render(observation.timeline)
    try:
        verdict = case.oracle(observation)
        if not isinstance(verdict, Verdict):
            raise TypeError(f"oracle returned {type(verdict).__name__}, expected Verdict")
    except Exception as exc:
        return Verdict(ERROR, "oracle failed: " + error_detail(exc)), timeline
    return verdict, timeline


def run_case(scenario: Scenario, case: Case, timeout: float = DEFAULT_TIMEOUT) -> CaseResult:
    """Run ``case`` and judge it; exceptions, timeouts and network use become ``error``."""
    root = logging.getLogger()
    saved_handlers, saved_level = list(root.handlers), root.level
    saved_env = dict(os.environ)  # a case may set any variable; none may reach the next case
    os.environ.update(CASE_ENVIRONMENT)
    try:
        with netguard.blocked():
            verdict, timeline = _verdict(case, timeout)
    finally:
        root.handlers[:] = saved_handlers
        root.setLevel(saved_level)
        if dict(os.environ) != saved_env:
            os.environ.clear()
            os.environ.update(saved_env)
    return CaseResult(scenario.id, case.id, verdict.outcome, verdict.detail, timeline)
''',
    "harness/scenario.py": r'''"""The scenario API: a documented bug, its cases, and how each case's oracle is proven.

A scenario module in ``scenarios/`` defines one module-level ``SCENARIO``. Its top level
imports only the standard library and the harness core; framework imports live inside the
case functions, so the harness can list and validate every scenario in any environment.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any

from harness import frameworks
from harness.outcomes import FIXED, REPRODUCED, UNEXPECTED, Verdict

ID_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
# A plain requirement: name, optional extras, optional version specifiers (no URLs, no markers).
REQUIREMENT_RE = re.compile(
    r"^[A-Za-z0-9][A-Za-z0-9._-]*(\[[A-Za-z0-9._,-]+\])?\s*([<>=!~]=?\s*[0-9][0-9A-Za-z.*+!-]*\s*,?\s*)*$"
)


class ScenarioError(ValueError):
    """A scenario module breaks the scenario contract."""


class NotApplicable(Exception):
    """Raised by a case when the build lacks the API it needs; the message quotes what."""


@dataclass
class Observation:
    """What a case saw: its normalised timeline and the facts its oracle reads."""

    timeline: list[str]
    facts: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class InProcess:
    """A build obtained by patching the installed release in this process.

    ``patch`` returns a context manager that applies, for example, the seed PR's guard
    (a reference fix) or reverts an upstream change. Used only by the harness's own tests.
    """

    description: str
    patch: Callable[[], AbstractContextManager[Any]]


@dataclass(frozen=True)
class AsInstalled:
    """The release installed for ``nox -s tests`` shows this outcome unpatched."""

    description: str = "the pinned release, unpatched"


PIN_RE = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*==\s*([0-9][0-9A-Za-z.+!-]*)\s*$")


@dataclass(frozen=True)
class Release:
    """A real release shows this outcome: ``Release("openai-agents==0.8.0", "the last release before #123")``.

    The proof test (and ``python -m harness run ID:CASE --proof OUTCOME``) runs the case in
    that release's matrix environment (``.nox/builds/<framework>-<version>``, dependencies
    as of its upload date), unpatched. The honest proof for a bug upstream has fixed: the
    last release with the bug, or the first without it.
    """

    spec: str
    description: str = ""

    @property
    def framework(self) -> str:
        """The framework's PyPI name, as the spec spells it (``frameworks.get`` normalises it)."""
        m = PIN_RE.match(self.spec)
        return m.group(1) if m else ""

    @property
    def version(self) -> str:
        m = PIN_RE.match(self.spec)
        return m.group(2) if m else ""


Build = InProcess | AsInstalled | Release


@dataclass(frozen=True)
class Edge:
    """An observation at one of the oracle's lines: the case's observation on ``build``, with
    ``alter`` applied to a copy of it, must get ``outcome``.

    ``alter`` edits the copy in place (or returns a new Observation): for example
    ``lambda obs: obs.facts.update(calls=[...])`` for two calls with different arguments, where
    the scenario's script only ever sends identical ones. Proofs show the oracle can say
    ``reproduced`` and ``fixed`` on real builds; an edge shows it draws the line where the
    docstring says, on an observation no build has to produce (a guard against a malformed
    observation, a count one past the bug's), so a mutant of the oracle that moves the line is
    caught (``nox -s mutants``). It is no evidence about any release: reports never show it.
    ``build`` is ``AsInstalled()`` (the pinned release), an ``InProcess`` patch, or a ``Release``
    (in its matrix environment, for a case that does not apply to the pinned release).
    """

    outcome: str
    description: str
    alter: Callable[[Observation], Observation | None]
    build: Build = AsInstalled()


@dataclass(frozen=True)
class Case:
    """One variant of a scenario: how to replay it, and how to judge what it saw.

    ``proofs`` says how a build showing each of ``reproduced`` and ``fixed`` is obtained,
    so a harness-level test can show the oracle is able to say both.

    ``control=True`` marks a control case: behaviour that must hold (``fixed``) on every
    release, beside the bug (for example the non-streamed path of a streamed bug). It still
    declares both proofs: its ``reproduced`` proof breaks it in this process (``InProcess``),
    so the oracle is shown able to fail. Reports show it as a control ("held on every
    release run", or where it broke), never as "first fixed".
    """

    id: str
    run: Callable[[], Awaitable[Observation]]
    oracle: Callable[[Observation], Verdict]
    proofs: Mapping[str, Build]
    summary: str = ""
    control: bool = False
    # Observations at the oracle's lines, each altered from a real one (see Edge).
    edges: tuple[Edge, ...] = ()


@dataclass(frozen=True)
class Scenario:
    id: str
    framework: str
    links: tuple[str, ...]
    description: str  # the bug, in a sentence or two
    expected: str  # the behaviour the bug report expects
    cases: tuple[Case, ...]
    module: str = ""
    # Extra packages the scenario's environments need: a framework extra such as
    # "google-adk[db]", or a distribution such as "aiosqlite". Every environment of the
    # framework gets the union of its scenarios' requirements, resolved as of the release's
    # date like the framework itself (harness/environments.py).
    requires: tuple[str, ...] = ()

    def case(self, case_id: str) -> Case:
        for c in self.cases:
            if c.id == case_id:
                return c
        raise KeyError(
            f"unknown case {case_id!r} for scenario {self.id!r}; valid: " + ", ".join(c.id for c in self.cases)
        )


def validate(scenario: object, module: str) -> Scenario:
    """Check a module's SCENARIO against the contract; raise ScenarioError naming what is missing."""
    where = f"scenario module {module}"
    if not isinstance(scenario, Scenario):
        raise ScenarioError(f"{where}: SCENARIO must be a harness.scenario.Scenario, got {type(scenario).__name__}")
    problems = []
    if not scenario.id or not ID_RE.match(scenario.id):
        problems.append(f"id {scenario.id!r} is not lower-case and hyphenated")
    try:
        fw = frameworks.get(scenario.framework)
        if scenario.id and not scenario.id.startswith(fw.id_prefix):
            problems.append(f"id {scenario.id!r} must start with {fw.id_prefix!r} for {fw.name}")
    except frameworks.UnknownFramework as exc:
        problems.append(str(exc))
    if not scenario.links or not all(isinstance(u, str) and u.startswith("https://") for u in scenario.links):
        problems.append("links must list at least one https:// upstream URL")
    if not scenario.description.strip():
        problems.append("description is empty")
    if not scenario.expected.strip():
        problems.append("expected behaviour is empty")
    if not scenario.cases:
        problems.append("it has no cases")
    for req in scenario.requires:
        if not isinstance(req, str) or not REQUIREMENT_RE.match(req):
            problems.append(f"requires entry {req!r} is not a requirement (NAME, NAME[extra] or NAME>=1.0)")
    seen: set[str] = set()
    for case in scenario.cases:
        if not ID_RE.match(case.id):
            problems.append(f"case id {case.id!r} is not lower-case and hyphenated")
        if case.id in seen:
            problems.append(f"case id {case.id!r} appears twice")
        seen.add(case.id)
        if not callable(case.run):
            problems.append(f"case {case.id!r} has no run function")
        if not callable(case.oracle):
            problems.append(f"case {case.id!r} has no oracle")
        missing = {REPRODUCED, FIXED} - set(case.proofs)
        if missing:
            problems.append(
                f"case {case.id!r} does not say how to obtain a build that is {' or '.join(sorted(missing))}"
            )
        problems += _proof_problems(scenario, case)
    if problems:
        raise ScenarioError(f"{where}: " + "; ".join(problems))
    return scenario


def _proof_problems(scenario: Scenario, case: Case) -> list[str]:
    """What is wrong with a case's proofs and control flag (empty when nothing is)."""
    problems = []
    if not isinstance(case.control, bool):
        problems.append(f"case {case.id!r}: control must be True or False, got {case.control!r}")
    for outcome, build in case.proofs.items():
        where = f"case {case.id!r}'s {outcome!r} proof"
        if not isinstance(build, (InProcess, AsInstalled, Release)):
            problems.append(f"{where} is a {type(build).__name__}; valid: InProcess, AsInstalled, Release")
            continue
        if isinstance(build, Release):
            problems += _release_problems(scenario, where, build)
    problems += _edge_problems(scenario, case)
    if case.control and REPRODUCED in case.proofs and not isinstance(case.proofs[REPRODUCED], InProcess):
        problems.append(
            f"case {case.id!r} is a control (it holds on every release), so its 'reproduced' proof must "
            "break it in this process (InProcess), not name a build that has it broken"
        )
    return problems


def _release_problems(scenario: Scenario, where: str, build: Release) -> list[str]:
    if not PIN_RE.match(build.spec):
        return [f"{where} names {build.spec!r}; a Release names one release: NAME==VERSION"]
    try:
        named = frameworks.get(build.framework).name
    except frameworks.UnknownFramework as exc:
        return [f"{where}: {exc}"]
    if named != _framework_name(scenario.framework):
        return [f"{where} is a {named} release, but the scenario is about {scenario.framework}"]
    return []


def _edge_problems(scenario: Scenario, case: Case) -> list[str]:
    """What is wrong with a case's edges (empty when nothing is)."""
    # Written by people and checked at run time: the fields may hold anything, whatever they are annotated as.
    edges: object = case.edges
    if not isinstance(edges, tuple):
        return [f"case {case.id!r}: edges must be a tuple of Edge, got {type(edges).__name__}"]
    problems = []
    for n, edge in enumerate(edges, 1):
        where = f"case {case.id!r}'s edge {n}"
        if not isinstance(edge, Edge):
            problems.append(f"{where} is a {type(edge).__name__}, not an Edge")
            continue
        if edge.outcome not in (REPRODUCED, FIXED, UNEXPECTED):
            problems.append(f"{where} expects {edge.outcome!r}; valid: {REPRODUCED}, {FIXED}, {UNEXPECTED}")
        build: object = edge.build
        if not isinstance(build, (InProcess, AsInstalled, Release)):
            problems.append(f"{where} runs on a {type(build).__name__}; valid: InProcess, AsInstalled, Release")
        elif isinstance(build, Release):
            problems += _release_problems(scenario, where, build)
        alter: object = edge.alter
        if not callable(alter) or not str(edge.description).strip():
            problems.append(f"{where} needs a description and an alter function")
    return problems


def _framework_name(name: str) -> str:
    try:
        return frameworks.get(name).name
    except frameworks.UnknownFramework:
        return name
''',
    "harness/timeline.py": r'''"""Normalised timelines: ordered records of what a framework did, identical on every run.

Ids the framework invents (invocation ids, event ids, uuids, call ids) become stable
placeholders in first-seen order (``inv-1``, ``ev-1``, ...). Ids the scenario chose
itself are kept when registered with :meth:`Placeholders.keep`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

UUID_RE = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


@dataclass
class Placeholders:
    """Maps volatile ids to ``<kind>-<n>`` in first-seen order, per kind."""

    _seen: dict[tuple[str, str], str] = field(default_factory=dict)
    _counts: dict[str, int] = field(default_factory=dict)
    _kept: set[str] = field(default_factory=set)

    def keep(self, *values: str) -> None:
        """Leave these ids (chosen by the scenario, hence stable) as they are."""
        self._kept.update(values)

    def __call__(self, kind: str, value: object) -> str:
        if value is None:
            return "-"
        text = str(value)
        if text in self._kept:
            return text
        key = (kind, text)
        if key not in self._seen:
            self._counts[kind] = self._counts.get(kind, 0) + 1
            self._seen[key] = f"{kind}-{self._counts[kind]}"
        return self._seen[key]

    def scrub(self, text: str, kind: str = "uuid") -> str:
        """Replace every uuid inside free text with a placeholder."""
        return UUID_RE.sub(lambda m: self(kind, m.group(0)), text)


def quote(text: object, limit: int = 80) -> str:
    """A short, single-line repr of a text, cut with a visible marker when long."""
    s = str(text)
    if len(s) > limit:
        s = s[: limit - 1] + "…"
    return repr(s)


def render(lines: list[str]) -> str:
    """The timeline as text: one entry per line, newline-terminated."""
    for line in lines:
        if "\n" in line:
            raise ValueError(f"timeline entries are single lines, got {line!r}")
    return "".join(line + "\n" for line in lines)
''',
    "scenarios/__init__.py": r'''"""One module per documented bug; each defines ``SCENARIO`` (see harness/scenario.py)."""
'''
}


if __name__ == "__main__":
    sys.exit(main())
