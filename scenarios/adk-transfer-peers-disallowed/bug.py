"""adk-transfer-peers-disallowed: what the harness needs beside repro.py."""

import contextlib

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess, Release


@contextlib.contextmanager
def _refuse_every_sibling():
    """A fix that goes too far, in process: every transfer to a sibling is refused, flag or not."""
    from google.adk.agents import LlmAgent

    init = LlmAgent.__init__

    def __init__(self, *args, **kwargs):
        init(self, *args, **kwargs)
        object.__setattr__(self, "disallow_transfer_to_peers", True)

    LlmAgent.__init__ = __init__  # type: ignore[method-assign]  # every agent built in the patch forbids peers
    try:
        yield
    finally:
        LlmAgent.__init__ = init  # type: ignore[method-assign]


LAST_WITHOUT_CHECK = Release("google-adk==2.8.0", "the last 2.x release whose workflow path ignores the flag")
FIRST_WITH_CHECK = Release("google-adk==2.9.0", "the first 2.x release whose transfer resolution reads the flag")
PEERS_STILL_ALLOWED = AsInstalled("the pinned release, unpatched: a sibling transfer without the flag happens")
TOO_BROAD_FIX = InProcess(
    "a fix that goes too far, in process: every agent forbids peer transfers", _refuse_every_sibling
)


# Observations no build makes, one step across the judge's lines (nox -s mutants). The two on the
# sibling case's bug alter the pinned release's refusal into the bug's facts (agent_b ran), one step
# further: a Release edge's worker cannot find a bug folder (harness/mutants/schedule.run_in_release).
def B_TWICE(obs):
    obs.facts["calls"]["agent_b"], obs.facts["ended"] = 2, "completed"


def B_THEN_ERROR(obs):
    obs.facts["calls"]["agent_b"], obs.facts["ended"] = 1, "RuntimeError: after agent_b"


EDGES = (
    Edge("unexpected", "the refusal, but root's model was called twice",
         lambda obs: obs.facts["calls"].update(root=2), AsInstalled()),
    Edge("unexpected", "the refusal, but agent_a's model was called twice",
         lambda obs: obs.facts["calls"].update(agent_a=2), AsInstalled()),
    Edge("unexpected", "the refusal, but agent_a asked to transfer twice",
         lambda obs: obs.facts.update(a_transfers=2), AsInstalled()),
    Edge("unexpected", "the bug, but agent_b's model was called twice", B_TWICE, AsInstalled()),
    Edge("unexpected", "agent_b ran, then the run failed", B_THEN_ERROR, AsInstalled()),
)  # fmt: skip
CONTROL_EDGES = (
    Edge("unexpected", "the sibling ran twice", B_TWICE, PEERS_STILL_ALLOWED),
    Edge("unexpected", "the sibling ran, then the run failed", B_THEN_ERROR, PEERS_STILL_ALLOWED),
)

BUG = Bug(
    links=("https://github.com/google/adk-python/issues/3850", "https://github.com/google/adk-python/pull/3862"),
    description=(
        "A sub-agent with disallow_transfer_to_peers=True that calls transfer_to_agent with a "
        "sibling's name is transferred to that sibling: the flag only removes the sibling from the prompt."
    ),
    expected=(
        "The transfer to a sibling is refused when the transferring agent disallows peer transfers: "
        "the sibling does not run."
    ),
    claims=Claim(
        pr="#3862",
        pr_state="closed",
        still_open=True,
        quote="On 2.7.1 the 2.x workflow path still lets it through",
        source="#3850 thread (shown open), 2026-08-26 comment: 'Thanks for the fix in fa18d26a'; PR #3862 "
        "(Closes: #3850) shown closed, no merge shown; PR #6798 (merged) ports fa18d26a to the v1 branch",
    ),
    cases={
        "sibling": CaseRole(
            "agent_a (disallow_transfer_to_peers=True) calls transfer_to_agent('agent_b'), its sibling",
            reproduced=LAST_WITHOUT_CHECK, fixed=FIRST_WITH_CHECK, edges=EDGES,
        ),
        "peers-allowed": CaseRole(
            "control: without the flag, agent_a's transfer to its sibling happens",
            reproduced=TOO_BROAD_FIX, fixed=PEERS_STILL_ALLOWED, control=True, edges=CONTROL_EDGES,
        ),
    },
)  # fmt: skip
