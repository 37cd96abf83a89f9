"""agents-run-sync-closed-loop: what the harness needs beside repro.py (the bug itself is there)."""

import asyncio
import contextlib
import threading
from collections.abc import Iterator

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess, Release


@contextlib.contextmanager
def new_loop_per_call() -> Iterator[None]:
    """AgentRunner.run_sync runs every call on a loop of its own (a fix gone too far: asyncio.run's way, which
    drops the thread's default loop the session primitives are bound to)."""
    from agents.run import AgentRunner

    original = AgentRunner.run_sync

    def run_sync(self, *args, **kwargs):
        loop = asyncio.new_event_loop()
        try:
            return loop.run_until_complete(self.run(*args, **kwargs))
        finally:
            loop.close()

    AgentRunner.run_sync = run_sync  # type: ignore[method-assign]
    try:
        yield
    finally:
        AgentRunner.run_sync = original  # type: ignore[method-assign]


@contextlib.contextmanager
def run_beside_running_loop() -> Iterator[None]:
    """AgentRunner.run_sync, called inside a running loop, runs the call in a thread of its own instead of
    refusing (what the control must never show)."""
    from agents.run import AgentRunner

    original = AgentRunner.run_sync

    def run_sync(self, *args, **kwargs):
        box = {}
        thread = threading.Thread(target=lambda: box.update(result=asyncio.run(self.run(*args, **kwargs))))
        thread.start()
        thread.join()
        return box["result"]

    AgentRunner.run_sync = run_sync  # type: ignore[method-assign]
    try:
        yield
    finally:
        AgentRunner.run_sync = original  # type: ignore[method-assign]


def facts(**changes):
    """An edge's alteration: these facts changed."""
    return lambda obs: obs.facts.update(**changes)


BUGGY = Release("openai-agents==0.19.2", "the last release before PR #4102")
FIXED = Release("openai-agents==0.19.3", "the first release with PR #4102")
# Observations no build makes, one step across the judge's lines (nox -s mutants).
CLOSED_EDGES = (
    Edge("unexpected", "the run answered, but the closed loop stayed the default",
         facts(default_after="the closed default loop (closed)")),
    Edge("unexpected", "the run answered otherwise", facts(answers=["?"])),
    Edge("unexpected", "a second answer", facts(answers=["Hello from the scripted model."] * 2)),
    Edge("unexpected", "the run raised another error", facts(answers=[], ran_on=[], errors=["RuntimeError: boom"])),
    Edge("reproduced", "the run raised 'Event loop is closed'",
         facts(answers=[], ran_on=[], errors=["RuntimeError: Event loop is closed"])),
)  # fmt: skip
REUSE_EDGES = (
    Edge("reproduced", "the second run went on a new loop", facts(ran_on=["the default loop", "a new loop"])),
    Edge("unexpected", "both runs on the default loop, but it was closed afterwards",
         facts(default_after="the default loop (closed)")),
    Edge("unexpected", "a run raised", facts(answers=["Hello from the scripted model."],
                                            errors=["RuntimeError: boom"])),
    Edge("unexpected", "a run on another loop", facts(ran_on=["the default loop", "another loop"])),
)  # fmt: skip
CONTROL_EDGES = (
    Edge("reproduced", "run_sync answered inside the running loop", facts(answers=["Hello from the scripted model."])),
    Edge("unexpected", "refused with another error", facts(errors=["ValueError: boom"])),
    Edge("unexpected", "refused after the model was called", facts(ran_on=["another loop"])),
)  # fmt: skip

BUG = Bug(
    links=(
        "https://github.com/openai/openai-agents-python/pull/4102",
        "https://github.com/openai/openai-agents-python/pull/2006",
    ),
    description=(
        "Runner.run_sync schedules the run on the thread's default event loop; when application code has closed "
        "that loop, run_sync schedules onto the closed loop and raises RuntimeError: Event loop is closed before "
        "the run begins."
    ),
    expected=(
        "A closed default loop is replaced by a new loop, which stays the thread's default; an open default loop "
        "is still reused by every call; a call from inside a running loop is still refused."
    ),
    claims=Claim(
        pr="#4102",
        pr_state="merged",
        fixed_in="0.19.3",
        quote="If application code closes that default loop and then calls `run_sync()`, the SDK currently "
        "schedules onto the closed loop and raises `RuntimeError: Event loop is closed` before the run begins.",
        source="PR #4102 'fix(run): replace closed default loop in run_sync' (merged), first tag v0.19.3. The thread "
        "names no release where it began; the backlog's 'behaviour since PR #2006 (v0.5.0)' is not the thread's "
        "word, and measured the error is older: releases before 0.5.0 call asyncio.get_event_loop()"
        ".run_until_complete, which raises the same on the closed loop",
    ),
    cases={
        "closed-default-loop": CaseRole(
            "a thread whose default loop was set and closed calls run_sync: it must answer on a new loop",
            reproduced=BUGGY, fixed=FIXED, edges=CLOSED_EDGES,
        ),
        "open-default-loop-reused": CaseRole(
            "a thread with an open default loop calls run_sync twice: both runs on that loop, which stays",
            reproduced=InProcess("run_sync runs every call on a new loop", new_loop_per_call),
            fixed=AsInstalled("the pinned release reuses the open default loop"),
            non_regression=True, edges=REUSE_EDGES,
        ),
        "control-running-loop-refused": CaseRole(
            "run_sync called from inside a running event loop raises RuntimeError, the model never called",
            reproduced=InProcess("run_sync runs the call in a thread beside the running loop",
                                 run_beside_running_loop),
            fixed=AsInstalled("the pinned release refuses"),
            control=True, edges=CONTROL_EDGES,
        ),
    },
)  # fmt: skip
