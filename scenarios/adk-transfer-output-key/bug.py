"""adk-transfer-output-key: what the harness needs beside repro.py (the bug itself is there)."""

import contextlib
from collections.abc import Iterator

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess, Release

# Private: LlmAgent.__maybe_save_output_to_state and (2.x) __maybe_accumulate_streaming_output, which both write
# output_key into the event's state_delta.
NO_SAVE = {
    "_LlmAgent__maybe_save_output_to_state": lambda self, event: None,
    "_LlmAgent__maybe_accumulate_streaming_output": lambda self, event, accumulator: accumulator,
}


@contextlib.contextmanager
def _output_never_saved() -> Iterator[None]:
    """Break the control: no agent's output_key is ever written."""
    from google.adk.agents import LlmAgent

    originals = {name: LlmAgent.__dict__[name] for name in NO_SAVE if name in LlmAgent.__dict__}
    for name in originals:
        setattr(LlmAgent, name, NO_SAVE[name])
    try:
        yield
    finally:
        for name, original in originals.items():
            setattr(LlmAgent, name, original)


@contextlib.contextmanager
def _every_key_takes_the_last_reply() -> Iterator[None]:
    """A fix that goes too far: every output_key of the tree takes the turn's last final text, whichever
    agent wrote it (the thread's words taken literally), written by the session service."""
    from google.adk.agents import LlmAgent
    from google.adk.sessions import InMemorySessionService

    keys: list[str] = []
    init, append = LlmAgent.__init__, InMemorySessionService.__dict__["append_event"]

    def __init__(self, *args, **kwargs):
        init(self, *args, **kwargs)
        if self.output_key:
            keys.append(self.output_key)

    async def append_event(self, session, event):
        if not event.partial and event.is_final_response() and event.content and event.content.parts:
            text = "".join(p.text for p in event.content.parts if p.text and not p.thought)
            if text:
                event.actions.state_delta.update(dict.fromkeys(keys, text))
        return await append(self, session=session, event=event)

    LlmAgent.__init__ = __init__  # type: ignore[method-assign]
    InMemorySessionService.append_event = append_event  # type: ignore[method-assign]
    try:
        yield
    finally:
        LlmAgent.__init__ = init  # type: ignore[method-assign]
        InMemorySessionService.append_event = append  # type: ignore[method-assign]


REPORTED = Release("google-adk==1.19.0", "#3758's release (current on 2025-11-29): the root's key stays empty")
BEFORE_CHECK = Release(
    "google-adk==1.5.0", "the last release whose __maybe_save_output_to_state saves events of any author"
)
PINNED = AsInstalled("the pinned release (2.13.0): an agent's output_key takes its own final reply")
NEVER_SAVED = InProcess("output_key broken in process: no agent's output is ever saved", _output_never_saved)
TOO_FAR = InProcess(
    "a fix that goes too far, in process: every output_key takes the turn's last final text, whoever wrote it",
    _every_key_takes_the_last_reply,
)


def _calls(**calls):
    return lambda obs: obs.facts["calls"].update(calls)


BUG = Bug(
    links=(
        "https://github.com/google/adk-python/issues/3758",
        "https://google.github.io/adk-docs/tutorials/agent-team/#step-4-adding-memory-and-personalization-with-session-state",
        "https://github.com/google/adk-docs/issues/1820",
        "https://github.com/google/adk-docs/pull/1878",
    ),
    description=(
        "A root LlmAgent with output_key that transfers to a sub-agent does not save the sub-agent's reply "
        "under its key: __maybe_save_output_to_state skips every event another agent authored."
    ),
    expected=(
        "As the agent-team tutorial said: output_key saves the final textual response of the turn, the "
        "delegated sub-agent's included, so state['last_reply'] holds the greeter's reply."
    ),
    claims=Claim(
        still_open=True,
        source="#3758 open (reported on 1.19.0), no fix PR; adk-docs PR #1878 (merged, fixes adk-docs #1820) "
        "rewrote the tutorial instead: 'In ADK v1.33.0+ and v2.x, output_key only captures the root agent's own "
        "direct responses'",
        quote="Only responses directly from the root agent are saved to state[output_key]",
    ),
    range_notes=(
        "Measured: the root's key held the delegated reply up to 1.5.0 (the behaviour #3758 expects) and "
        "stays empty from 1.6.1 on, where __maybe_save_output_to_state gained `if event.author != self.name: "
        "return` ('skip if the event was authored by some other agent (e.g. current agent transferred to "
        "another agent)'): a deliberate change, not a slip. The docs' 'v1.33.0+' is the docs PR's wording; "
        "the measured change is 1.6.1.",
    ),
    cases={
        "transferred": CaseRole(
            "root (output_key 'last_reply') transfers to greeter, which answers: state['last_reply'] (#3758)",
            reproduced=REPORTED, fixed=BEFORE_CHECK,
            edges=(
                Edge("unexpected", "the root's key holds another text", lambda obs: obs.facts["state"].update(
                    last_reply="(called again)"), BEFORE_CHECK),
                Edge("unexpected", "greeter's model was called twice", _calls(greeter=2), BEFORE_CHECK),
            ),
        ),
        "root-replies": CaseRole(
            "control: the root answers itself: state['last_reply'] holds its reply",
            reproduced=NEVER_SAVED, fixed=PINNED, control=True,
            edges=(Edge("unexpected", "greeter's model was called", _calls(greeter=1)),),
        ),
        "sequential-sibling": CaseRole(
            "non-regression: SequentialAgent [writer (output_key 'draft'), reviewer]: state['draft'] keeps the "
            "writer's reply, not the reviewer's",
            reproduced=TOO_FAR, fixed=PINNED, non_regression=True,
            edges=(Edge("unexpected", "the draft holds a third text",
                        lambda obs: obs.facts["state"].update(draft="(called again)")),
                   Edge("unexpected", "the draft was never saved", lambda obs: obs.facts["state"].pop("draft"))),
        ),
    },
)  # fmt: skip
