"""Shared fixtures and parameters of the test suite."""

from __future__ import annotations

import importlib.metadata
import signal
from pathlib import Path

import pytest

from harness.runtime import registry

ROOT = Path(__file__).resolve().parent.parent


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
    HARNESS_POSTGRES_SOCKET, from which harness/runtime/reproduction.py gives a script libpq's
    variables (PGHOST, PGUSER, ...) for its case."""
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


# --- checks over every case, selected by a scenario id too ------------------------------------
# A check that runs every case at once (determinism across cases and processes, warm workers
# against cold ones) is marked ``every_case``: ``-k ID`` (a scenario id, or ID:CASE) selects it as
# it selects the checks parametrized per case, and it then runs only the cases the expression
# names, so ``nox -s tests -- -k ID`` runs every check that covers the scenario.
EVERY_CASE = "every_case"


def pytest_configure(config):
    config.addinivalue_line(
        "markers", f"{EVERY_CASE}: a check over every case; -k SCENARIO-ID selects it for that scenario's cases"
    )


def keyword_cases(config, pairs):
    """The (scenario, case) pairs ``-k`` names (by scenario id or ID:CASE); all of them when it names none."""
    from _pytest.mark.expression import Expression

    pairs = list(pairs)
    expression = config.getoption("keyword")
    if not expression:
        return pairs
    compiled = Expression.compile(expression)

    def named(scenario, case) -> bool:
        names = (scenario.id.lower(), f"{scenario.id}:{case.id}".lower())
        return compiled.evaluate(lambda sub, **_: any(sub.lower() in n for n in names))

    chosen = [(s, c) for s, c in pairs if named(s, c)]
    return chosen or pairs


@pytest.hookimpl(tryfirst=True)  # before -k deselects
def pytest_collection_modifyitems(config, items):
    pairs = registry.select(registry.discover(), [])
    chosen = keyword_cases(config, pairs)
    if len(chosen) == len(pairs):
        return
    names = {s.id for s, _ in chosen} | {f"{s.id}:{c.id}" for s, c in chosen}
    for item in items:
        if item.get_closest_marker(EVERY_CASE):
            item.extra_keyword_matches.update(names)


def default_signals() -> None:
    """In a child the test starts: SIGTERM, SIGHUP and SIGINT at their defaults, as in a shell. A test
    run started under nohup (SIGHUP ignored) or by a runner that ignores SIGINT would otherwise pass
    that on, and the harness leaves an ignored signal ignored by design (a fresh-clone CI started
    with `&` from a script ran with SIGINT ignored: the Ctrl-C tests of test_faults_worker timed out)."""
    for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(signum, signal.SIG_DFL)
