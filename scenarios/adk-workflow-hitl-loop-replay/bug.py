"""adk-workflow-hitl-loop-replay: what the harness needs beside repro.py (the bug itself is there)."""

import contextlib
from collections.abc import Iterator

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess, Release


@contextlib.contextmanager
def _barrier_always_diverges() -> Iterator[None]:
    """Break the control: every replayed node's wait on the sequence barrier fails at once."""
    from google.adk.workflow.utils._replay_sequence_barrier import ReplaySequenceBarrier

    original = ReplaySequenceBarrier.wait

    async def wait(self, key):
        if key in self.events:
            raise RuntimeError(f"Replay divergence detected: '{key}' (the barrier broken in process)")

    ReplaySequenceBarrier.wait = wait  # type: ignore[method-assign]
    try:
        yield
    finally:
        ReplaySequenceBarrier.wait = original  # type: ignore[method-assign]


@contextlib.contextmanager
def _replay_runs_nodes_again() -> Iterator[None]:
    """A fix that goes too far: no node is fast-forwarded; each one a resume recovers is run again with the
    answers it had (what dropping the replay to escape its barrier would do)."""
    import importlib

    from google.adk.workflow.utils._replay_interceptor import InterceptionResult, check_interception

    def rerun(*, node, recovered=None, **kwargs):
        result = check_interception(node=node, recovered=recovered, **kwargs)
        if not result.should_run and not result.interrupts and recovered is not None:
            return InterceptionResult(should_run=True, resume_inputs=recovered.resolved_responses)
        return result

    # The modules that import it by name (2.13.0: the workflow loop and the dynamic node scheduler).
    modules = [
        importlib.import_module(f"google.adk.workflow.{name}") for name in ("_workflow", "_dynamic_node_scheduler")
    ]
    patched = [module for module in modules if getattr(module, "check_interception", None) is check_interception]
    for module in patched:
        module.check_interception = rerun
    try:
        yield
    finally:
        for module in patched:
            module.check_interception = check_interception


REPORTED = Release("google-adk==2.8.0", "#7027's release (current on 2026-09-05): the third resume times out")
FIRST_FIXED = Release(
    "google-adk==2.10.0",
    "the first release measured completing the loop: _scan_sequence ignores the echo of a child it saw complete",
)
PINNED = AsInstalled("the pinned release (2.13.0) completes the loop, each node run once a round")


def _error(text):
    def alter(obs):
        obs.facts["error"] = text

    return alter


def _ran(change):
    return lambda obs: change(obs.facts["ran"])


BUG = Bug(
    links=(
        "https://github.com/google/adk-python/issues/7027",
        "https://github.com/google/adk-python/pull/7028",
        "https://github.com/google/adk-python/issues/6497",
        "https://github.com/google/adk-python/pull/6498",
    ),
    description=(
        "A resumable Workflow's review -> revise HITL loop (the HITL reference's review body, a reviser that "
        "routes back without an output) deadlocks on the third resume: Workflow._maybe_reemit_replayed_output "
        "re-emits a fast-forwarded node's output, ReplayManager._scan_sequence moves the echoed HITL@1 past "
        "Revise@1, and the replay barrier waits 15 s on HITL@1: 'Replay divergence detected: Timed out waiting "
        "for sequence key 'HITL@1' to be unblocked.'"
    ),
    expected=(
        "Three review requests answered False, False, True complete the workflow: each round's node functions "
        "run once, the earlier rounds are fast-forwarded, and Publish runs."
    ),
    claims=Claim(
        pr="#7028",
        pr_state="closed",
        source="#7027 (reported on 2.8.0, closed, no release named); its fix PR #7028 ('stop a re-emitted output "
        "echo from reordering the replay sequence') shown closed, no merge shown; a comment (2026-09-07) says "
        "main + #7028 still hangs on an LlmAgent/output_schema shape",
        quote="Timed out waiting for sequence key 'HITL@1' to be unblocked.",
    ),
    range_notes=(
        "Measured: 2.0.0-2.5.0 complete the loop (no output is re-emitted on a replay); 2.6.0 added "
        "Workflow._maybe_reemit_replayed_output, whose echo of HITL@1 _scan_sequence moves past Revise@1 (a "
        "reviser with no output is not echoed), so from 2.6.0 the third resume times out; 2.10.0's "
        "_scan_sequence keeps a `completed` set and skips a terminal event of a child already seen completed "
        "('Ignore re-emitted echoes for already completed children'), PR #7028's approach; the error is "
        "raised as WorkflowInvariantError from then on. Releases without a Workflow (0.x, 1.x) are not "
        "applicable.",
    ),
    cases={
        "route-back": CaseRole(
            "review -> Revise (state and a route, no output) -> review, answered False, False, True: the third "
            "resume (#7027)",
            reproduced=REPORTED,
            fixed=FIRST_FIXED,
            edges=(
                Edge("unexpected", "the divergence waits on another key",
                     _error("RuntimeError: Replay divergence detected: Timed out waiting for sequence key "
                            "'Revise@1' to be unblocked."), REPORTED),
                Edge("unexpected", "another error on the third resume", _error("ValueError: boom"), REPORTED),
                Edge("unexpected", "the third request was never asked", _ran(lambda ran: ran.pop()), REPORTED),
                Edge("unexpected", "Publish ran twice", _ran(lambda ran: ran.append("Publish"))),
                Edge("unexpected", "the divergence on the second resume",
                     lambda obs: obs.facts["turns"].pop(), REPORTED),
            ),
        ),
        "output-back": CaseRole(
            "control: the same loop whose Revise returns its draft as its output (echoed too, so the order "
            "holds): the three answers complete it",
            reproduced=InProcess("the replay barrier broken in process: every wait fails", _barrier_always_diverges),
            fixed=PINNED,
            control=True,
            edges=(
                Edge("unexpected", "a request left pending", lambda obs: obs.facts.update(pending="review_2")),
                Edge("unexpected", "another error", _error("ValueError: boom")),
            ),
        ),
        "one-rejection": CaseRole(
            "non-regression: one rejection then approval; the fast-forwarded round's node functions are not "
            "run again (a fix that re-runs the replayed nodes goes too far)",
            reproduced=InProcess("a fix too far: every recovered node is run again", _replay_runs_nodes_again),
            fixed=PINNED,
            non_regression=True,
            edges=(
                Edge("unexpected", "a node function that no round runs",
                     _ran(lambda ran: ran.append("Revise wrote draft v9"))),
                Edge("unexpected", "a node function missing", _ran(lambda ran: ran.remove("Publish"))),
                Edge("reproduced", "every node function ran, one of them twice",
                     _ran(lambda ran: ran.insert(3, "Revise wrote draft v1"))),
                Edge("unexpected", "a repeat beside a node function no round runs",
                     _ran(lambda ran: ran.extend(["Publish", "Revise wrote draft v9"]))),
                Edge("unexpected", "a repeat, and the resume raised", lambda obs: (
                    obs.facts["ran"].append("Publish"), obs.facts.update(error="ValueError: boom"))),
            ),
        ),
    },
)  # fmt: skip
