"""harness/execution/environments.py: a release that cannot be used is remembered for its inputs."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from harness.execution import environments
from harness.planning import builds


@pytest.fixture
def fake_uv(monkeypatch):
    """uv replaced: ``venv`` makes bin/python (this Python), ``pip install`` installs nothing."""
    calls: list[str] = []

    def run(cmd):
        calls.append(cmd[1])
        if "venv" in cmd:
            python = Path(cmd[-1]) / "bin" / "python"
            python.parent.mkdir(parents=True, exist_ok=True)
            python.symlink_to(sys.executable)

    monkeypatch.setattr(environments, "uv_command", lambda: ["uv"])
    monkeypatch.setattr(environments, "_run", run)
    monkeypatch.setattr(environments, "dependency_date", lambda build, cache_dir: "2025-04-09T00:00:00Z")
    return calls


def test_a_release_that_installs_no_framework_package_is_remembered_for_its_inputs(fake_uv, monkeypatch, tmp_path):
    """Issue 30: google-adk 0.0.1 installs, but no google.adk: not built again by every bisect."""
    monkeypatch.setitem(environments.PACKAGE, "google-adk", "no_such_package_here.adk")
    build = builds.parse("google-adk==0.0.1", tmp_path)
    none = ((), ())
    with pytest.raises(environments.BuildFailed, match=r"installs no no_such_package_here\.adk package"):
        environments.ensure(build, tmp_path / "builds", tmp_path, requires=none)
    assert fake_uv == ["venv", "pip"]
    assert (tmp_path / "builds" / ("google-adk-0.0.1" + environments.UNUSABLE_SUFFIX)).exists()
    with pytest.raises(environments.BuildFailed, match=r"installs no no_such_package_here\.adk package"):
        environments.ensure(build, tmp_path / "builds", tmp_path, requires=none)
    assert fake_uv == ["venv", "pip"]  # remembered: uv not asked again
    # Other inputs (the scenarios now require a package): tried again.
    with pytest.raises(environments.BuildFailed):
        environments.ensure(build, tmp_path / "builds", tmp_path, requires=((), ("aiosqlite",)))
    assert fake_uv == ["venv", "pip", "venv", "pip"]


def test_an_environment_with_its_package_is_stamped_and_a_network_failure_is_not_remembered(
    fake_uv, monkeypatch, tmp_path
):
    monkeypatch.setitem(environments.PACKAGE, "google-adk", "json")  # found in this Python
    build = builds.parse("google-adk==2.8.0", tmp_path)
    env = environments.ensure(build, tmp_path / "builds", tmp_path, requires=((), ()))
    assert (env.path / environments.PACKAGE_CHECKED).exists() and not env.reused
    assert environments.ensure(build, tmp_path / "builds", tmp_path, requires=((), ())).reused

    def offline(cmd):
        raise environments.BuildFailed("Failed to fetch: https://pypi.org/simple/google-adk/ (connection reset)")

    monkeypatch.setattr(environments, "_run", offline)
    other = builds.parse("google-adk==2.9.0", tmp_path)
    with pytest.raises(environments.BuildFailed):
        environments.ensure(other, tmp_path / "builds", tmp_path, requires=((), ()))
    assert not (tmp_path / "builds" / ("google-adk-2.9.0" + environments.UNUSABLE_SUFFIX)).exists()
