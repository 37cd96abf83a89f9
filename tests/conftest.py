"""Shared fixtures: syrupy snapshots live under snapshots/tests/, nowhere else."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

import pytest
from syrupy.extensions.amber import AmberSnapshotExtension

from harness.runtime import registry

ROOT = Path(__file__).resolve().parent.parent


class HarnessSnapshots(AmberSnapshotExtension):
    """Amber snapshots in ``snapshots/tests/<test module>.ambr`` (one place for all snapshots)."""

    @classmethod
    def dirname(cls, *, test_location) -> str:
        return str(ROOT / "snapshots" / "tests")


@pytest.fixture
def snapshot(snapshot):
    return snapshot.use_extension(HarnessSnapshots)


def installed(framework: str) -> str | None:
    try:
        return importlib.metadata.version(framework)
    except importlib.metadata.PackageNotFoundError:
        return None


def case_params():
    """(scenario, case) pairs of the shipped scenarios, as pytest params with readable ids.

    Cases whose framework is not installed here are skipped, saying which release is missing.
    """
    params = []
    for scenario, case in registry.select(registry.discover(), []):
        marks = []
        if installed(scenario.framework) is None:
            marks.append(pytest.mark.skip(reason=f"{scenario.framework} not installed"))
        params.append(pytest.param(scenario, case, id=f"{scenario.id}:{case.id}", marks=marks))
    return params
