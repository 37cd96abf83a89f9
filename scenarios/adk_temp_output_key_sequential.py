"""google-adk: ``output_key="temp:..."`` inside a SequentialAgent is lost before anyone reads it.

Symptom (#4564, reported against 1.24.1): a ``SequentialAgent`` runs a writer ``LlmAgent`` with
``output_key="temp:draft"`` and then a reviewer. A ``temp:`` key is documented to live for the
whole invocation and never be persisted, so the reviewer (its callbacks, its ``{temp:draft}``
instruction template) and the writer's own ``after_agent_callback`` (#3047) should read the
draft. They read nothing: ``BaseSessionService.append_event`` strips ``temp:`` keys from the
event's ``state_delta`` (``_trim_temp_delta_state``) before applying the delta to the session,
and ``_update_session_state`` skipped them too, so the value never reaches ``session.state``.
A ``{temp:draft}`` template then raises ``KeyError: Context variable not found``. PR #4618 (and
PR #4501, for #3047/#3399) adds ``_apply_temp_state``: temp keys are written to the
invocation's in-memory session before the delta is trimmed.

Cases: ``next-agent-reads`` (the reviewer's ``before_agent_callback`` reads
``state["temp:draft"]``), ``next-agent-instruction`` (the reviewer's instruction is
``"Review this draft: {temp:draft}"``: its model must be asked with the draft filled in;
``reproduced`` is the template's KeyError, the reviewer never called) and
``after-callback-reads`` (the writer's own ``after_agent_callback``, #3047). ``not-persisted``
is a control: after the run the stored session (``get_session``) has no ``temp:draft`` in its
state, on every release.

Timeline: the session's events as stored (``state_delta`` shown), what each callback read, the
reviewer's system instruction (or the error the run ended with), the stored state, the model
calls.

What the harness found (bisect over every final release from 1.0.0): the three cases reproduce
on 1.0.0 through 1.26.0 (the reporter's 1.24.1 included) and are fixed from 1.27.1 (1.27.0,
yanked, is not bisected; its source has the fix too) and on every 2.x release, 2.0.0 through
2.13.0. The source diff of ``sessions/base_session_service.py`` between 1.26.0 and 1.27.1 is
exactly ``_apply_temp_state`` (called before ``_trim_temp_delta_state``) and the removal of the
``temp:`` skip in ``_update_session_state``: PR #4618's change as written. On 1.1.1 the stored
events still carry ``temp:draft`` in their ``state_delta`` (trimming came later); the stored
state never holds it on any release, so the control holds throughout. The short scripts in
``scenarios/repro/`` agree with every case on 1.1.1, 1.24.0, 1.26.0, 1.27.1 and 2.13.0. Thread
state: #4564 and #3047 are still open, PR #4618 and PR #4501 closed.
"""

from __future__ import annotations

import contextlib
from functools import partial

from harness.runtime.outcomes import fixed, reproduced, unexpected
from harness.runtime.scenario import AsInstalled, Case, Edge, InProcess, Observation, Release, Scenario
from harness.runtime.timeline import Placeholders, quote

KEY = "temp:draft"
DRAFT = "Draft: ship on Friday."
VERDICT_TEXT = "Looks good."
QUESTION = "Write the release note."
PLAIN_INSTRUCTION = "Review the draft."
TEMPLATE = "Review this draft: {temp:draft}"
FILLED = f"Review this draft: {DRAFT}"
MISSING = "<missing>"


