"""adk-temp-output-key-sequential: what the harness needs beside repro.py."""

import contextlib

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess, Release


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


# Observations no build makes, one step across the judge's lines (nox -s mutants).
def _stale_value(obs):
    obs.facts["seen"] = dict.fromkeys(obs.facts["seen"], "an older draft")


WRITER_TWICE = Edge("unexpected", "the writer's model was called twice", lambda obs: obs.facts.update(writer_calls=2))

BUG = Bug(
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
    claims=Claim(
        pr="#4618",
        pr_state="closed",
        still_open=True,
        source="the threads: #4564 and #3047 open, PR #4618 and PR #4501 closed",
    ),
    cases={
        "next-agent-reads": CaseRole(
            "the reviewer's before_agent_callback reads state['temp:draft'] after the writer",
            reproduced=LAST_WITH_BUG, fixed=FIX_INSTALLED,
            edges=(Edge("unexpected", "the reviewer read a value the writer never wrote", _stale_value), WRITER_TWICE,
                   Edge("unexpected", "the run ended with an error",
                        lambda obs: obs.facts.update(error="KeyError: 'Context variable not found: `temp:draft`.'"))),
        ),
        "next-agent-instruction": CaseRole(
            "the reviewer's instruction is 'Review this draft: {temp:draft}'",
            reproduced=LAST_WITH_BUG, fixed=FIX_INSTALLED,
            edges=(Edge("unexpected", "the reviewer was asked with the template left empty",
                        lambda obs: obs.facts.update(reviewer_instruction="Review this draft: ")), WRITER_TWICE),
        ),
        "after-callback-reads": CaseRole(
            "the writer's own after_agent_callback reads state['temp:draft'] (#3047)",
            reproduced=LAST_WITH_BUG, fixed=FIX_INSTALLED,
            edges=(Edge("unexpected", "the callback read a value the writer never wrote", _stale_value),),
        ),
        "not-persisted": CaseRole(
            "control: after the run the stored session state has no temp:draft",
            reproduced=TEMP_PERSISTED, fixed=FIX_INSTALLED, control=True,
            edges=(Edge("unexpected", "the stored state holds another temp: key",
                        lambda obs: obs.facts["stored_state"].update({"temp:other": 1}), TEMP_PERSISTED), WRITER_TWICE),
        ),
    },
)  # fmt: skip
