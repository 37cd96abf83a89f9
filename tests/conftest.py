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


@pytest.fixture(scope="session", autouse=True)
def postgres_server():
    """The PostgreSQL server of the ``-postgresql`` cases, started on first need (one per test
    process, as the matrix starts one per run) and torn down at the end; its socket folder in
    HARNESS_POSTGRES_SOCKET, where harness/runtime/fakes/adk.py ``database`` reads it."""
    import contextlib
    import os

    from harness.execution import postgres

    wanted = any(c.backend != "sqlite" for _, c in registry.select(registry.discover(), []))
    if wanted and postgres.SOCKET_ENV not in os.environ:
        # When it cannot start, the -postgresql cases fail, naming the unset variable.
        with contextlib.suppress(postgres.Unavailable):
            os.environ[postgres.SOCKET_ENV] = postgres.server().socket_dir
    try:
        yield
    finally:
        postgres.stop()
