#!/usr/bin/env -S uv run --script
# /// script
# requires-python = ">=3.11"
# dependencies = [
#     "google-adk==2.8.0",
# ]
# [tool.uv]
# exclude-newer = "2026-08-26T23:26:21Z"
# ///
"""adk-retry-same-invocation-id, case non-resumable-retry: a standalone reproduction (google-adk).

Bug: Calling run_async again with the same invocation_id and the same new_message (a resume,
or a task queue's retry) records the user turn twice.

Expected: The user turn is recorded once; a retry carrying a new state_delta or different
text is still recorded.

This case (non-resumable-retry): plain app: run_async twice with the caller's invocation_id
and the same message.

Upstream:
    https://github.com/google/adk-python/issues/4506
    https://github.com/google/adk-python/pull/6685
    https://github.com/google/adk-python/pull/4526

The inline metadata above pins google-adk==2.8.0, the newest release of the harness's record
on which this case reproduces; its dependencies are resolved as of that release's upload
(2026-08-26T23:26:21Z, uv's exclude-newer), as the harness's matrix installs it. To try
another release, change the pin and exclude-newer (or delete it).

What the harness recorded (reports/matrix.json):
    google-adk 1.39.1: not-applicable: Runner.run_async ignores the caller's invocation_id on a non-resumable app: 2 invocations recorded, none with 'inv-task-retry'
    google-adk 2.0.0 – 2.3.0 (4 releases run): not-applicable: Runner.run_async ignores the caller's invocation_id on a non-resumable app: 2 invocations recorded, none with 'inv-task-retry'
    google-adk 2.4.0 – 2.8.0 (5 releases run): reproduced: 2 user events for inv-task-retry, expected 1
    google-adk 2.9.0 – 2.13.0 (6 releases run): fixed: 1 user event for inv-task-retry, expected 1

Run it:
    uv run adk-retry-same-invocation-id--non-resumable-retry.py        # in a fresh environment with the pinned release
    python adk-retry-same-invocation-id--non-resumable-retry.py        # with the google-adk this Python has (e.g. your checkout, pip install -e .)

It prints the normalised timeline (ids the framework invents become placeholders such as
inv-1, in first-seen order), then one verdict line, and exits 0 when the case is fixed, 1
when it reproduces, 2 otherwise (unexpected, not-applicable, error). No network is used: the
model is a scripted fake.

The code is agent-bug-harness's own, bundled verbatim at the end of this file (BUNDLE): the
scenario module, the harness modules it imports (fakes, timeline helpers, outcomes) and the
runner that judges the case as the matrix does. A small importer makes them importable under
their own names, so the scenario runs unmodified.

The scenario's own notes (its module docstring):

    google-adk: retrying ``run_async`` with the same invocation_id records the user turn twice.

    Symptom: ``Runner._append_new_message_to_session`` appended the user event with no check
    for an earlier one in the same invocation, so resuming a resumable app (path 1) or a task
    queue's at-least-once retry on a plain app (path 2, caller-supplied ``invocation_id``)
    left two identical user events, and the duplicate was replayed to the model as history.

    The seed PR's guard skips the append only when the invocation already recorded the same
    content *and* the same ``state_delta``; its two non-regression tests pin that a retry with a
    new delta, or with different text, is still recorded. Those are the last two cases here: on
    them, ``reproduced`` means the retry was wrongly dropped by a guard that is too broad.

    Timeline: the session's events, ``[inv-N] author (role) 'text' state_delta={...}``, after both
    deliveries, then the session state of the retry's delta key. The agent is an echo agent (no
    model), as in the seed's reproduction.

    Releases (matrix and bisect): the duplicate reproduces before 2.9.0 (the non-resumable path
    exists from 2.4.0); 2.9.0 added an invocation-only guard (``Runner._find_user_message_for_invocation``
    in google/adk/runners.py, seen by diffing the installed 2.8.0 and 2.9.2 sources), which fixes
    the first two cases and is too broad for the last two: they reproduce from 2.9.0 on.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.abc
import importlib.metadata
import importlib.util
import os
import sys

SCENARIO = "adk-retry-same-invocation-id"
SCENARIO_MODULE = "scenarios.adk_retry_same_invocation_id"  # bundled below (first in BUNDLE), with what it imports
CASE = "non-resumable-retry"
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
    "scenarios/adk_retry_same_invocation_id.py": r'''"""google-adk: retrying ``run_async`` with the same invocation_id records the user turn twice.

