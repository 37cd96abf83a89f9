"""google-adk: an LlmAgent's ``output_key`` is not written when ``before_agent_callback`` answers.

Symptom (#4837): an ``LlmAgent`` with ``output_key="result"`` and a ``before_agent_callback``
that returns ``types.Content`` (a cache hit, say) short-circuits the agent: the user sees the
callback's text as the agent's answer, but ``session.state["result"]`` is never written, so a
later agent, tool or ``{result}`` instruction template reads a stale or missing value. The
normal path writes it: ``LlmAgent`` saves the final text of its model events into
``event.actions.state_delta[output_key]`` (``__maybe_save_output_to_state``, google/adk/agents/
llm_agent.py), but the callback's event is built by ``BaseAgent`` (``_handle_before_agent_callback``,
google/adk/agents/base_agent.py) and never passes through that method. PR #4838 overrides
``_handle_before_agent_callback`` in ``LlmAgent`` to run the callback's event through
``__maybe_save_output_to_state``.

Cases: ``callback-content`` is the thread's reproduction (the callback returns "cached
answer"; ``state["result"]`` must equal it). ``callback-state-and-content`` is a
non-regression variant: the callback also writes a state key of its own, and both that key
and ``output_key`` must land (a fix that replaced the event's ``state_delta`` instead of
adding to it would lose the callback's key: ``reproduced`` there means either key is lost).
``model-output`` is a control: the callback returns ``None``, the scripted model answers, and
``output_key`` must hold its text on every release.

Timeline: the session's events (``[inv-1] author (role) 'text' state_delta={...}``), the
session state after the run, and how many times the model was called (0 when the callback
answers: its model is one that must not be called).

What the harness found (bisect over every final release from 1.0.0): ``callback-content`` and
``callback-state-and-content`` reproduce on 1.0.0 through 2.3.0 and are fixed from 2.4.0, the
first release whose ``LlmAgent`` has the override, with the PR's code as written (the source
diff of llm_agent.py between 2.3.0 and 2.4.0). The fix never reached the 1.x line: 1.x
releases published after 2.4.0 (up to 1.39.1, the last) still reproduce. The thread's own
script (the callback, ``InMemoryRunner``, ``gemini-2.0-flash``, never called) prints
``state: {}`` on 1.39.1 and 2.3.0 and ``{'result': 'cached answer'}`` on 2.4.0 and 2.13.0.
The report was made against 1.27.1 (the release current on 2026-03-14). The thread shows the
issue still open and the PR closed, yet 2.4.0 carries the PR's change as written; how it
landed is not visible in the thread. The control ``model-output`` holds on every release.
"""

from __future__ import annotations

import contextlib
from functools import partial

from harness.runtime.outcomes import fixed, reproduced, unexpected
from harness.runtime.scenario import AsInstalled, Case, Edge, InProcess, Observation, Release, Scenario
from harness.runtime.timeline import Placeholders

APP = "test"  # the thread's app and user
USER = "user1"
AGENT = "my_agent"
OUTPUT_KEY = "result"
CACHED = "cached answer"  # the thread's callback text
FRESH = "fresh answer from the model"
CALLBACK_KEY = "cache_hit"  # what the non-regression callback writes itself
QUESTION = "What is the answer?"


def _callback(*, answer: bool, write_state: bool):
    """A ``before_agent_callback``: optionally writes state, optionally answers for the agent."""
    from google.genai import types

    def cache_callback(callback_context):
        if write_state:
            callback_context.state[CALLBACK_KEY] = True
        if answer:
            # As in the thread: a Content with no role; ADK builds the agent's event from it.
            return types.Content(parts=[types.Part(text=CACHED)])
        return None

    return cache_callback


