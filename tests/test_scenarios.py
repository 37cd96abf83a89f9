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
    """The pinned release's result equals its stored snapshot, and a second run in the same process
    renders it byte for byte (a case that flickers, or whose first run changes the second, fails).
    Issue 51: the second run was a test of its own that ran every case twice more."""
    first = run_case(scenario, case)
    assert first.outcome != "error", first.detail
    assert measure(scenario, case).row(first) == snapshot
    second = run_case(scenario, case)
    assert (second.outcome, second.detail, second.timeline) == (first.outcome, first.detail, first.timeline)