Symptom: ``Runner._append_new_message_to_session`` appended the user event with no check
for an earlier one in the same invocation, so resuming a resumable app (path 1) or a task
queue's at-least-once retry on a plain app (path 2, caller-supplied ``invocation_id``)
left two identical user events, and the duplicate was replayed to the model as history.

The seed PR's guard skips the append only when the invocation already recorded the same
content *and* the same ``state_delta``; its two non-regression tests pin that a retry with a
new delta, or with different text, is still recorded. Those are the last two cases here: on
them, ``reproduced`` means the retry was wrongly dropped by a guard that is too broad.

Timeline: the session's events, ``[inv-N] author (role) 'text' state_delta={...}``, after both
deliveries, then the session state of the retry's delta key. The agent is an echo agent (no
model), as in the seed's reproduction.

Releases (matrix and bisect): the duplicate reproduces before 2.9.0 (the non-resumable path
exists from 2.4.0); 2.9.0 added an invocation-only guard (``Runner._find_user_message_for_invocation``
in google/adk/runners.py, seen by diffing the installed 2.8.0 and 2.9.2 sources), which fixes
the first two cases and is too broad for the last two: they reproduce from 2.9.0 on.
"""

from __future__ import annotations

import contextlib
import inspect
from functools import partial

from harness.outcomes import fixed, reproduced, unexpected
from harness.scenario import AsInstalled, Case, Edge, InProcess, NotApplicable, Observation, Release, Scenario
from harness.timeline import Placeholders

APP = "retry_app"
USER = "user-1"
FIRST_TEXT = "hello"
RETRY_TEXT = "hello again"
TASK_ID = "inv-task-retry"  # the task queue's own id (seed, path 2): stable, kept as is
RETRY_DELTA = {"delivery": "retry"}


def _echo_agent():
    from google.adk.agents import BaseAgent
    from google.adk.events import Event
    from google.genai import types

    class EchoAgent(BaseAgent):
        """Minimal agent from the seed: one model event per invocation, no LLM call."""

        async def _run_async_impl(self, ctx):
            yield Event(
                invocation_id=ctx.invocation_id,
                author=self.name,
                content=types.Content(role="model", parts=[types.Part(text="ack")]),
            )

    return EchoAgent(name="root_agent")


def _require_run_async_params(runner_cls, *names: str) -> None:
    params = inspect.signature(runner_cls.run_async).parameters
    missing = [n for n in names if n not in params]
    if missing:
        raise NotApplicable(f"Runner.run_async has no parameter {', '.join(missing)}")


def _is_refusal(exc: Exception) -> bool:
    # Releases that do not support a call path say so with a ValueError, e.g.
    # "invocation_id is only supported for resumable apps" (google/adk/runners.py).
    text = str(exc).lower()
    return isinstance(exc, (ValueError, NotImplementedError)) and ("support" in text or "resum" in text)


async def _deliver(conversation, text: str, invocation_id, state_delta=None) -> str | None:
    seen = None
    try:
        async for event in conversation.stream(text, invocation_id=invocation_id, state_delta=state_delta):
            seen = event.invocation_id
    except Exception as exc:
        if _is_refusal(exc):
            raise NotApplicable(f"google-adk refused the retry: {type(exc).__name__}: {exc}") from exc
        raise
    return seen


async def replay(*, resumable: bool, retry_text: str = FIRST_TEXT, retry_delta: dict | None = None) -> Observation:
    """Deliver a message, then deliver it again under the same invocation id."""
    from google.adk.runners import Runner

    from harness import adk

    _require_run_async_params(Runner, "invocation_id", *(["state_delta"] if retry_delta else []))
    if resumable:
        try:
            from google.adk.apps import App, ResumabilityConfig
        except ImportError as exc:
            raise NotApplicable(f"no resumable apps in this release: {exc}") from exc
        root = App(name=APP, root_agent=_echo_agent(), resumability_config=ResumabilityConfig(is_resumable=True))
    else:
        root = _echo_agent()
    conversation = await adk.start(root, app_name=APP, user_id=USER)

    first_id = await _deliver(conversation, FIRST_TEXT, None if resumable else TASK_ID)
    retry_id = first_id if resumable else TASK_ID
    await _deliver(conversation, retry_text, retry_id, retry_delta)

    session = await conversation.session()
    if not resumable and not any(e.invocation_id == TASK_ID for e in session.events):
        # 1.x releases accept the parameter but give a non-resumable app's invocation a
        # fresh id (google/adk/runners.py, run_async): path 2 does not exist there.
        raise NotApplicable(
            "Runner.run_async ignores the caller's invocation_id on a non-resumable app: "
            f"{len({e.invocation_id for e in session.events})} invocations recorded, none with {TASK_ID!r}"
        )
    ids = Placeholders()
    ids.keep(TASK_ID)
    user_turns = [
        ("".join(p.text or "" for p in e.content.parts), dict(e.actions.state_delta or {}))
        for e in session.events
        if e.author == "user" and e.invocation_id == retry_id and e.content
    ]
    return Observation(
        timeline=[*adk.session_timeline(session.events, ids), adk.state_line(session.state, RETRY_DELTA)],
        facts={
            "invocation": ids("inv", retry_id),
            "user_turns": user_turns,
            "state": {k: session.state.get(k) for k in RETRY_DELTA},
        },
    )


def judge_duplicate(obs: Observation):
    """The documented bug: the same message under the same id is recorded more than once."""
    n, inv = len(obs.facts["user_turns"]), obs.facts["invocation"]
    figures = f"{n} user event{'s' if n != 1 else ''} for {inv}, expected 1"
    if n == 1:
        return fixed(figures)
    if n == 2:
        return reproduced(figures)
    return unexpected(figures + " (neither the duplicate nor the single event)")


def judge_state_delta_kept(obs: Observation):
    """Non-regression: a retry carrying a new state_delta still has an effect to persist."""
    n, inv = len(obs.facts["user_turns"]), obs.facts["invocation"]
    persisted = obs.facts["state"] == RETRY_DELTA
    kept = "persisted" if persisted else "dropped"
    figures = f"{n} user event{'s' if n != 1 else ''} for {inv}; retry's state_delta {kept}"
    if persisted and n <= 2:
        return fixed(figures)
    if not persisted and n == 1:
        return reproduced(figures + " (the guard dropped a delta left to persist)")
    return unexpected(figures)


def judge_different_message_kept(obs: Observation):
    """Non-regression: the guard is scoped to identical content, so new text is recorded."""
    texts = [t for t, _ in obs.facts["user_turns"]]
    inv = obs.facts["invocation"]
    if texts == [FIRST_TEXT, RETRY_TEXT]:
        return fixed(f"both messages recorded for {inv}: {texts}")
    if texts == [FIRST_TEXT]:
        return reproduced(f"the retry's different message was dropped: {texts} for {inv}, expected 2 messages")
    return unexpected(f"user events for {inv}: {texts}, expected [{FIRST_TEXT!r}, {RETRY_TEXT!r}]")


# --- builds used to prove the oracles (tests only) -------------------------------------------
# ``reproduced`` of the first two cases: google-adk 2.8.0, a real release with the bug (2.9.0
# added the invocation-only guard to google/adk/runners.py `_handle_new_message`, found by
# diffing the installed 2.8.0 and 2.9.2 sources). ``fixed``: the seed PR's guard, installed in
# the pinned release's `_handle_new_message` (private Runner internals), as no release has it.


def _handle_new_message_with(guard):
    """A ``Runner._handle_new_message`` whose duplicate check is ``guard``."""

    async def _handle_new_message(self, *, new_message, invocation_context, run_config, state_delta):
        is_function_response = bool(new_message.parts and any(p.function_response for p in new_message.parts))
        modified = await invocation_context.plugin_manager.run_on_user_message_callback(
            invocation_context=invocation_context, user_message=new_message
        )
        if modified is not None:
            new_message = modified
            invocation_context.user_content = new_message
        # The seed PR compares the post-callback content: what actually gets persisted.
        if not is_function_response and guard(invocation_context, new_message, state_delta):
            return
        await self._append_new_message_to_session(
            session=invocation_context.session,
            new_message=new_message,
            invocation_context=invocation_context,
            state_delta=state_delta,
        )

    return _handle_new_message


def _invocation_has_user_event(invocation_context, new_message, state_delta) -> bool:
    """The seed PR's predicate: same invocation, same content, same state_delta."""
    return any(
        e.author == "user"
        and e.invocation_id == invocation_context.invocation_id
        and e.content == new_message
        and (e.actions.state_delta or {}) == (state_delta or {})
        for e in invocation_context.session.events
    )


