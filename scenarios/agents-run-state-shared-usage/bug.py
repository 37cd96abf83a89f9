"""agents-run-state-shared-usage: what the harness needs beside repro.py (the bug itself is there)."""

import contextlib
import copy
from collections.abc import Iterator

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess, Release


@contextlib.contextmanager
def _patched(owner, name, make) -> Iterator[None]:
    """``owner.name`` replaced by ``make(original)`` for the block."""
    original = getattr(owner, name)
    setattr(owner, name, make(original))
    try:
        yield
    finally:
        setattr(owner, name, original)


def checkpoint_starts_afresh():
    """RunContextWrapper._copy_for_run_state gives the checkpoint a new, empty Usage (a fix gone too far: the
    resumed run no longer carries the first run's usage forward)."""
    from agents import Usage
    from agents.run_context import RunContextWrapper

    def make(original):
        def copy_for_run_state(self):
            copied = original(self)
            copied.usage = Usage()
            return copied

        return copy_for_run_state

    return _patched(RunContextWrapper, "_copy_for_run_state", make)


def nested_checkpoint_detached():
    """A nested Agent.as_tool() resume runs on a copy of its usage (PR #4479's copy without its rebind to the
    outer tool context: the nested agent's turns after the approval go missing from the outer run)."""
    from agents.run import AgentRunner
    from agents.run_state import RunState

    def make(original):
        async def run(self, starting_agent, input, **kwargs):
            if isinstance(input, RunState) and type(input._context).__name__ == "ToolContext":
                input._context.usage = copy.deepcopy(input._context.usage)
            return await original(self, starting_agent, input, **kwargs)

        return run

    return _patched(AgentRunner, "run", make)


def json_checkpoints_share_usage():
    """RunState.from_json gives every state it reads one Usage instance (what the control must never show)."""
    from agents.run_state import RunState

    shared = []
    original = RunState.__dict__["from_json"]  # a staticmethod

    async def from_json(*args, **kwargs):
        state = await original.__func__(*args, **kwargs)
        shared.append(state._context.usage)
        state._context.usage = shared[0]
        return state

    return _patched(RunState, "from_json", lambda _: staticmethod(from_json))


def resume_on_a_copy():
    """AgentRunner.run resumes a RunState on a copy of it (RunState._copy_for_result_checkpoint), so the
    checkpoint the caller holds keeps its usage (the stricter case's fix)."""
    from agents.run import AgentRunner
    from agents.run_state import RunState

    def make(original):
        async def run(self, starting_agent, input, **kwargs):
            if isinstance(input, RunState):
                input = input._copy_for_result_checkpoint()
            return await original(self, starting_agent, input, **kwargs)

        return run

    return _patched(AgentRunner, "run", make)


def facts(**changes):
    """An edge's alteration: these facts changed."""
    return lambda obs: obs.facts.update(**changes)


REPORTED = Release("openai-agents==0.21.1", "current when PR #4479 was opened (2026-08-17): the usage is shared")
FIXED = Release("openai-agents==0.22.0", "the first release with PR #4479 (fb8fa1ba5): the checkpoint's own usage")
PINNED = AsInstalled("the pinned release carries the usage forward")
ONE, TWO, THREE, FOUR = (1, 100, 10), (2, 200, 20), (3, 300, 30), (4, 400, 40)


def common_edges(first, resumes):
    """The edges of every case: the first run's usage and calls disagree, no resume made a call (each reporting
    the first run's usage), none ran."""
    return (
        Edge("unexpected", "the first run made a model call it does not report", facts(first_calls=first[0] + 1)),
        Edge("unexpected", "no resume made a model call", facts(made=[0] * resumes, resumed=[first] * resumes,
                                                               source=first, stored=[first])),
        Edge("unexpected", "no resume ran", facts(resumed=[], made=[])),
    )  # fmt: skip


# Observations no build makes, one step across the judge's lines (nox -s mutants).
SOURCE_EDGES = (
    *common_edges(ONE, 1),
    Edge("unexpected", "the resumed run reported one request", facts(resumed=[ONE])),
    Edge("unexpected", "the result afterwards reports three requests", facts(source=THREE)),
    Edge("reproduced", "the result afterwards reports the resume's two", facts(source=TWO)),
)  # fmt: skip
TWO_RESUMES = (
    Edge("unexpected", "the first resume reported three requests", facts(resumed=[THREE, TWO])),
    Edge("fixed", "the first resume made two calls, the second one", facts(made=[2, 1], resumed=[THREE, TWO],
                                                                        stored=[ONE])),
)  # fmt: skip
RESUMES_EDGES = (
    *common_edges(ONE, 2),
    *TWO_RESUMES,
    Edge("reproduced", "the second resume billed the first's request", facts(resumed=[TWO, THREE])),
    Edge("unexpected", "the second resume reported four requests", facts(resumed=[TWO, FOUR])),
    Edge("reproduced", "the second resume (two calls) billed the first's request", facts(made=[1, 2],
                                                                                      resumed=[TWO, FOUR])),
)  # fmt: skip
CARRIED_EDGES = (
    *common_edges(ONE, 1),
    Edge("reproduced", "the resumed run reported its own request only", facts(resumed=[ONE])),
    Edge("unexpected", "the resumed run reported three requests", facts(resumed=[THREE])),
    Edge("unexpected", "the resumed run's tokens do not match its requests", facts(resumed=[(1, 100, 20)])),
)  # fmt: skip
NESTED_EDGES = (
    *common_edges(TWO, 1),
    Edge("reproduced", "the nested agent's turn after the approval missing", facts(resumed=[THREE])),
    Edge("unexpected", "the resumed run reported five requests", facts(resumed=[(5, 500, 50)])),
)  # fmt: skip
CHECKPOINT_EDGES = (
    *common_edges(ONE, 2),
    *TWO_RESUMES,
    Edge("unexpected", "both resumes reported two, but the checkpoint stores three", facts(resumed=[TWO, TWO])),
    Edge("unexpected", "the second resume reported three, the checkpoint stores two",
         facts(resumed=[TWO, THREE], stored=[TWO])),
    Edge("unexpected", "both resumes reported two, the checkpoint stores two", facts(resumed=[TWO, TWO],
                                                                                  stored=[TWO])),
    Edge("reproduced", "the second resume (two calls) reported four, the checkpoint stores four",
         facts(made=[1, 2], resumed=[TWO, FOUR], stored=[FOUR])),
)  # fmt: skip

