"""google-adk: retrying ``run_async`` with the same invocation_id records the user turn twice.

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

from harness.runtime.outcomes import fixed, reproduced, unexpected
from harness.runtime.scenario import AsInstalled, Case, Edge, InProcess, NotApplicable, Observation, Release, Scenario
from harness.runtime.timeline import Placeholders

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

    from harness.runtime.fakes import adk

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
            non_regression=True,
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
            non_regression=True,
        ),
    ),
)
