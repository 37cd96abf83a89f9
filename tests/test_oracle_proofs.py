"""Every case's oracle is shown able to say both ``reproduced`` and ``fixed``.

Each case declares, per outcome, the build that shows it (harness/runtime/scenario.py: an
in-process patch of the pinned release, the pinned release as installed, or a real
release). This test runs them all, so a new scenario is covered without touching this file.
A ``Release`` proof is read from the record: the matrix runs every release a proof names
(harness/store/record.py ``proof_releases``) and fails when its result contradicts the proof,
so what the record says for that release is what the proof build says; a case the record has
no result for there yet (a scenario being written) is run in that release's environment.
A control case is proven like any other (its ``reproduced`` proof breaks it in process).
A case's edges (observations altered to sit on one of the oracle's lines) are checked in their
builds (a Release edge in its matrix environment, so those params are marked ``slow``).
"""

from __future__ import annotations

import pytest

from conftest import ROOT, case_params
from harness.execution.proofs import run_edge, run_proof
from harness.runtime.outcomes import FIXED, REPRODUCED
from harness.runtime.scenario import Release
from harness.store import record

RECORD = record.load(ROOT / "reports")


def proof_params():
    params = []
    for p in case_params():
        scenario, case = p.values
        for outcome in (REPRODUCED, FIXED):
            build = case.proofs[outcome]
            # A release proof needs no framework installed here: the record holds its result.
            marks = [] if isinstance(build, Release) else list(p.marks)
            params.append(pytest.param(scenario, case, outcome, id=f"{p.id}->{outcome}", marks=marks))
    return params


@pytest.mark.parametrize(("scenario", "case", "outcome"), proof_params())
def test_oracle_says_outcome_on_its_proof_build(scenario, case, outcome):
    build = case.proofs[outcome]
    if isinstance(build, Release):
        rows = [
            r
            for r in (RECORD.results if RECORD else [])
            # A proof names a release on the default interpreter (issue 46: a verdict may differ on another).
            if (r.scenario, r.case, r.source, r.python) == (scenario.id, case.id, build.spec, "3.11")
        ]
        if rows:
            assert rows[0].outcome == outcome, (
                f"{scenario.id}:{case.id} on {build.spec} ('{build.description}') says {rows[0].outcome}: "
                f"{rows[0].detail} (reports/matrix.json)"
            )
            return
        # Not in the record yet (a scenario being written): run it in the release's environment.
    run = run_proof(scenario, case, outcome)
    assert run.result.outcome == outcome, (
        f"{scenario.id}:{case.id} on '{run.build.description}' ({run.where}) says "
        f"{run.result.outcome}: {run.result.detail}"
    )


def edge_params():
    return [
        pytest.param(
            scenario,
            case,
            edge,
            id=f"{p.id}->edge-{n}:{edge.outcome}",
            marks=[pytest.mark.slow] if isinstance(edge.build, Release) else list(p.marks),
        )
        for p in case_params()
        for scenario, case in [p.values]
        for n, edge in enumerate(case.edges, 1)
    ]


@pytest.mark.parametrize(("scenario", "case", "edge"), edge_params())
def test_oracle_says_outcome_at_each_edge(scenario, case, edge):
    """An edge (harness/runtime/scenario.py): the oracle draws its line where the docstring says."""
    run = run_edge(scenario, case, edge)
    assert run.result.outcome == edge.outcome, (
        f"{scenario.id}:{case.id} at the edge '{edge.description}' ({run.where}) says "
        f"{run.result.outcome}: {run.result.detail}"
    )
