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

    monkeypatch.setattr(environments.uv, "command", lambda: ["uv"])
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


@pytest.mark.parametrize(
    ("offline_code", "offline_installs", "expected"),
    [
        (0, ["google-adk==2.8.0", "pydantic==2.11.0"], True),  # the record's environment, without the index
        (0, ["google-adk==2.8.0", "pydantic==2.10.0"], False),  # a stale cached page: made again online
        (2, [], False),  # a package not in uv's cache
    ],
)
def test_a_new_environment_is_resolved_offline_only_to_the_record_s_packages(
    fake_uv, monkeypatch, tmp_path, offline_code, offline_installs, expected
):
    """Issue 27: the record's packages of a release are its lock; an offline resolution that
    installs anything else is thrown away and the environment resolved against the index."""
    monkeypatch.setitem(environments.PACKAGE, "google-adk", "json")
    recorded = ("google-adk==2.8.0", "pydantic==2.11.0")
    offline_calls = []

    def offline(cmd, **kwargs):
        offline_calls.append(cmd)
        return environments.subprocess.CompletedProcess(cmd, offline_code, "", "error: not in the cache")

    monkeypatch.setattr(environments.subprocess, "run", offline)
    monkeypatch.setattr(environments, "installed", lambda path: offline_installs)
    monkeypatch.setattr(environments, "missing_package", lambda python, framework: None)
    build = builds.parse("google-adk==2.8.0", tmp_path)
    env = environments.ensure(build, tmp_path / "builds", tmp_path, requires=((), ()), recorded=recorded)
    assert env.from_record is expected
    assert env.made == ("built from the record's packages" if expected else "built")
    assert len(offline_calls) == 1 and "--offline" in offline_calls[0]
    assert "--exclude-newer" in offline_calls[0]
    # Online: a new venv and the resolving install, only when the offline one was not the record's.
    assert fake_uv == (["venv"] if expected else ["venv", "venv", "pip"])
    assert (env.path / "bin" / "python").exists()


def test_without_a_record_a_new_environment_is_resolved_online(fake_uv, monkeypatch, tmp_path):
    monkeypatch.setitem(environments.PACKAGE, "google-adk", "json")
    monkeypatch.setattr(environments.subprocess, "run", lambda *a, **k: pytest.fail("no offline attempt"))
    monkeypatch.setattr(environments, "missing_package", lambda python, framework: None)
    build = builds.parse("google-adk==2.8.0", tmp_path)
    env = environments.ensure(build, tmp_path / "builds", tmp_path, requires=((), ()))
    assert not env.from_record and fake_uv == ["venv", "pip"]


def test_installed_reads_an_environment_s_distributions(tmp_path):
    site = tmp_path / "lib" / "python3.11" / "site-packages"
    for name, version in (("Zeta_Pkg", "1.0"), ("alpha", "2.5")):
        info = site / f"{name}-{version}.dist-info"
        info.mkdir(parents=True)
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n\nlong text\n")
    assert environments.installed(tmp_path) == ["alpha==2.5", "Zeta_Pkg==1.0"]