async def replay(*, template: bool) -> Observation:
    """A SequentialAgent [writer (output_key temp:draft), reviewer]; one invocation."""
    from google.adk.agents import LlmAgent, SequentialAgent

    from harness.runtime.fakes import adk

    seen: dict[str, str] = {}

    def after_writer(callback_context):
        seen["writer after_agent_callback"] = callback_context.state.get(KEY, MISSING)

    def before_reviewer(callback_context):
        seen["reviewer before_agent_callback"] = callback_context.state.get(KEY, MISSING)

    instructions: list[str] = []

    def before_model(callback_context, llm_request):
        config = llm_request.config
        si = config.system_instruction if config is not None else None
        instructions.append(si if isinstance(si, str) else str(si))

    writer_llm = adk.ScriptedLlm(model="scripted-writer", script=[adk.text(DRAFT)])
    reviewer_llm = adk.ScriptedLlm(model="scripted-reviewer", script=[adk.text(VERDICT_TEXT)])
    writer = LlmAgent(
        name="writer",
        model=writer_llm,
        instruction="Write a draft.",
        output_key=KEY,
        after_agent_callback=after_writer,
    )
    reviewer = LlmAgent(
        name="reviewer",
        model=reviewer_llm,
        instruction=TEMPLATE if template else PLAIN_INSTRUCTION,
        before_agent_callback=before_reviewer,
        before_model_callback=before_model,
    )
    pipeline = SequentialAgent(name="pipeline", sub_agents=[writer, reviewer])
    conversation = await adk.start(pipeline)
    error = None
    try:
        await conversation.send(QUESTION)
    except KeyError as exc:  # the {temp:draft} template with nothing under the key
        error = f"KeyError: {exc.args[0] if exc.args else exc}"
    session = await conversation.session()
    ids = Placeholders()
    state = dict(session.state)
    reviewer_instruction = instructions[0].split("\n\n")[0] if instructions else None
    timeline = [
        *adk.session_timeline(session.events, ids),
        *(f"{who} read state[{KEY!r}] = {quote(value)}" for who, value in sorted(seen.items())),
        f"reviewer's system instruction: {quote(reviewer_instruction) if reviewer_instruction else '<not called>'}",
        *([f"run ended with {error}"] if error else []),
        f"stored {adk.state_line(state)}",
        f"model calls: writer {len(writer_llm.requests)}, reviewer {len(reviewer_llm.requests)}",
    ]
    return Observation(
        timeline=timeline,
        facts={
            "seen": seen,
            "reviewer_instruction": reviewer_instruction,
            "error": error,
            "stored_state": state,
            "writer_calls": len(writer_llm.requests),
            "reviewer_calls": len(reviewer_llm.requests),
        },
    )


def _wrote(obs: Observation):
    """None when the writer ran once and produced its draft, else why not."""
    if obs.facts["writer_calls"] != 1:
        return f"the writer's model was called {obs.facts['writer_calls']} times, expected 1"
    return None


def _judge_read(obs: Observation, who: str):
    if (why := _wrote(obs)) is not None:
        return unexpected(why)
    if obs.facts["error"] is not None:
        return unexpected(f"the run ended with {obs.facts['error']}")
    if who not in obs.facts["seen"]:
        return unexpected(f"the {who} never ran")
    value = obs.facts["seen"][who]
    if value == DRAFT:
        return fixed(f"the {who} read state[{KEY!r}] = {DRAFT!r}")
    if value == MISSING:
        return reproduced(f"the {who} read nothing under {KEY!r}; the writer's draft was {DRAFT!r}")
    return unexpected(f"the {who} read state[{KEY!r}] = {value!r}, expected {DRAFT!r}")


def judge_next_agent(obs: Observation):
    """The reviewer's before_agent_callback sees the writer's temp: output."""
    return _judge_read(obs, "reviewer before_agent_callback")


def judge_after_callback(obs: Observation):
    """The writer's own after_agent_callback sees its temp: output (#3047)."""
    return _judge_read(obs, "writer after_agent_callback")


def judge_instruction(obs: Observation):
    """The reviewer's {temp:draft} template is filled with the draft."""
    if (why := _wrote(obs)) is not None:
        return unexpected(why)
    error, got, calls = obs.facts["error"], obs.facts["reviewer_instruction"], obs.facts["reviewer_calls"]
    if error is None and calls == 1 and got == FILLED:
        return fixed(f"the reviewer was asked with {got!r}")
    if error is not None and "temp:draft" in error and calls == 0:
        return reproduced(f"the run ended with {error} before the reviewer's model was called")
    return unexpected(f"reviewer called {calls} times with {got!r}; error {error!r}")


def judge_not_persisted(obs: Observation):
    """Control: the stored session state holds no temp: key after the run."""
    if (why := _wrote(obs)) is not None:
        return unexpected(why)
    stored = obs.facts["stored_state"]
    temp_keys = sorted(k for k in stored if k.startswith("temp:"))
    if not temp_keys:
        return fixed(f"the stored session state has no temp: key ({len(stored)} keys)")
    if temp_keys == [KEY]:
        return reproduced(f"the stored session state holds {KEY!r} = {stored[KEY]!r}")
    return unexpected(f"the stored session state holds {temp_keys}")


# --- builds used to prove the oracles (tests only) ----------------------------------------