@contextlib.contextmanager
def _patched_handle_new_message(guard):
    from google.adk.runners import Runner

    original = Runner._handle_new_message
    Runner._handle_new_message = _handle_new_message_with(guard)
    try:
        yield
    finally:
        Runner._handle_new_message = original


UNGUARDED_RELEASE = Release(
    "google-adk==2.8.0",
    "the last release before 2.9.0's invocation guard (Runner._find_user_message_for_invocation): "
    "every delivery is appended",
)
SEED_GUARD = InProcess(
    "the seed PR's guard (#6685): skip only an identical message with an identical state_delta",
    lambda: _patched_handle_new_message(_invocation_has_user_event),
)
INVOCATION_ONLY_GUARD = AsInstalled("the pinned release skips any message for an invocation that already has one")

# --- edges: observations no build makes, one step across an oracle's line (nox -s mutants) ----


def _delta_not_persisted(obs: Observation) -> None:
    obs.facts["state"] = dict.fromkeys(RETRY_DELTA)


def _retry_recorded_twice(obs: Observation) -> None:
    obs.facts["user_turns"].append(obs.facts["user_turns"][-1])


SCENARIO = Scenario(
    id="adk-retry-same-invocation-id",
    framework="google-adk",
    links=(
        "https://github.com/google/adk-python/issues/4506",
        "https://github.com/google/adk-python/pull/6685",
        "https://github.com/google/adk-python/pull/4526",
    ),
    description=(
        "Calling run_async again with the same invocation_id and the same new_message "
        "(a resume, or a task queue's retry) records the user turn twice."
    ),
    expected=(
        "The user turn is recorded once; a retry carrying a new state_delta or different text is still recorded."
    ),
    cases=(
        Case(
            "resumable-resume",
            partial(replay, resumable=True),
            judge_duplicate,
            {"reproduced": UNGUARDED_RELEASE, "fixed": SEED_GUARD},
            "resumable App: run, then run_async again with the same invocation_id and message",
        ),
        Case(
            "non-resumable-retry",
            partial(replay, resumable=False),
            judge_duplicate,
            {"reproduced": UNGUARDED_RELEASE, "fixed": SEED_GUARD},
            "plain app: run_async twice with the caller's invocation_id and the same message",
        ),
        Case(
            "retry-new-state-delta",
            partial(replay, resumable=False, retry_delta=RETRY_DELTA),
            judge_state_delta_kept,
            {"reproduced": INVOCATION_ONLY_GUARD, "fixed": SEED_GUARD},
            "the retry carries a state_delta: it must be persisted",
            edges=(
                Edge(
                    "unexpected",
                    "the retry is recorded but its state_delta is not persisted",
                    _delta_not_persisted,
                    SEED_GUARD,
                ),
                Edge("unexpected", "three user events: the retry recorded twice", _retry_recorded_twice, SEED_GUARD),
            ),
        ),
        Case(
            "retry-different-message",
            partial(replay, resumable=False, retry_text=RETRY_TEXT),
            judge_different_message_kept,
            {"reproduced": INVOCATION_ONLY_GUARD, "fixed": SEED_GUARD},
            "the retry carries different text under the same id: it must be recorded",
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
