"""adk-output-key-before-agent-callback: what the harness needs beside repro.py.

The claim: the thread shows the issue (#4837) still open and PR #4838 closed.
"""

import contextlib

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess, Release


@contextlib.contextmanager
def _replacing_state_delta():
    """A fix that goes too far: the callback event's state_delta becomes output_key alone."""
    from google.adk.agents import LlmAgent

    override = LlmAgent.__dict__["_handle_before_agent_callback"]

    async def _handle_before_agent_callback(self, ctx):
        event = await override(self, ctx)
        if event is not None and "result" in event.actions.state_delta:
            event.actions.state_delta = {"result": event.actions.state_delta["result"]}
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

# Observations no build makes, one step across the judge's line (nox -s mutants).
MODEL_CALLED = Edge(
    "unexpected",
    "the callback's answer is shown, but the model was called as well",
    lambda obs: obs.facts.update(model_calls=1),
    FIX_INSTALLED,
)
STALE_OUTPUT = Edge(
    "unexpected",
    "output_key holds a text the callback never gave",
    lambda obs: obs.facts["state"].update(result="a stale answer"),
    FIX_INSTALLED,
)

BUG = Bug(
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
    claims=Claim(
        pr="#4838",
        pr_state="closed",
        still_open=True,
        quote="Override `_handle_before_agent_callback` in `LlmAgent` to call `__maybe_save_output_to_state()`",
        source="PR #4838 thread (Closes: #4837) shown closed, no merge shown; issue #4837 shown open",
    ),
    cases={
        "callback-content": CaseRole(
            "before_agent_callback returns Content('cached answer'); output_key='result'",
            reproduced=LAST_WITHOUT_FIX, fixed=FIX_INSTALLED, edges=(MODEL_CALLED,),
        ),
        "callback-state-and-content": CaseRole(
            "the callback also sets state['cache_hit']: both keys must land",
            reproduced=OVERWRITING_FIX, fixed=FIX_INSTALLED, edges=(STALE_OUTPUT,),
        ),
        "model-output": CaseRole(
            "control: the callback returns None and the model answers; output_key holds its text",
            reproduced=OUTPUT_NEVER_SAVED, fixed=FIX_INSTALLED, control=True,
        ),
    },
)  # fmt: skip
