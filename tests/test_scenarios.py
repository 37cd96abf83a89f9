"""Every shipped case, on the pinned framework releases, against its syrupy snapshot.

A changed timeline fails with syrupy's diff; accept a deliberate change with
``nox -s tests -- --snapshot-update`` and say in the commit which release changed what.
"""

from __future__ import annotations

import pytest

from conftest import case_params, installed
from harness.runtime.runner import run_case


@pytest.mark.parametrize(("scenario", "case"), case_params())
def test_case_matches_snapshot(scenario, case, snapshot):
    result = run_case(scenario, case)
    assert result.outcome != "error", result.detail
    text = (
        f"{scenario.framework} {installed(scenario.framework)}\n"
        f"outcome: {result.outcome}\ndetail: {result.detail}\n\n{result.timeline}"
    )
    assert text == snapshot


@pytest.mark.parametrize(("scenario", "case"), case_params())
def test_case_is_deterministic(scenario, case):
    """Two runs in one process render byte-identical timelines and verdicts."""
    first, second = run_case(scenario, case), run_case(scenario, case)
    assert (first.outcome, first.detail, first.timeline) == (second.outcome, second.detail, second.timeline)