BUG = Bug(
    links=(
        "https://github.com/openai/openai-agents-python/pull/4479",
        "https://github.com/openai/openai-agents-python/pull/4409",
        "https://github.com/openai/openai-agents-python/pull/4251",
    ),
    description=(
        "RunResult.to_state() builds each checkpoint around the result's RunContextWrapper (in later releases a "
        "copy.copy of it, _copy_for_run_state, which detaches approvals and tool invocations but not usage), and a "
        "resumed run adds its model calls to that Usage in place: the result already returned reports the resumed "
        "run's requests, and of two checkpoints from one result each resumed once, the second reports the first's."
    ),
    expected=(
        "Each checkpoint carries the result's usage forward as its own copy: the result keeps its usage, and every "
        "checkpoint resumed once reports the first run's usage and its own calls."
    ),
    claims=Claim(
        pr="#4479",
        pr_state="merged",
        quote="`RunContextWrapper._copy_for_run_state` detaches `_approvals`, `_tool_invocations` and "
        "`_restored_unbound_approval_call_ids`, but the `copy.copy(self)` it starts from leaves `usage` shared.",
        source="PR #4479 'fix: isolate usage between RunState checkpoints' (merged, 2026-08-19 as fb8fa1ba5, first "
        "tag v0.22.0): 'both reproducible on main'; it names no release where the sharing began",
    ),
    range_notes=(
        "The stricter case (one checkpoint resumed twice) is no thread's claim: PR #4251 (merged) made a resume "
        "copy the lists it adopts from a RunState because 'the caller still owns the state as a resumable "
        "snapshot', but the resumed run still accrues usage on the checkpoint's own wrapper "
        "(resolve_resumed_context returns run_state._context), so the checkpoint's to_json() stores one model "
        "response beside three requests.",
    ),
    cases={
        "source-result-kept": CaseRole(
            "after result.to_state() and a resume, the result already returned keeps its one request",
            reproduced=REPORTED, fixed=FIXED, edges=SOURCE_EDGES,
        ),
        "two-checkpoints": CaseRole(
            "two checkpoints from one result, each resumed once with Runner.run: both report two requests",
            reproduced=REPORTED, fixed=FIXED, edges=RESUMES_EDGES,
        ),
        "two-checkpoints-streamed": CaseRole(
            "two checkpoints from one streamed result, each resumed once with run_streamed: both report two requests",
            reproduced=REPORTED, fixed=FIXED, edges=RESUMES_EDGES,
        ),
        "resume-carries-usage": CaseRole(
            "a fix must keep carrying the checkpoint's usage forward: the resumed run reports the first run's "
            "request and its own",
            reproduced=InProcess("the checkpoint starts with an empty Usage", checkpoint_starts_afresh),
            fixed=PINNED, non_regression=True, edges=CARRIED_EDGES,
        ),
        "nested-resume-billed": CaseRole(
            "a fix must keep billing a nested Agent.as_tool() resume to the outer run: approved and resumed, the "
            "outer run reports all four model calls",
            reproduced=InProcess("the nested resume runs on a detached copy of its usage", nested_checkpoint_detached),
            fixed=PINNED, non_regression=True, edges=NESTED_EDGES,
        ),
        "control-json-checkpoints": CaseRole(
            "control: two checkpoints through to_json() and RunState.from_json, each resumed once: both report two "
            "requests",
            reproduced=InProcess("RunState.from_json shares one Usage between the states it reads",
                                 json_checkpoints_share_usage),
            fixed=AsInstalled("every release with RunState rebuilds the usage from JSON"),
            control=True, edges=RESUMES_EDGES,
        ),
        "same-checkpoint-twice-stricter": CaseRole(
            "stricter than the thread: one checkpoint resumed twice; the second resume reports two requests and "
            "the checkpoint keeps its one",
            reproduced=AsInstalled("the pinned release accrues a resume's usage on the checkpoint itself"),
            fixed=InProcess("Runner.run resumes on a copy of the checkpoint", resume_on_a_copy),
            edges=CHECKPOINT_EDGES,
        ),
    },
)  # fmt: skip