async def replay(*, answer: bool, write_state: bool = False) -> Observation:
    """Run the thread's agent once; read the session back."""
    from google.adk.agents import LlmAgent

    from harness.runtime.fakes import adk

    # When the callback answers, the model must not be called: UncalledLlm makes a call a
    # figure for the oracle rather than an exhausted script.
    if answer:
        llm = adk.UncalledLlm(model="must-not-be-called")
    else:
        llm = adk.ScriptedLlm(model="scripted", script=[adk.text(FRESH)])
    agent = LlmAgent(
        name=AGENT,
        model=llm,
        instruction="Answer questions.",
        output_key=OUTPUT_KEY,
        before_agent_callback=_callback(answer=answer, write_state=write_state),
    )
    session = await adk.run_agent(agent, QUESTION, app_name=APP, user_id=USER)

    ids = Placeholders()
    state = dict(session.state)
    answers = [
        "".join(p.text or "" for p in e.content.parts)
        for e in session.events
        if e.author == AGENT and e.content and e.content.parts and any(p.text for p in e.content.parts)
    ]
    return Observation(
        timeline=[
            *adk.session_timeline(session.events, ids),
            adk.state_line(state),
            adk.model_calls_line(llm),
        ],
        facts={"state": state, "answers": answers, "model_calls": len(llm.requests)},
    )


def _shown(obs: Observation, expected_answer: str, model_calls: int):
    """None when the user saw ``expected_answer`` from the path the case takes, else why not."""
    answers, calls = obs.facts["answers"], obs.facts["model_calls"]
    if answers != [expected_answer] or calls != model_calls:
        return (
            f"the agent answered {answers} after {calls} model call{'s' if calls != 1 else ''}, "
            f"expected [{expected_answer!r}] after {model_calls}"
        )
    return None


def _output_key(obs: Observation) -> str:
    state = obs.facts["state"]
    return f"state[{OUTPUT_KEY!r}] = {state[OUTPUT_KEY]!r}" if OUTPUT_KEY in state else f"state has no {OUTPUT_KEY!r}"


def judge_callback_answer(obs: Observation):
    """The documented bug: the callback's answer is shown but output_key is not written."""
    if (why := _shown(obs, CACHED, 0)) is not None:
        return unexpected(why)
    value = obs.facts["state"].get(OUTPUT_KEY)
    if value == CACHED:
        return fixed(f"the callback answered {CACHED!r}; {_output_key(obs)}")
    if OUTPUT_KEY not in obs.facts["state"]:
        return reproduced(f"the callback answered {CACHED!r}, but {_output_key(obs)}")
    return unexpected(f"the callback answered {CACHED!r}, but {_output_key(obs)}")


def judge_callback_state_kept(obs: Observation):
    """Non-regression: the callback's own state write lands beside output_key."""
    if (why := _shown(obs, CACHED, 0)) is not None:
        return unexpected(why)
    state = obs.facts["state"]
    own = (
        f"state[{CALLBACK_KEY!r}] = {state[CALLBACK_KEY]!r}"
        if CALLBACK_KEY in state
        else f"state has no {CALLBACK_KEY!r}"
    )
    figures = f"{_output_key(obs)}, {own}"
    if state.get(OUTPUT_KEY) == CACHED and state.get(CALLBACK_KEY) is True:
        return fixed(figures)
    if state.get(OUTPUT_KEY) in (CACHED, None) and state.get(CALLBACK_KEY) in (True, None):
        return reproduced(figures + f"; expected both {OUTPUT_KEY!r} and {CALLBACK_KEY!r}")
    return unexpected(figures)


def judge_model_output(obs: Observation):
    """Control: with no short-circuit, output_key holds the model's final text."""
    if (why := _shown(obs, FRESH, 1)) is not None:
        return unexpected(why)
    value = obs.facts["state"].get(OUTPUT_KEY)
    if value == FRESH:
        return fixed(f"the model answered; {_output_key(obs)}")
    if OUTPUT_KEY not in obs.facts["state"]:
        return reproduced(f"the model answered, but {_output_key(obs)}")
    return unexpected(f"the model answered {FRESH!r}, but {_output_key(obs)}")


# --- builds used to prove the oracles (tests only) ----------------------------------------