@contextlib.contextmanager
def _temp_persisted():
    """Break the control: InMemorySessionService also writes temp: keys into the stored state."""
    from google.adk.sessions import InMemorySessionService

    original = InMemorySessionService.__dict__["append_event"]

    async def append_event(self, session, event):
        delta = (event.actions.state_delta if event.actions else None) or {}
        temp = {k: v for k, v in delta.items() if k.startswith("temp:")}
        result = await original(self, session=session, event=event)
        if temp and not event.partial:
            self.sessions[session.app_name][session.user_id][session.id].state.update(temp)
        return result

    InMemorySessionService.append_event = append_event  # type: ignore[method-assign]
    try:
        yield
    finally:
        InMemorySessionService.append_event = original  # type: ignore[method-assign]


FIX_INSTALLED = AsInstalled("the pinned release: BaseSessionService applies temp: keys before trimming them")
LAST_WITH_BUG = Release(
    "google-adk==1.26.0", "the last release before _apply_temp_state (first in 1.27.1; every 2.x release has it)"
)
TEMP_PERSISTED = InProcess(
    "InMemorySessionService.append_event also writes the event's temp: keys into the stored session state",
    _temp_persisted,
)

# --- edges: observations no build makes, one step across an oracle's line (nox -s mutants) ----


def _writer_called_twice(obs: Observation) -> None:
    obs.facts["writer_calls"] = 2


def _stale_value(obs: Observation) -> None:
    for who in obs.facts["seen"]:
        obs.facts["seen"][who] = "an older draft"


def _crashed(obs: Observation) -> None:
    obs.facts["error"] = "KeyError: 'Context variable not found: `temp:draft`.'"


def _other_temp_key(obs: Observation) -> None:
    obs.facts["stored_state"]["temp:other"] = 1


def _called_unfilled(obs: Observation) -> None:
    obs.facts["reviewer_instruction"] = "Review this draft: "


SCENARIO = Scenario(
    id="adk-temp-output-key-sequential",
    framework="google-adk",
    links=(
        "https://github.com/google/adk-python/issues/4564",
        "https://github.com/google/adk-python/pull/4618",
        "https://github.com/google/adk-python/issues/3047",
        "https://github.com/google/adk-python/pull/4501",
    ),
    description=(
        "An LlmAgent with output_key='temp:draft' inside a SequentialAgent: neither the next agent nor the "
        "writer's own after_agent_callback reads anything under that key within the same invocation."
    ),
    expected=(
        "A temp: key lives for the whole invocation (the next agent, its {temp:draft} template and the "
        "writer's after_agent_callback read the draft) and is never persisted in the stored session state."
    ),
    cases=(
        Case(
            "next-agent-reads",
            partial(replay, template=False),
            judge_next_agent,
            {"reproduced": LAST_WITH_BUG, "fixed": FIX_INSTALLED},
            "the reviewer's before_agent_callback reads state['temp:draft'] after the writer",
            edges=(
                Edge("unexpected", "the reviewer read a value the writer never wrote", _stale_value),
                Edge("unexpected", "the writer's model was called twice", _writer_called_twice),
                Edge("unexpected", "the run ended with an error", _crashed),
            ),
        ),
        Case(
            "next-agent-instruction",
            partial(replay, template=True),
            judge_instruction,
            {"reproduced": LAST_WITH_BUG, "fixed": FIX_INSTALLED},
            "the reviewer's instruction is 'Review this draft: {temp:draft}'",
            edges=(
                Edge("unexpected", "the reviewer was asked with the template left empty", _called_unfilled),
                Edge("unexpected", "the writer's model was called twice", _writer_called_twice),
            ),
        ),
        Case(
            "after-callback-reads",
            partial(replay, template=False),
            judge_after_callback,
            {"reproduced": LAST_WITH_BUG, "fixed": FIX_INSTALLED},
            "the writer's own after_agent_callback reads state['temp:draft'] (#3047)",
            edges=(Edge("unexpected", "the callback read a value the writer never wrote", _stale_value),),
        ),
        Case(
            "not-persisted",
            partial(replay, template=False),
            judge_not_persisted,
            {"reproduced": TEMP_PERSISTED, "fixed": FIX_INSTALLED},
            "control: after the run the stored session state has no temp:draft",
            control=True,
            edges=(
                Edge("unexpected", "the stored state holds another temp: key", _other_temp_key, TEMP_PERSISTED),
                Edge("unexpected", "the writer's model was called twice", _writer_called_twice),
            ),
        ),
    ),
)
