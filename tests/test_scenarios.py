"""Every shipped case, on the pinned framework releases, against the matrix's snapshot store.

The store (snapshots/matrix/<scenario>/<case>/<version>.txt) holds each release's outcome, detail
and timeline once; the pinned release's result must equal its nearest stored snapshot, so a
changed timeline fails with the diff. Accept a deliberate change through the matrix
(``nox -s matrix -- --update-snapshots``) and say in the commit which release changed what.
"""

from __future__ import annotations

import difflib

import pytest

from conftest import ROOT, case_params, installed
from harness.runtime.runner import run_case
from harness.store.snapshots import SnapshotStore

STORE = SnapshotStore(ROOT / "snapshots" / "matrix")


@pytest.mark.parametrize(("scenario", "case"), case_params())
def test_case_matches_its_stored_snapshot(scenario, case):
    version = installed(scenario.framework)
    base = STORE.nearest(scenario.id, case.id, version)
    assert base is not None, f"no snapshot of {scenario.id}:{case.id} at or before {version}: run the matrix"
    result = run_case(scenario, case)
    assert result.outcome != "error", result.detail
    text = f"outcome: {result.outcome}\ndetail: {result.detail}\n\n{result.timeline}"
    stored = STORE.read(scenario.id, case.id, base)
    diff = "".join(difflib.unified_diff(stored.splitlines(True), text.splitlines(True), f"snapshot {base}", version))
    assert text == stored, diff


@pytest.mark.parametrize(("scenario", "case"), case_params())
def test_case_is_deterministic(scenario, case):
    """Two runs in one process render byte-identical timelines and verdicts."""
    first, second = run_case(scenario, case), run_case(scenario, case)
    assert (first.outcome, first.detail, first.timeline) == (second.outcome, second.detail, second.timeline)
