"""Every shipped case, on the pinned framework releases, against the matrix's snapshot store.

The store (snapshots/matrix/<scenario>/<case>/<version>.txt) holds each release's outcome, detail
and timeline once; the pinned release's result must equal its nearest stored snapshot, so a
changed timeline fails with the diff. syrupy makes the comparison over that store
(tests/syrupy_store.py): ``nox -s tests -- --snapshot-update`` stores a deliberate change of the
pinned release through the store's writer, as the matrix's ``--update-snapshots`` does; say in the
commit which release changed what.
"""

from __future__ import annotations

import pytest
from syrupy.assertion import SnapshotAssertion

from conftest import case_params
from harness.runtime.runner import run_case
from syrupy_store import MatrixStoreExtension, measure


@pytest.fixture
def snapshot(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    return snapshot.use_extension(MatrixStoreExtension)


@pytest.mark.parametrize(("scenario", "case"), case_params())
def test_case_matches_its_stored_snapshot(scenario, case, snapshot):
    result = run_case(scenario, case)
    assert result.outcome != "error", result.detail
    assert measure(scenario, case).row(result) == snapshot


@pytest.mark.parametrize(("scenario", "case"), case_params())
def test_case_is_deterministic(scenario, case):
    """Two runs in one process render byte-identical timelines and verdicts."""
    first, second = run_case(scenario, case), run_case(scenario, case)
    assert (first.outcome, first.detail, first.timeline) == (second.outcome, second.detail, second.timeline)
