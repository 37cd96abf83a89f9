"""adk-nested-parallel-visibility: what the harness needs beside repro.py (the bug itself is there)."""

import contextlib
import importlib
from collections.abc import Callable, Iterator

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess, Release

# The modules that define and call _is_event_belongs_to_branch: flows/llm_flows/contents.py, and from 2.x its
# context/_contents.py (contents.py re-exports it).
MODULES = ("google.adk.flows.llm_flows.contents", "google.adk.flows.llm_flows.context._contents")
# The ParallelAgents of the script's trees: two branches that part right below one of them ran side by side.
PARALLEL = {"fan_out", "group_1", "group_2"}


@contextlib.contextmanager
def _belongs(rule: Callable) -> Iterator[None]:
    """Replace _is_event_belongs_to_branch with ``rule(original, invocation_branch, event)`` in this process."""
    patched = []
    for name in MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        original = module.__dict__.get("_is_event_belongs_to_branch")
        if original is not None:
            module._is_event_belongs_to_branch = lambda branch, event, original=original: rule(original, branch, event)
            patched.append((module, original))
    try:
        yield
    finally:
        for module, original in patched:
            module._is_event_belongs_to_branch = original


def _segment_aware(original, branch, event):
    """The fix #3470 asks for: an event of another branch is hidden only where the two branches part right
    below a ParallelAgent (siblings that ran side by side); a finished group's replies are seen."""
    if original(branch, event):
        return True
    mine, theirs = branch.split("."), event.branch.split(".")
    common = 0
    while common < min(len(mine), len(theirs)) and mine[common] == theirs[common]:
        common += 1
    return common == 0 or mine[common - 1] not in PARALLEL


REPORTED = Release("google-adk==1.18.0", "#3470's release (current on 2025-11-10): the reducer sees neither reply")
FIXED = InProcess("#3470's fix applied in process: only branches that part below a ParallelAgent are hidden",
                  lambda: _belongs(_segment_aware))  # fmt: skip
PINNED = AsInstalled("the pinned release (2.13.0)")
HIDE_BRANCHED = InProcess("the control broken in process: an agent sees no event that carries a branch",
                          lambda: _belongs(lambda original, branch, event: not event.branch))  # fmt: skip
SEE_ALL = InProcess("a fix that goes too far, in process: every event of the session is seen by every agent",
                    lambda: _belongs(lambda original, branch, event: True))  # fmt: skip


def facts(**changes):
    """An edge's alteration: these facts changed."""
    return lambda obs: obs.facts.update(**changes)


# Observations no build makes, one step across the judge's lines (nox -s mutants).
SEES_EDGES = (
    Edge("unexpected", "only a1's reply held", facts(held=["a1"])),
    Edge("fixed", "both replies held", facts(held=["a1", "b1"])),
    Edge("unexpected", "the viewer's model called twice", facts(requests=2)),
    Edge("unexpected", "the viewer's request lost the question", facts(question=False)),
    Edge("unexpected", "an agent waited in vain", facts(timed_out=["b1"])),
)
HIDES_EDGES = (
    Edge("reproduced", "a2's reply leaked in", facts(held=["a2"])),
    Edge("unexpected", "the viewer's model never called", facts(requests=0, question=False)),
)

BUG = Bug(
    links=(
        "https://github.com/google/adk-python/issues/3470",
        "https://github.com/google/adk-python/pull/3889",
    ),
    description=(
        "An agent that follows a ParallelAgent does not see the group's replies when the pattern is nested "
        "(SequentialAgent[ParallelAgent[A, B], reducer] inside an outer ParallelAgent) or chained "
        "(SequentialAgent[ParallelAgent[A, B], ParallelAgent[C, D]]): _is_event_belongs_to_branch keeps only "
        "events of the agent's own branch or an ancestor, so a finished group's events are filtered out like a "
        "running sibling's."
    ),
    expected=(
        "As in the pattern alone: the reducer (or the next group's agents) sees A's and B's replies; agents "
        "that run side by side still do not see each other's."
    ),
    claims=Claim(
        pr="#3889",
        pr_state="open",
        still_open=True,
        quote="When nesting multiple of these architectures, the LLMAgent reducers don't see the outputs of "
        "Agents A and B in the parallel group before them.",
        source="#3470 (filed 2025-11-10) closed as stale with the labels 'request clarification', 'stale'; its "
        "second case in the reporter's comment of 2025-11-21 ('if you have a sequence of parallel agents, each "
        "next parallel agent doesn't see the context from previous parallel agents'); PR #3889 ('Overhaul Branch "
        "Logic from string based to token set based', 'Closes: #3470') shown open; no release named",
    ),
    cases={
        "nested-reducer": CaseRole(
            "ParallelAgent[track_1, track_2], each SequentialAgent[ParallelAgent[a, b], reducer]: reducer_1 must "
            "see a1's and b1's replies (#3470)",
            reproduced=REPORTED, fixed=FIXED, edges=SEES_EDGES,
        ),
        "parallel-after-parallel": CaseRole(
            "SequentialAgent[ParallelAgent[a1, b1], ParallelAgent[a2, b2]]: a2 must see a1's and b1's replies "
            "(#3470's comment)",
            reproduced=REPORTED, fixed=FIXED,
        ),
        "control-single-reducer": CaseRole(
            "control: SequentialAgent[ParallelAgent[a1, b1], reducer_1] alone: the reducer sees both replies",
            reproduced=HIDE_BRANCHED, fixed=PINNED, control=True,
        ),
        "other-track-hidden": CaseRole(
            "non-regression: the nested tree, track_2 answered first: reducer_1 must not see a2's or b2's reply",
            reproduced=SEE_ALL, fixed=PINNED, non_regression=True, edges=HIDES_EDGES,
        ),
    },
)  # fmt: skip
