"""google-adk: an agent callback that only writes state yields an empty event marked as final.

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

from harness.runtime.outcomes import fixed, reproduced, unexpected
from harness.runtime.scenario import AsInstalled, Case, Edge, InProcess, NotApplicable, Observation, Scenario
from harness.runtime.timeline import Placeholders

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
    from google.adk.agents import LlmAgent

    from harness.runtime.fakes import adk
    from harness.runtime.fakes.coroutines import unawaited_coroutines

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
    if plugin:  # Runner(plugins=[...]); not applicable on a release whose Runner takes none
        adk.require_plugins()
    conversation = await adk.start(agent, app_name=APP, user_id=USER, plugins=[_state_plugin()] if plugin else None)

    ids = Placeholders()
    lines, yielded = [], []
    # A callback the runner called and never awaited would leave the state unwritten silently.
    with unawaited_coroutines() as unawaited:
        async for event in conversation.stream(QUESTION):
            final = event.is_final_response()
            parts = event.content.parts if event.content else None
            text = "".join(p.text or "" for p in parts) if parts else None
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
        facts={"yielded": yielded, "loop_text": loop_text, "state": dict(session.state), "unawaited": unawaited},
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
    if obs.facts["unawaited"]:
        return finals, empty, figures, unexpected(figures + "; " + "; ".join(obs.facts["unawaited"]))
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
