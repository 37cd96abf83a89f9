"""Sessions of the harness. `nox -s tests` is the test command; `nox -s matrix` the main job."""

from __future__ import annotations

import sys
from pathlib import Path

import nox

nox.needs_version = ">=2024.3.2"
nox.options.default_venv_backend = "uv"
nox.options.sessions = ["tests"]

# The releases `nox -s tests` runs the scenarios on: pinned, so a new upstream release
# never breaks the test command (`nox -s matrix` is what follows new releases).
TEST_PINS = ["google-adk==2.13.0", "openai-agents==0.24.0"]
# Resolve the test environment's dependencies as of this date, for the same reason.
TEST_DEPENDENCY_DATE = "2026-11-29T00:00:00Z"


def pins_with_requirements() -> list[str]:
    """TEST_PINS with what the scenarios require (Scenario.requires): the framework's extras
    on its pin (``google-adk[db]==2.13.0``) and the other packages, as every matrix
    environment of the framework gets them (harness/environments.py)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from harness import registry  # the harness core is stdlib-only

    scenarios = registry.discover()
    out: list[str] = []
    for pin in TEST_PINS:
        name, _, version = pin.partition("==")
        extras, packages = registry.requirements(scenarios, name)
        out.append(f"{name}[{','.join(extras)}]=={version}" if extras else pin)
        out.extend(p for p in packages if p not in out)
    return out


def install_test_dependencies(session: nox.Session) -> None:
    group = nox.project.dependency_groups(nox.project.load_toml("pyproject.toml"), "test")
    session.install("--exclude-newer", TEST_DEPENDENCY_DATE, *pins_with_requirements(), *group, "uv")


@nox.session
def tests(session: nox.Session) -> None:
    """Run the harness's own tests and every scenario on the pinned releases."""
    install_test_dependencies(session)
    session.run("pytest", *session.posargs)


@nox.session(default=False)
def matrix(session: nox.Session) -> None:
    """Run every scenario across framework releases (or the SPECs given after --)."""
    # The harness core is stdlib-only; each build gets its own environment, made by
    # the harness with uv (harness/environments.py), so only uv is installed here.
    session.install("uv", "packaging")
    session.run("python", "-m", "harness", "matrix", *session.posargs)


@nox.session(default=False)
def new(session: nox.Session) -> None:
    """Write a new scenario module from the template: nox -s new -- <id> --framework NAME."""
    session.run("python", "-m", "harness", "new", *session.posargs)


@nox.session(default=False)
def bisect(session: nox.Session) -> None:
    """Find the releases where a case's outcome changes: nox -s bisect -- <scenario>[:<case>]."""
    session.install("uv", "packaging")
    session.run("python", "-m", "harness", "bisect", *session.posargs)


@nox.session(default=False)
def bench(session: nox.Session) -> None:
    """Time the matrix against a hand-rolled baseline and the import floor."""
    session.install("uv", "packaging")
    session.run("python", "-m", "harness.bench", *session.posargs)