@contextlib.contextmanager
def _replacing_state_delta():
    """A fix that goes too far: the callback event's state_delta becomes output_key alone."""
    from google.adk.agents import LlmAgent

    override = LlmAgent.__dict__["_handle_before_agent_callback"]

    async def _handle_before_agent_callback(self, ctx):
        event = await override(self, ctx)
        if event is not None and OUTPUT_KEY in event.actions.state_delta:
            event.actions.state_delta = {OUTPUT_KEY: event.actions.state_delta[OUTPUT_KEY]}
        return event

    LlmAgent._handle_before_agent_callback = _handle_before_agent_callback
    try:
        yield
    finally:
        LlmAgent._handle_before_agent_callback = override


@contextlib.contextmanager
def _output_key_never_saved():
    """Break the control: LlmAgent's output saving does nothing.

    Two private methods write output_key (google/adk/agents/llm_agent.py): the save on final
    events and, from 2.4.0, an accumulator over a streamed turn's text; both are stubbed.
    """
    from google.adk.agents import LlmAgent

    stubs = {
        "_LlmAgent__maybe_save_output_to_state": lambda self, event: None,
        "_LlmAgent__maybe_accumulate_streaming_output": lambda self, event, accumulator: accumulator,
    }
    originals = {name: LlmAgent.__dict__[name] for name in stubs if name in LlmAgent.__dict__}
    for name in originals:
        setattr(LlmAgent, name, stubs[name])
    try:
        yield
    finally:
        for name, original in originals.items():
            setattr(LlmAgent, name, original)


FIX_INSTALLED = AsInstalled(
    "the pinned release, unpatched: LlmAgent overrides _handle_before_agent_callback (PR #4838)"
)
LAST_WITHOUT_FIX = Release(
    "google-adk==2.3.0", "the last release before PR #4838's override (first in 2.4.0; never in 1.x)"
)
OVERWRITING_FIX = InProcess(
    "a fix that replaces the callback event's state_delta with output_key alone", _replacing_state_delta
)
OUTPUT_NEVER_SAVED = InProcess(
    "LlmAgent's output_key writers (__maybe_save_output_to_state and the streamed-text accumulator) stubbed in process",
    _output_key_never_saved,
)

# --- edges: observations no build makes, one step across an oracle's line (nox -s mutants) ----


def _model_called(obs: Observation) -> None:
    obs.facts["model_calls"] = 1


def _stale_output(obs: Observation) -> None:
    obs.facts["state"][OUTPUT_KEY] = "a stale answer"


SCENARIO = Scenario(
    id="adk-output-key-before-agent-callback",
    framework="google-adk",
    links=(
        "https://github.com/google/adk-python/issues/4837",
        "https://github.com/google/adk-python/pull/4838",
    ),
    description=(
        "When an LlmAgent's before_agent_callback returns content, the content is shown as the "
        "agent's answer but the agent's output_key is not written to session state."
    ),
    expected=(
        "session.state[output_key] holds the callback's text, as it holds the model's text on the "
        "normal path; state the callback wrote itself is kept."
    ),
    cases=(
        Case(
            "callback-content",
            partial(replay, answer=True),
            judge_callback_answer,
            {"reproduced": LAST_WITHOUT_FIX, "fixed": FIX_INSTALLED},
            "before_agent_callback returns Content('cached answer'); output_key='result'",
            edges=(
                Edge(
                    "unexpected",
                    "the callback's answer is shown, but the model was called as well",
                    _model_called,
                    FIX_INSTALLED,
                ),
            ),
        ),
        Case(
            "callback-state-and-content",
            partial(replay, answer=True, write_state=True),
            judge_callback_state_kept,
            {"reproduced": OVERWRITING_FIX, "fixed": FIX_INSTALLED},
            "the callback also sets state['cache_hit']: both keys must land",
            edges=(
                Edge("unexpected", "output_key holds a text the callback never gave", _stale_output, FIX_INSTALLED),
            ),
        ),
        Case(
            "model-output",
            partial(replay, answer=False),
            judge_model_output,
            {"reproduced": OUTPUT_NEVER_SAVED, "fixed": FIX_INSTALLED},
            "control: the callback returns None and the model answers; output_key holds its text",
            control=True,
        ),
    ),
)
