"""agents-output-guardrail-run-data: what the harness needs beside repro.py (the bug itself is there)."""

import contextlib
import dataclasses
from collections.abc import Iterator

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess, Release


@contextlib.contextmanager
def _tripwire_loses_its_result() -> Iterator[None]:
    """The tripwire exception's guardrail_result keeps no output_info (what the control must never show)."""
    from agents import GuardrailFunctionOutput
    from agents.exceptions import OutputGuardrailTripwireTriggered

    original = OutputGuardrailTripwireTriggered.__init__

    def init(self, guardrail_result, *args, **kwargs):
        emptied = GuardrailFunctionOutput(output_info=None, tripwire_triggered=True)
        original(self, dataclasses.replace(guardrail_result, output=emptied), *args, **kwargs)

    OutputGuardrailTripwireTriggered.__init__ = init  # type: ignore[method-assign]
    try:
        yield
    finally:
        OutputGuardrailTripwireTriggered.__init__ = original  # type: ignore[method-assign]


@contextlib.contextmanager
def _results_recorded_twice() -> Iterator[None]:
    """A fix that went too far: each result recorded into the run's sink, and the returned list merged in too."""
    import agents.run

    original = agents.run.run_output_guardrails

    async def run_output_guardrails(*args, **kwargs):
        results = await original(*args, **kwargs)
        sink = kwargs.get("results_sink", args[4] if len(args) > 4 else None)
        if sink is not None:
            sink.extend(results)
        return results

    agents.run.run_output_guardrails = run_output_guardrails
    try:
        yield
    finally:
        agents.run.run_output_guardrails = original


PINNED = AsInstalled("the pinned release (0.24.0) reports every output guardrail result once (PR #4090)")
REPORTED = Release("openai-agents==0.19.2", "current on PR #4090's date (2026-08-01), the last release before it")
FIXED = Release("openai-agents==0.19.3", "the first release with PR #4090 (855255a66)")


def facts(**changes):
    """An edge's alteration: these facts changed."""
    return lambda obs: obs.facts.update(**changes)


# Observations no build makes, one step across the judge's lines (nox -s mutants).
TRIP_EDGES = (
    Edge("unexpected", "the exception carries no run_data", facts(run_data="none")),
    Edge("unexpected", "only the passing guardrail reported", facts(run_data=["allow"])),
    Edge("unexpected", "the run did not trip", facts(raised=None, tripped=None, final="The launch codes are 0000.")),
    Edge("unexpected", "another guardrail tripped", facts(tripped="allow")),
    Edge("unexpected", "another exception", facts(raised="MaxTurnsExceeded")),
)
RESULT_EDGES = (
    Edge("unexpected", "the streamed result holds only allow", facts(result=["allow"])),
    Edge("unexpected", "no streamed result at all", facts(result=None)),
)
CONTROL_EDGES = (
    Edge("reproduced", "the exception names allow", facts(tripped="allow")),
    Edge("unexpected", "the run did not trip", facts(raised=None)),
)
NO_TRIP_EDGES = (
    Edge("unexpected", "a guardrail is missing", facts(result=["allow"])),
    Edge("unexpected", "the run raised", facts(raised="OutputGuardrailTripwireTriggered")),
    Edge("unexpected", "another final output", facts(final="something else")),
    Edge("reproduced", "check reported twice", facts(result=["allow", "check", "check"])),
)

BUG = Bug(
    links=(
        "https://github.com/openai/openai-agents-python/pull/4090",
        "https://github.com/openai/openai-agents-python/pull/4071",
    ),
    description=(
        "When an output guardrail trips, the OutputGuardrailTripwireTriggered raised by Runner.run, "
        "Runner.run_sync and Runner.run_streamed carries an empty run_data.output_guardrail_results, and a "
        "streamed result's output_guardrail_results stays empty: the results of the guardrails that ran (the "
        "passing ones and the tripping one) are dropped; the tripping result is only on exc.guardrail_result."
    ),
    expected=(
        "The exception's run_data.output_guardrail_results (and a streamed result's output_guardrail_results) "
        "holds every output guardrail that completed, the tripping one included, as #4071 made input guardrails do."
    ),
    claims=Claim(
        pr="#4090",
        pr_state="merged",
        quote="run() run_data.output_guardrail_results = []; run_streamed() run_data.output_guardrail_results = []; "
        "run_streamed() result.output_guardrail_results = []; run_sync() run_data.output_guardrail_results = []",
        source="PR #4090 'fix(run): report output guardrail results when a tripwire aborts the run' (merged; opened "
        "2026-08-01, 'the output-guardrail sibling' of #4071); no issue and no release named",
    ),
    cases={
        "run": CaseRole(
            "Runner.run; output guardrail allow passes, then block trips: the exception's run_data",
            reproduced=REPORTED, fixed=FIXED, edges=TRIP_EDGES,
        ),
        "run-sync": CaseRole(
            "the same through Runner.run_sync (in a thread of its own with its own event loop)",
            reproduced=REPORTED, fixed=FIXED,
        ),
        "run-streamed": CaseRole(
            "the same through Runner.run_streamed: the exception's run_data",
            reproduced=REPORTED, fixed=FIXED,
        ),
        "run-streamed-result": CaseRole(
            "Runner.run_streamed: the streamed result's own output_guardrail_results after the tripwire",
            reproduced=REPORTED, fixed=FIXED, edges=RESULT_EDGES,
        ),
        "tripping-result-on-exception": CaseRole(
            "control: Runner.run; the exception's guardrail_result names block with its output_info",
            reproduced=InProcess("the tripwire's guardrail_result loses its output_info", _tripwire_loses_its_result),
            fixed=PINNED, control=True, edges=CONTROL_EDGES,
        ),
        "no-tripwire": CaseRole(
            "non-regression: Runner.run; allow and check both pass: result.output_guardrail_results holds each once",
            reproduced=InProcess("each result recorded into the sink and merged from the returned list too",
                                 _results_recorded_twice),
            fixed=PINNED, non_regression=True, edges=NO_TRIP_EDGES,
        ),
    },
)  # fmt: skip
