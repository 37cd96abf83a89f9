"""adk-sync-run-model-error: what the harness needs beside repro.py."""

import contextlib

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Edge, InProcess, Release


@contextlib.contextmanager
def _swallowing_run_async():
    """Breaks the control: run_async that ends quietly when the agent raises."""
    from google.adk.runners import Runner

    original = Runner.run_async

    async def run_async(self, **kwargs):
        try:
            async for event in original(self, **kwargs):
                yield event
        except Exception:
            return

    Runner.run_async = run_async
    try:
        yield
    finally:
        Runner.run_async = original


PRE_FIX_RUN = Release(
    "google-adk==2.7.1", "the last release whose Runner.run leaves the exception on the background thread"
)
PINNED = AsInstalled("the pinned release re-raises on the calling thread (Runner.run, 2.8.0 on)")

BUG = Bug(
    links=(
        "https://github.com/google/adk-python/issues/5567",
        "https://github.com/google/adk-python/issues/4244",
    ),
    description=(
        "When the model raises at turn N, the sync Runner.run() ends its event loop normally: the "
        "exception reaches only the background thread's excepthook, never the caller."
    ),
    expected=(
        "Runner.run() yields the events produced before the failure, then raises the model's "
        "exception on the calling thread."
    ),
    cases={
        "error-at-turn-2": CaseRole(
            "Runner.run(): turn 1 calls get_weather, model turn 2 raises",
            reproduced=PRE_FIX_RUN,
            fixed=PINNED,
            edges=(
                Edge(
                    "unexpected",
                    "the caller gets another exception type carrying the model error's message",
                    lambda obs: obs.facts.update(raised=f"RuntimeError: {obs.facts['raised']}", raised_scripted=False),
                    PINNED,
                ),
            ),
        ),
        "error-at-turn-1": CaseRole(
            "Runner.run(): the first model call raises (the thread's reproducer)", reproduced=PRE_FIX_RUN, fixed=PINNED
        ),
        "run-async-control": CaseRole(
            "control: the same failure through run_async raises on every release",
            reproduced=InProcess("run_async wrapped to end quietly when the agent raises", _swallowing_run_async),
            fixed=AsInstalled("the pinned release's run_async raises the model's error"),
            control=True,
        ),
    },
)
