"""agents-trace-processor-isolation: what the harness needs beside repro.py (the bug itself is there)."""

import contextlib
from collections.abc import Iterator

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess, Release


@contextlib.contextmanager
def _span_ends_last_first_unguarded() -> Iterator[None]:
    """on_span_end handed to the processors last-registered first, with nothing around each call: the
    failing processor registered after the recorder then takes the recorder's span ends away."""
    from agents.tracing.provider import SynchronousMultiTracingProcessor

    original = SynchronousMultiTracingProcessor.on_span_end

    def on_span_end(self, span):
        for processor in reversed(self._processors):
            processor.on_span_end(span)

    SynchronousMultiTracingProcessor.on_span_end = on_span_end  # type: ignore[method-assign]
    try:
        yield
    finally:
        SynchronousMultiTracingProcessor.on_span_end = original  # type: ignore[method-assign]


BUGGY = Release("openai-agents==0.2.4", "the last release before PR #1292")
FIXED = Release("openai-agents==0.2.5", "the first release with PR #1292")
PINNED = AsInstalled("the pinned release (0.24.0) guards each processor call (PR #1292)")

BUG = Bug(
    links=("https://github.com/openai/openai-agents-python/pull/1292",),
    description=(
        "An exception raised by one registered trace processor in on_span_end or on_trace_end stops the "
        "processors registered after it from receiving that event (an exporter loses the span or the "
        "trace), and reaches the code closing the span: a with block, or Runner.run, which then fails."
    ),
    expected=(
        "Each processor is isolated: the others still receive every span and trace end, and the error is "
        "logged instead of reaching the caller."
    ),
    claims=Claim(
        pr="#1292",
        pr_state="merged",
        quote="so one failing processor won't prevent the others from running",
        source="PR #1292 (merged), 'Handle processor exceptions and fix tracing log formatting' (no release named)",
    ),
    cases={
        "span-end": CaseRole(
            "trace() with two custom_span()s; Failing (raises in on_span_end) registered before Recorder",
            reproduced=BUGGY,
            fixed=FIXED,
            edges=(
                Edge("unexpected", "the recorder saw no span start", lambda o: o.facts.update(starts=[], ends=[])),
                Edge("unexpected", "the recorder saw no trace start", lambda o: o.facts.update(trace_start=False)),
                Edge("unexpected", "an end of a span never started", lambda o: o.facts["ends"].append("custom x")),
            ),
        ),
        "trace-end": CaseRole(
            "the same with Failing raising in on_trace_end",
            reproduced=BUGGY,
            fixed=FIXED,
        ),
        "runner-span-end": CaseRole(
            "Runner.run (a scripted model) inside trace(); Failing raises in on_span_end",
            reproduced=BUGGY,
            fixed=PINNED,
            edges=(Edge("unexpected", "every end received, the run failed", lambda o: o.facts.update(final=None)),),
        ),
        "failing-last": CaseRole(
            "Failing registered after Recorder: the recorder gets every event on every release",
            reproduced=InProcess(
                "span ends handed out last-registered first, unguarded", _span_ends_last_first_unguarded
            ),
            fixed=PINNED,
            control=True,
        ),
    },
)
