"""Every case's oracle is shown able to say both ``reproduced`` and ``fixed``.

Each case declares, per outcome, the build that shows it (harness/scenario.py: an
in-process patch of the pinned release, or the pinned release as installed). This test
runs them all, so a new scenario is covered without touching this file.
"""

from __future__ import annotations

import contextlib

import pytest

from conftest import case_params
from harness.outcomes import FIXED, REPRODUCED
from harness.runner import run_case
from harness.scenario import InProcess


def proof_params():
    params = []
    for p in case_params():
        scenario, case = p.values
        for outcome in (REPRODUCED, FIXED):
            params.append(pytest.param(scenario, case, outcome, id=f"{p.id}->{outcome}", marks=p.marks))
    return params


@pytest.mark.parametrize(("scenario", "case", "outcome"), proof_params())
def test_oracle_says_outcome_on_its_proof_build(scenario, case, outcome):
    build = case.proofs[outcome]
    patch = build.patch() if isinstance(build, InProcess) else contextlib.nullcontext()
    with patch:
        result = run_case(scenario, case)
    assert result.outcome == outcome, (
        f"{scenario.id}:{case.id} on '{build.description}' says {result.outcome}: {result.detail}"
    )
