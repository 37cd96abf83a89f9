"""adk-callback-state-event-final: what the harness needs beside repro.py."""

import contextlib

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess


@contextlib.contextmanager
def _patched_is_final_response(too_broad):
    """PR #7095's rule in Event.is_final_response (no content, no structured output, a non-empty
    state_delta: not final), or (too_broad) a fix that goes too far: no event with a state_delta is final."""
    from google.adk.events import Event

    original = Event.__dict__["is_final_response"]

    def is_final_response(self):
        state_only = self.actions is not None and self.actions.state_delta
        if not too_broad:
            state_only = state_only and self.content is None and getattr(self, "output", None) is None
        return False if state_only else original(self)

    Event.is_final_response = is_final_response
    try:
        yield
    finally:
        Event.is_final_response = original


BUG_INSTALLED = AsInstalled("the pinned release, unpatched: a state-only callback event is a final response")
PR_7095 = InProcess(
    "PR #7095 applied in process: an event with no content or output and a non-empty state_delta is not final",
    lambda: _patched_is_final_response(too_broad=False),
)
TOO_BROAD_FIX = InProcess(
    "a fix that goes too far, in process: no event that carries a state_delta is final",
    lambda: _patched_is_final_response(too_broad=True),
)
ANSWER_STAYS_FINAL = AsInstalled("the pinned release, unpatched: an event with content is final")


def _set_on_yielded(update, where=lambda event: True):
    """An edge's alter: ``update`` applied to each yielded event ``where`` says."""

    def alter(obs):
        for event in obs.facts["yielded"]:
            if where(event):
                event.update(update)

    return alter


# Observations no build makes, one step across a line of the judge (nox -s mutants).
EDGES = (
    Edge(
        "unexpected",
        "the answer is the only final response, but the callback's state write is lost",
        lambda obs: obs.facts.update(state={}),
        PR_7095,
    ),
    Edge(
        "unexpected",
        "no event is a final response, the answer included",
        _set_on_yielded({"final": False}),
        BUG_INSTALLED,
    ),
    Edge(
        "unexpected",
        "the extra final event has no content and no state_delta either: not the bug's event",
        _set_on_yielded({"delta": {}}, lambda event: event["final"] and not event["text"]),
        BUG_INSTALLED,
    ),
)

BUG = Bug(
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
    claims=Claim(
        pr="#7095", pr_state="open", still_open=True, source="repro.py docstring: 'The fix proposed in PR #7095 (open)'"
    ),
    cases={
        "before-agent-state": CaseRole(
            "before_agent_callback sets state['my_state'] and returns None",
            reproduced=BUG_INSTALLED, fixed=PR_7095, edges=EDGES,
        ),
        "after-agent-state": CaseRole(
            "after_agent_callback sets state['my_state'] and returns None", reproduced=BUG_INSTALLED, fixed=PR_7095
        ),
        "plugin-before-agent-state": CaseRole(
            "a plugin's before_agent_callback sets state['my_state']", reproduced=BUG_INSTALLED, fixed=PR_7095
        ),
        "callback-answer-with-state": CaseRole(
            "control: before_agent_callback sets state and answers itself; its answer stays final",
            reproduced=TOO_BROAD_FIX, fixed=ANSWER_STAYS_FINAL, control=True,
        ),
    },
)  # fmt: skip
