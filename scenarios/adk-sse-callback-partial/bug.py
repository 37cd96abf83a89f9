"""adk-sse-callback-partial: what the harness needs beside repro.py."""

import contextlib

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess, Release


@contextlib.contextmanager
def _drop_partial_after_model():
    """Break the control in process: every response leaves the after-model step with partial unset."""
    from google.adk.flows.llm_flows.base_llm_flow import BaseLlmFlow

    original = BaseLlmFlow.__dict__["_handle_after_model_callback"]

    async def _handle_after_model_callback(self, invocation_context, llm_response, model_response_event):
        altered = await original(self, invocation_context, llm_response, model_response_event)
        return (altered or llm_response).model_copy(update={"partial": None})

    BaseLlmFlow._handle_after_model_callback = _handle_after_model_callback
    try:
        yield
    finally:
        BaseLlmFlow._handle_after_model_callback = original


LAST_WITHOUT_FIX = Release("google-adk==2.9.2", "the last 2.x release before the fix: the replacement is used as is")
FIRST_WITH_FIX = Release("google-adk==2.10.0", "the first release whose after-model step inherits partial")
CONTROL_HOLDS = AsInstalled("the pinned release, unpatched: deltas stream as partial events")
CONTROL_BROKEN = InProcess(
    "the after-model step patched in process to return every response with partial unset", _drop_partial_after_model
)


def _edges(build, *specs):
    """Edges on ``build`` from (outcome, description, fact, its new value from the observed facts)."""
    return tuple(Edge(o, d, lambda obs, k=k, f=f: obs.facts.update({k: f(obs.facts)}), build) for o, d, k, f in specs)


TWICE = ("unexpected", "the fixed stream, but the model called twice", "calls", lambda f: 2)
STORED_TWICE = (
    "unexpected",
    "the deltas stayed partial, but the final text stored twice",
    "stored",
    lambda f: f["stored"] * 2,
)
ONE_PARTIAL = ("unexpected", "the bug's stored events, but one delta still yielded as partial", "partials", lambda f: 1)
ONE_STORED = ("unexpected", "deltas lost partial, but only one model event stored", "stored", lambda f: f["stored"][:1])
TWO_STORED = ("reproduced", "deltas lost partial, two of them stored", "stored", lambda f: f["stored"][:2])

BUG = Bug(
    links=(
        "https://github.com/google/adk-python/issues/7035",
        "https://github.com/google/adk-python/pull/7036",
        "https://github.com/google/adk-python/pull/7038",
    ),
    description=(
        "In SSE streaming mode, an after_model_callback that returns a newly built LlmResponse "
        "drops the partial flag of every streamed delta: each delta is yielded as a final event "
        "and stored in the session as a separate model event."
    ),
    expected=(
        "A replacement that leaves partial unset keeps the partial flag of the response it "
        "replaces: the deltas stream as partial events and the session stores only the final one."
    ),
    claims=Claim(
        pr="#7036 / #7038",
        pr_state="closed",
        quote="inherit `partial`/`turn_complete` from the response being replaced",
        source="PRs #7036 ('fix(flows): inherit unset streaming fields ...') and #7038, both 'Closes: #7035', "
        "both shown closed, no merge shown; issue #7035 shown closed",
    ),
    cases={
        "agent-callback": CaseRole(
            "the agent's after_model_callback rebuilds each streamed response (text upper-cased)",
            reproduced=LAST_WITHOUT_FIX,
            fixed=FIRST_WITH_FIX,
            edges=_edges(AsInstalled(), TWICE)
            + _edges(LAST_WITHOUT_FIX, ONE_PARTIAL)
            + _edges(AsInstalled(), STORED_TWICE),
        ),
        "plugin-callback": CaseRole(
            "a plugin's after_model_callback rebuilds each streamed response",
            reproduced=LAST_WITHOUT_FIX,
            fixed=FIRST_WITH_FIX,
        ),
        "no-callback": CaseRole(
            "control: the same stream without a callback yields partial deltas and stores one event",
            reproduced=CONTROL_BROKEN,
            fixed=CONTROL_HOLDS,
            control=True,
            edges=(
                *_edges(CONTROL_HOLDS, TWICE),
                *_edges(CONTROL_BROKEN, ONE_STORED, TWO_STORED),
                *_edges(CONTROL_HOLDS, STORED_TWICE),
            ),
        ),
    },
)
