"""agents-stream-cancel-slow-tool: what the harness needs beside repro.py (the bug itself is there)."""

import asyncio
import contextlib
from collections.abc import Iterator

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, Explanation, InProcess, Release


@contextlib.contextmanager
def sdk_deadline() -> Iterator[None]:
    """stream_events gives up on any event that takes more than 50 ms (a fix gone too far: the stream
    cancels its run though the consumer waits longer)."""
    from agents.result import RunResultStreaming

    original = RunResultStreaming.stream_events

    async def stream_events(self):
        events = original(self).__aiter__()
        while True:
            try:
                item = await asyncio.wait_for(events.__anext__(), 0.05)
            except StopAsyncIteration:
                return
            yield item

    RunResultStreaming.stream_events = stream_events  # type: ignore[method-assign]
    try:
        yield
    finally:
        RunResultStreaming.stream_events = original  # type: ignore[method-assign]


def facts(**changes):
    """An edge's alteration: these facts changed."""
    return lambda obs: obs.facts.update(**changes)


BUGGY = Release("openai-agents==0.6.4", "the last release before PR #2226")
FIXED = Release("openai-agents==0.6.5", "the first release with PR #2226")
# Observations no build makes, one step across the judge's lines (nox -s mutants).
SLOW_EDGES = (
    Edge("unexpected", "the wait ended before the tool ran", facts(tool_when_returned="not started")),
    Edge("reproduced", "the wait returned only once the tool had finished", facts(tool_when_returned="finished")),
    Edge("unexpected", "TimeoutError, but the tool finished afterwards", facts(tool_after="finished")),
    Edge("unexpected", "TimeoutError, but a second model call followed", facts(model_calls=2)),
    Edge("unexpected", "the stream ended at the deadline instead", facts(ended="StopAsyncIteration")),
)
KEPT_UP_EDGES = (
    Edge("reproduced", "a wait timed out", facts(ended="TimeoutError")),
    Edge("reproduced", "the tool was cancelled", facts(tool_after="cancelled")),
    Edge("unexpected", "the run answered otherwise", facts(final_output="?")),
    Edge("unexpected", "one model call only", facts(model_calls=1)),
    Edge("unexpected", "the stream ended with another error", facts(ended="ValueError: x")),
    Edge("unexpected", "the tool never finished", facts(tool_after="unfinished")),
)
DEADLINE = InProcess("stream_events gives up on an event that takes more than 50 ms", sdk_deadline)

BUG = Bug(
    explanations=(
        Explanation(
            "wait-for-*", "<=0.0.11",
            "The stream's end runs trace.finish(reset_current=True) (agents/result.py, removed in 0.0.12) in the "
            "task asyncio.wait_for made for that anext, not the one that set the current trace: ValueError '... "
            "was created in a different Context' (measured on 0.0.2-0.0.11, with tracing disabled).",
        ),
        Explanation(
            "wait-for-slow-tool", ">=0.0.12,<=0.3.0",
            "stream_events catches the CancelledError and leaves its loop (`except asyncio.CancelledError: break`, "
            "agents/result.py) without awaiting the run: the wait returns at the deadline, but as the stream's end "
            "(StopAsyncIteration), not a TimeoutError, and the run is cancelled. The finally that awaits the run "
            "(the blocking the thread reports) came in 0.3.1 (measured: 0.3.0 -> 0.3.1).",
        ),
    ),
    links=(
        "https://github.com/openai/openai-agents-python/issues/2222",
        "https://github.com/openai/openai-agents-python/pull/2226",
    ),
    description=(
        "A consumer that waits for each event of RunResultStreaming.stream_events() with asyncio.wait_for cannot "
        "time out while a function tool runs: stream_events catches the CancelledError, leaves its loop and "
        "awaits the run (the tool) to its end, so wait_for returns only when the tool has finished."
    ),
    expected=(
        "wait_for raises TimeoutError when its timeout fires, while the tool is still running, and the run is "
        "cancelled; a stream whose events all come within the timeout ends with the answer."
    ),
    claims=Claim(
        pr="#2226",
        pr_state="merged",
        fixed_in="0.6.5",
        quote="using `asyncio.wait_for`'s cancellation event is not propagated to the `stream_events` iterator",
        source="issue #2222 (shown open, labelled enhancement; no release named: its version field is the template's "
        "'e.g. v0.0.3'); PR #2226 "
        "'fix: #2222 Streaming is blocking and cannot be cancelled' (merged), first tag v0.6.5. The thread names no "
        "release where it began: measured, the wait blocks from 0.3.1 (the finally awaiting the run); 0.0.12-0.3.0 "
        "swallow the cancellation without blocking (unexpected)",
    ),
    cases={
        "wait-for-slow-tool": CaseRole(
            "wait_for(anext(events), 1) while the tool sleeps 3 s: TimeoutError with the tool still running",
            reproduced=BUGGY, fixed=FIXED, edges=SLOW_EDGES,
        ),
        "wait-for-quick-tool": CaseRole(
            "wait_for(anext(events), 1) while the tool sleeps 0.1 s: every event arrives, the run answers",
            reproduced=DEADLINE,
            fixed=AsInstalled("the pinned release streams every event within the timeout"),
            non_regression=True, edges=KEPT_UP_EDGES,
        ),
        "control-plain-iteration": CaseRole(
            "a plain async for over stream_events: every event, then the answer, on every release",
            reproduced=DEADLINE,
            fixed=AsInstalled("the pinned release streams every event"),
            control=True, edges=KEPT_UP_EDGES,
        ),
    },
)  # fmt: skip
