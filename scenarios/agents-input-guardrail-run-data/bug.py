"""agents-input-guardrail-run-data: what the harness needs beside repro.py (the bug itself is there)."""

import contextlib
from collections.abc import Iterator

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess, Release


@contextlib.contextmanager
def _error_details_lose_guardrails() -> Iterator[None]:
    """Every RunErrorDetails built with no input guardrail results (what the streamed control must never show)."""
    from agents.exceptions import RunErrorDetails

    original = RunErrorDetails.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        self.input_guardrail_results = []

    RunErrorDetails.__init__ = init  # type: ignore[method-assign]
    try:
        yield
    finally:
        RunErrorDetails.__init__ = original  # type: ignore[method-assign]


@contextlib.contextmanager
def _results_recorded_twice() -> Iterator[None]:
    """A fix that went too far: the runner records each result into its sink and merges the returned list too."""
    import agents.run

    original = agents.run.run_input_guardrails

    async def run_input_guardrails(*args, **kwargs):
        results = await original(*args, **kwargs)
        sink = kwargs.get("results_sink", args[4] if len(args) > 4 else None)
        if sink is not None:
            sink.extend(results)
        return results

    agents.run.run_input_guardrails = run_input_guardrails
    try:
        yield
    finally:
        agents.run.run_input_guardrails = original


PINNED = AsInstalled("the pinned release (0.24.0) reports every input guardrail result once (PR #4071)")
BUGGY = Release("openai-agents==0.19.1", "the last release before PR #4071")
FIXED = Release("openai-agents==0.19.2", "the first release with PR #4071")

BUG = Bug(
    links=(
        "https://github.com/openai/openai-agents-python/issues/4068",
        "https://github.com/openai/openai-agents-python/pull/4071",
    ),
    description=(
        "When an input guardrail trips, the InputGuardrailTripwireTriggered raised by Runner.run carries "
        "an empty run_data.input_guardrail_results: the results of the guardrails that ran (the passing "
        "ones and the tripping one) are dropped, while Runner.run_streamed reports them."
    ),
    expected=(
        "The exception's run_data.input_guardrail_results holds every guardrail that completed, the "
        "tripping one included, through Runner.run as through Runner.run_streamed."
    ),
    claims=Claim(
        pr="#4071",
        pr_state="merged",
        source="issue #4068, PR #4071: 'empty for Runner.run() / Runner.run_sync()'; 'streaming was already correct'",
    ),
    cases={
        "run": CaseRole(
            "Runner.run; guardrail allow passes, then block trips",
            reproduced=BUGGY,
            fixed=FIXED,
            edges=(
                Edge(
                    "unexpected", "the exception carries no run_data", lambda o: o.facts.update(run_data="none"), BUGGY
                ),
                Edge("unexpected", "only the passing guardrail reported", lambda o: o.facts.update(run_data=["allow"])),
                Edge("unexpected", "the run did not trip", lambda o: o.facts.update(raised=None, tripped=None)),
                Edge("unexpected", "another guardrail tripped", lambda o: o.facts.update(tripped="allow")),
            ),
        ),
        "run-streamed": CaseRole(
            "the same through Runner.run_streamed (the thread: 'streaming was already correct')",
            reproduced=InProcess("RunErrorDetails built with no guardrail results", _error_details_lose_guardrails),
            fixed=PINNED,
            control=True,
        ),
        "no-tripwire": CaseRole(
            "Runner.run; allow and check both pass: result.input_guardrail_results holds each once",
            reproduced=InProcess(
                "each result recorded into the sink and merged from the returned list too", _results_recorded_twice
            ),
            fixed=PINNED,
            non_regression=True,
            edges=(
                Edge("unexpected", "a guardrail is missing", lambda o: o.facts.update(result=["allow"])),
                Edge(
                    "unexpected", "the run raised", lambda o: o.facts.update(raised="InputGuardrailTripwireTriggered")
                ),
                Edge("unexpected", "another final output", lambda o: o.facts.update(final="something else")),
            ),
        ),
    },
)
